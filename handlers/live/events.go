package live

import (
	"bytes"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/views"
)

// gameEvents streams the game panel of the visitor's view as server-sent
// events (event "game") whenever the game changes.
func (h *Server) gameEvents(c echo.Context) error {
	id := c.Param("id")
	if !game.ValidID(id) {
		return core.ErrNotFound
	}
	return h.stream(c, id, func() (*game.Game, engine.Side, error) {
		return h.Games.LoadFor(c.Request().Context(), id, h.VisitorOf(c))
	})
}

// watchEvents streams the spectator view of the game with the :key.
func (h *Server) watchEvents(c echo.Context) error {
	g, err := h.Games.LoadByKey(c.Request().Context(), c.Param("key"))
	if err != nil {
		return err
	}
	first := g
	return h.stream(c, g.ID, func() (*game.Game, engine.Side, error) {
		if first != nil {
			g, first = first, nil
			return g, engine.Nobody, nil
		}
		g, err := h.Games.Load(c.Request().Context(), g.ID)
		return g, engine.Nobody, err
	})
}

// stream follows game id for the request, within the bounds of streams
// (429 past them): it sends the panel at once when the page (query "v",
// or the event id the browser last got) is older than the game, then each
// new version that live fans out: what changed when the stream sent the
// version before, else the whole panel (frame.next).
func (h *Server) stream(c echo.Context, id string, load func() (*game.Game, engine.Side, error)) error {
	ok, closed := h.Streams.OpenStream(core.ClientKey(c), id)
	if !ok {
		core.SetRetryAfter(c, core.StreamRetryAfter)
		return core.ErrTooManyStreams
	}
	kept := false // the stream went on detached: its end runs these
	defer func() {
		if !kept {
			closed()
		}
	}()
	last, _ := strconv.Atoi(c.QueryParam("v"))
	if n, err := strconv.Atoi(c.Request().Header.Get("Last-Event-ID")); err == nil && n > last {
		last = n
	}
	w := &watcher{PanelKind: core.PanelKind{Lang: core.LangOf(c)}, csrf: core.CsrfToken(c), view: c.QueryParam("view")}
	// Follow the game before loading it, so that no change slips in between.
	unwatch := h.hub.watch(id, w)
	defer func() {
		if !kept {
			unwatch()
		}
	}()
	g, seat, err := load()
	if err != nil {
		return err
	}
	if h.hub.ready(id, w, seat) > g.Version {
		// A version went out while the stream was not ready for it.
		if g, _, err = load(); err != nil {
			return err
		}
	}
	var first []byte
	if g.Version > last || h.hub.wants(id, w.PanelKind, g.Version) {
		// The page is older than the game, or live keeps no panel of this
		// version to take the next version's delta against.
		panels, err := h.panels(g, []core.PanelKind{w.PanelKind})
		if err != nil {
			h.Log.WarnContext(c.Request().Context(), "events", "game", id, "err", err)
			return nil
		}
		parts := views.Cut(panels[w.PanelKind])
		h.hub.keep(id, w.PanelKind, g.Version, parts)
		if g.Version > last {
			last = g.Version
			first = sseFrame(g.Version, "game", parts.Full)
			first = bytes.ReplaceAll(first, []byte(core.CsrfPlaceholder), []byte(w.csrf))
		}
	}
	if d := detach(c, first, last, func() { unwatch(); closed() }); d != nil {
		kept = true
		h.hub.detached(w, d)
		return nil
	}
	return serveEvents(c, first, w.frames, func(f frame) []byte {
		b := f.next(last)
		last = max(last, f.version)
		return b
	})
}
