package handlers

import (
	"bytes"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/views"
)

// gameEvents streams the game panel of the visitor's view as server-sent
// events (event "game") whenever the game changes.
func (h *handler) gameEvents(c echo.Context) error {
	id := c.Param("id")
	if !game.ValidID(id) {
		return errNotFound
	}
	return h.stream(c, id, func() (*game.Game, engine.Side, error) {
		return h.games.LoadFor(c.Request().Context(), id, h.visitorOf(c))
	})
}

// watchEvents streams the spectator view of the game with the :key.
func (h *handler) watchEvents(c echo.Context) error {
	g, err := h.games.LoadByKey(c.Request().Context(), c.Param("key"))
	if err != nil {
		return err
	}
	first := g
	return h.stream(c, g.ID, func() (*game.Game, engine.Side, error) {
		if first != nil {
			g, first = first, nil
			return g, engine.Nobody, nil
		}
		g, err := h.games.Load(c.Request().Context(), g.ID)
		return g, engine.Nobody, err
	})
}

// stream follows game id for the request, within the bounds of streams
// (429 past them): it sends the panel at once when the page (query "v",
// or the event id the browser last got) is older than the game, then each
// new version that live fans out: what changed when the stream sent the
// version before, else the whole panel (frame.next).
func (h *handler) stream(c echo.Context, id string, load func() (*game.Game, engine.Side, error)) error {
	ok, closed := h.streams.open(clientKey(c), id)
	if !ok {
		setRetryAfter(c, streamRetryAfter)
		return errTooManyStreams
	}
	defer closed()
	last, _ := strconv.Atoi(c.QueryParam("v"))
	if n, err := strconv.Atoi(c.Request().Header.Get("Last-Event-ID")); err == nil && n > last {
		last = n
	}
	w := &watcher{kind: kind{lang: langOf(c)}, csrf: csrfToken(c), view: c.QueryParam("view")}
	// Follow the game before loading it, so that no change slips in between.
	unwatch := h.live.watch(id, w)
	defer unwatch()
	g, seat, err := load()
	if err != nil {
		return err
	}
	if h.live.ready(id, w, seat) > g.Version {
		// A version went out while the stream was not ready for it.
		if g, _, err = load(); err != nil {
			return err
		}
	}
	var first []byte
	if g.Version > last || h.live.wants(id, w.kind, g.Version) {
		// The page is older than the game, or live keeps no panel of this
		// version to take the next version's delta against.
		panels, err := h.panels(g, []kind{w.kind})
		if err != nil {
			h.log.WarnContext(c.Request().Context(), "events", "game", id, "err", err)
			return nil
		}
		parts := views.Cut(panels[w.kind])
		h.live.keep(id, w.kind, g.Version, parts)
		if g.Version > last {
			last = g.Version
			first = sseFrame(g.Version, "game", parts.Full)
			first = bytes.ReplaceAll(first, []byte(csrfPlaceholder), []byte(w.csrf))
		}
	}
	return serveEvents(c, first, w.frames, func(f frame) []byte {
		b := f.next(last)
		last = max(last, f.version)
		return b
	})
}
