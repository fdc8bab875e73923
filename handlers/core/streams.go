package core

import (
	"net/http"
	"sync"
	"time"
)

// StreamLimits bounds the event streams (the live updates of game pages):
// PerGame streams of one client (clientKey) on one game, PerClient
// streams of one client in all, and Total streams of the instance. Past a
// bound a new stream gets 429; the page then updates when it reconnects
// (htmx's SSE extension tries again after 0.5 s, 1 s, 2 s, ... up to
// 64 s) or when it reloads, as without JavaScript.
type StreamLimits struct {
	PerGame, PerClient, Total int
}

// defaultStreamLimits are the bounds of a zero StreamLimits field.
var defaultStreamLimits = StreamLimits{PerGame: 6, PerClient: 40, Total: 20000}

// StreamRetryAfter is the Retry-After of a refused stream.
const StreamRetryAfter = 10 * time.Second

// ErrTooManyStreams refuses a stream past a bound.
var ErrTooManyStreams = &UserError{http.StatusTooManyRequests, "err_too_many_streams"}

// streams counts the open event streams by client and game.
type streams struct {
	StreamLimits

	mu       sync.Mutex
	byGame   map[clientGame]int
	byClient map[string]int
	total    int
}

// clientGame is a client's streams on one game.
type clientGame struct{ client, game string }

// NewStreams returns the counts of streams bounded by lim (its zero
// fields from defaultStreamLimits).
func NewStreams(lim StreamLimits) *streams {
	d := defaultStreamLimits
	if lim.PerGame <= 0 {
		lim.PerGame = d.PerGame
	}
	if lim.PerClient <= 0 {
		lim.PerClient = d.PerClient
	}
	if lim.Total <= 0 {
		lim.Total = d.Total
	}
	return &streams{StreamLimits: lim, byGame: map[clientGame]int{}, byClient: map[string]int{}}
}

// OpenStream counts a new stream of client on game. Within the bounds it
// returns true and the function that counts the stream closed (to call
// once); past one, false and nil.
func (s *streams) OpenStream(client, game string) (bool, func()) {
	key := clientGame{client, game}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.total >= s.Total || s.byClient[client] >= s.PerClient || s.byGame[key] >= s.PerGame {
		return false, nil
	}
	s.total++
	s.byClient[client]++
	s.byGame[key]++
	return true, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.total--
		if s.byClient[client]--; s.byClient[client] <= 0 {
			delete(s.byClient, client)
		}
		if s.byGame[key]--; s.byGame[key] <= 0 {
			delete(s.byGame, key)
		}
	}
}

// Open returns the number of open streams of the instance.
func (s *streams) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}
