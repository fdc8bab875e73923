package handlers

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/views"
)

// keepAlive is how often an idle event stream sends a comment, so proxies
// keep the connection open.
const keepAlive = 20 * time.Second

// gameEvents streams the game panel of the visitor's view as server-sent
// events (event "game") whenever the game changes.
func (h *handler) gameEvents(c echo.Context) error {
	id := c.Param("id")
	load := func(ctx context.Context) (*game.Game, engine.Side, error) {
		g, err := h.games.Load(ctx, id)
		if err != nil {
			return nil, engine.Nobody, err
		}
		return g, h.seatOf(c, g), nil
	}
	return h.stream(c, id, load)
}

// watchEvents streams the spectator view of the game with the :key.
func (h *handler) watchEvents(c echo.Context) error {
	g, err := h.games.LoadByKey(c.Request().Context(), c.Param("key"))
	if err != nil {
		return err
	}
	load := func(ctx context.Context) (*game.Game, engine.Side, error) {
		g, err := h.games.Load(ctx, g.ID)
		return g, engine.Nobody, err
	}
	return h.stream(c, g.ID, load)
}

// stream sends the panel of the game each time the broker announces a new
// version, and at once when the page (query "v") is older than the game.
func (h *handler) stream(c echo.Context, id string, load func(context.Context) (*game.Game, engine.Side, error)) error {
	ctx := c.Request().Context()
	// Subscribe before the first load, so that no change slips in between.
	ch, cancel := h.events.Subscribe(id)
	defer cancel()
	g, seat, err := load(ctx)
	if err != nil {
		return err
	}
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set(echo.HeaderCacheControl, "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	last, _ := strconv.Atoi(c.QueryParam("v"))
	send := func(g *game.Game, seat engine.Side) error {
		if g.Version <= last {
			return nil
		}
		last = g.Version
		wv := h.viewerOf(c, g, seat)
		wv.live = true
		v := h.gameView(g, wv)
		v.OOB = true
		var buf bytes.Buffer
		if err := views.GamePanel(h.visit(c).l, v).Render(ctx, &buf); err != nil {
			return err
		}
		var msg strings.Builder
		msg.WriteString("event: game\n")
		for _, line := range strings.Split(buf.String(), "\n") {
			msg.WriteString("data: " + line + "\n")
		}
		msg.WriteString("\n")
		if _, err := w.Write([]byte(msg.String())); err != nil {
			return err
		}
		w.Flush()
		return nil
	}
	if _, err := w.Write([]byte("retry: 2000\n\n")); err != nil {
		return nil
	}
	w.Flush()
	if err := send(g, seat); err != nil {
		h.log.Warn("events", "game", id, "err", err)
		return nil
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case v, ok := <-ch:
			if !ok {
				return nil
			}
			if v != 0 && v <= last {
				continue
			}
			g, seat, err := load(ctx)
			if err == nil {
				err = send(g, seat)
			}
			if err != nil {
				h.log.Warn("events", "game", id, "err", err)
				return nil
			}
		case <-tick.C:
			if _, err := w.Write([]byte(": ping\n\n")); err != nil {
				return nil
			}
			w.Flush()
		}
	}
}
