package live

import (
	"bytes"
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"oware/handlers/core"
	"oware/tournament"
	"oware/views"
)

// tournamentChannel is the broker's key of tournament id's changes (a
// game's is its 12-character id, so they never meet).
func tournamentChannel(id string) string { return "t" + id }

// publishTournament is the tournament service's OnChange hook: the change
// goes to the tournament's event streams on every instance.
func (h *Server) publishTournament(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.Events.Publish(ctx, tournamentChannel(id), int(time.Now().UnixMilli()%(1<<30))+1); err != nil {
		h.Log.Warn("tournament event", "tournament", id, "err", err)
	}
}

// tournamentEvents: GET /{lang}/tournaments/{id}/events streams the live
// part of the page (event "standings") whenever the tournament changes,
// within the bounds of the event streams (429 past them). The standings
// are counted once per change for every stream of the instance
// (standings.go); each stream renders them for its viewer.
func (h *Server) tournamentEvents(c echo.Context) error {
	t, err := h.Tournaments.Find(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	ok, closed := h.Streams.OpenStream(core.ClientKey(c), tournamentChannel(t.ID))
	if !ok {
		core.SetRetryAfter(c, core.StreamRetryAfter)
		return core.ErrTooManyStreams
	}
	defer closed()
	counts, stop := h.standings.watch(t.ID)
	defer stop()
	var last []byte
	return serveEvents(c, nil, counts, func(v *tournament.View) []byte {
		var buf bytes.Buffer
		err := views.TournamentLive(h.Visit(c).L, core.LangOf(c), h.tournamentView(c, v)).Render(c.Request().Context(), &buf)
		if err != nil || bytes.Equal(buf.Bytes(), last) {
			return nil
		}
		last = buf.Bytes()
		return sseEvent("standings", last)
	})
}
