package core

import (
	"log/slog"

	"github.com/gorilla/sessions"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"oware/accounts"
	"oware/content"
	"oware/engine"
	"oware/game"
	"oware/mailer"
	"oware/static"
	"oware/tournament"
)

// Handlers holds what the handlers of every surface share: the services,
// the site's settings, the message catalogs, the sessions, the limits and
// the page cache. The surfaces (web, api, live) embed it.
type Handlers struct {
	Games           *game.Service
	Accounts        *accounts.Service
	Content         *content.Service
	Tournaments     *tournament.Service
	Events          game.Broker // the tournaments' live standings (tournaments.go)
	Base            string
	Log             *slog.Logger
	Version, Commit string
	Bundle          *i18n.Bundle
	Localizers      map[string]*Localizer // by locale
	Assets          *static.Assets
	Sessions        *sessions.CookieStore
	CSRFKey         []byte       // the key of the forms' CSRF tokens (NewCSRFKey, csrf.go)
	Limits          *loginLimits // failed logins (limits.go)
	Guesses         *loginLimits // wrong passwords of tournaments, as failed logins (Guess)
	// Actions holds the frames of a page's event streams while one of its
	// actions is in flight (package live's hub); nil: none are held.
	Actions        ActionHold
	Analyses       *ClientLimit // the analysis API's per-client limit (ratelimit.go)
	Challenges     *ClientLimit // new challenges' per-client limit
	Imports        *ClientLimit // the import page's per-client limit
	PuzzleAttempts *ClientLimit // the puzzle attempts' per-client limit
	Streams        *streams     // the open event streams (streams.go)
	Legal          *engine.LegalCache
	Bodies         content.BodyCache
	Pages          pageCache      // whole pages of visitors without an account
	BehindProxy    bool           // Config.BehindProxy
	Mail           *mailer.Mailer // nil: no password resets (reset.go)
	// SeatRoutes are the paths (echo's c.Path) of the seat actions, whose
	// game is read with the session's account (routes.go).
	SeatRoutes map[string]bool
	// selfCompressed are the routes whose answers compress themselves
	// (SelfCompressed).
	selfCompressed map[string]bool
}

// ActionHold is what the middleware tells the event streams of a page
// (X-View) about its actions: Begin when one starts, End when it is
// answered, so that a frame of its own version is not sent meanwhile.
type ActionHold interface {
	Begin(view string)
	End(view string)
}
