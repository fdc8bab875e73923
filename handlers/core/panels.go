package core

import (
	"oware/engine"
	"oware/game"
)

// PanelKind is a kind of watcher: a language and a seat (engine.Nobody for a
// spectator). Watchers of a kind get the same bytes, but for the CSRF
// token of a player's forms.
type PanelKind struct {
	Lang string
	Seat engine.Side
}

// CsrfPlaceholder stands for a player's CSRF token in a panel rendered for
// every watcher of a seat; it cannot be a token, a name or a label.
const CsrfPlaceholder = "csrf.placeholder.of.the.live.panel"

// ViewKey is the context key of the id of the page (X-View) whose action
// a request is.
type ViewKey struct{}

// RenderPanels renders game g's panel once per kind of watcher, with the
// marks of its parts (views.WithParts), for the event streams to cut up
// (views.Cut); the site's (package web) is the one.
type RenderPanels func(g *game.Game, kinds []PanelKind) (map[PanelKind][]byte, error)
