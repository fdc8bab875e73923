package core

import (
	"net/http"
	"time"
)

// The preset chat's limits (issue 24), for a page's form and the Bot API
// alike: a seat sends at most one message every ChatGap and ChatMax in a
// game.
const (
	ChatGap = 2 * time.Second
	ChatMax = 40
)

// ErrChatLimit refuses a message past the limits.
var ErrChatLimit = &UserError{Status: http.StatusTooManyRequests, Key: "chat_too_fast"}
