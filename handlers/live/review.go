package live

import (
	"html"
	"time"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/handlers/core"
)

// reviewPoll is how often a review's event stream reads its progress
// from the reviews table (whichever process computes it writes it there
// after every ply).
const reviewPoll = time.Second

// maxSubjectID bounds the id of a review's subject in a stream's address
// (games' ids have 12 characters, imported records' fewer than 64).
const maxSubjectID = 64

// reviewEvents: GET /{lang}/games/{id}/analysis/events (or
// import/{id}/analysis/events) streams the progress of the review under
// the key prefix+id as server-sent events, within the bounds of the event
// streams (429 past them): event "review" with the localized progress
// ("12 of 60 moves reviewed") at once and whenever it changes, then event
// "done" when the review is complete, after which the stream ends (the
// page then asks for its panel, as the poll does without event streams).
// 404 when no review was asked for.
func (h *Server) reviewEvents(prefix string) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("id")
		if id == "" || len(id) > maxSubjectID {
			return core.ErrNotFound
		}
		key := prefix + id
		ctx := c.Request().Context()
		r, err := h.Games.ReviewProgress(ctx, key)
		if err != nil {
			return err
		}
		if r.Status == game.ReviewNone {
			return core.ErrNotFound
		}
		ok, closed := h.Streams.OpenStream(core.ClientKey(c), key)
		if !ok {
			core.SetRetryAfter(c, core.StreamRetryAfter)
			return core.ErrTooManyStreams
		}
		defer closed()
		write := startEventStream(c)
		l := h.Visit(c).L
		var last string
		poll := time.NewTicker(reviewPoll)
		defer poll.Stop()
		ping := time.NewTicker(keepAlive)
		defer ping.Stop()
		for {
			if r.Status == game.ReviewDone {
				_ = write(sseEvent("done", []byte(r.Status)))
				return nil
			}
			if text := l.T("rv_progress", "Done", r.Reviewed, "Total", r.Total); text != last {
				last = text
				if write(sseEvent("review", []byte(html.EscapeString(text)))) != nil {
					return nil
				}
			}
			select {
			case <-ctx.Done():
				return nil
			case <-ping.C:
				if write([]byte(": ping\n\n")) != nil {
					return nil
				}
				continue
			case <-poll.C:
			}
			if r, err = h.Games.ReviewProgress(ctx, key); err != nil {
				return nil
			}
		}
	}
}
