package handlers

import (
	"errors"
	"html"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/play"
	"oware/views"
)

// Game review (docs/learning.md): the computer's analysis of a finished
// game or an imported record, asked for by a form on the replay or by the
// API, computed in the background by package game and shown beside the
// replay. Asking counts against the client's analysis limit (h.analyses);
// asking again changes nothing.
//
//	POST /api/v1/games/{id}/analysis   → 202 {"status"}; 409 not over; 404; 429
//	GET  /api/v1/games/{id}/analysis   → 200 {"status","plies","summary",...}
//	POST|GET /api/v1/imports/{id}/analysis   the same for an imported record
//	POST /{lang}/games/{id}/analysis   the form (htmx: the replay's panel)
//	POST /{lang}/import/{id}/analysis  the form of an imported record

// errReviewTooLong refuses a game longer than game.MaxReviewPlies.
var errReviewTooLong = &userError{http.StatusUnprocessableEntity, "rv_err_too_long"}

// reviewJSON is the answer of the review API: the contract's status,
// plies and summary, and the progress (plies reviewed of total).
type reviewJSON struct {
	Status   play.ReviewStatus  `json:"status"`
	Plies    []game.ReviewPly   `json:"plies"`
	Summary  game.ReviewSummary `json:"summary"`
	Reviewed int                `json:"reviewed"`
	Total    int                `json:"total"`
}

// reviewAnswer is r as the API answers it.
func reviewAnswer(r *game.Review) reviewJSON {
	plies := r.Plies
	if plies == nil {
		plies = []game.ReviewPly{}
	}
	return reviewJSON{Status: r.Status, Plies: plies, Summary: r.Summary(), Reviewed: r.Reviewed, Total: r.Total}
}

// gameSubject loads the game of the request's :id for a review (not
// found is a refusal).
func (h *handler) gameSubject(c echo.Context) (game.ReviewSubject, error) {
	g, err := h.games.Load(c.Request().Context(), c.Param("id"))
	if err != nil {
		return game.ReviewSubject{}, err
	}
	return game.GameSubject(g), nil
}

// finishedSubject is gameSubject for asking: a game not over yet is
// refused (409, game.ErrNotOver).
func (h *handler) finishedSubject(c echo.Context) (game.ReviewSubject, error) {
	g, err := h.games.Load(c.Request().Context(), c.Param("id"))
	if err != nil {
		return game.ReviewSubject{}, err
	}
	if g.Status != game.Over {
		return game.ReviewSubject{}, game.ErrNotOver
	}
	return game.GameSubject(g), nil
}

// importSubject loads the imported record of the request's :id for a
// review.
func (h *handler) importSubject(c echo.Context) (game.ReviewSubject, error) {
	id := c.Param("id")
	text, err := h.games.ImportRecord(c.Request().Context(), id)
	if errors.Is(err, game.ErrNotFound) {
		return game.ReviewSubject{}, errNotFound
	}
	if err != nil {
		return game.ReviewSubject{}, err
	}
	rec, err := readRecord(text)
	if err != nil {
		return game.ReviewSubject{}, errNotFound // a record this release cannot read
	}
	return game.ImportSubject(id, rec), nil
}

// apiImportSubject is importSubject within the client's import limit
// (reading a record costs as much as its replay).
func (h *handler) apiImportSubject(c echo.Context) (game.ReviewSubject, error) {
	if err := h.imports.check(c); err != nil {
		return game.ReviewSubject{}, err
	}
	return h.importSubject(c)
}

// requestReview asks for the review of sub within the client's limit.
func (h *handler) requestReview(c echo.Context, sub game.ReviewSubject) (*game.Review, error) {
	if err := h.analyses.check(c); err != nil {
		return nil, err
	}
	r, err := h.games.RequestReview(c.Request().Context(), sub)
	if errors.Is(err, game.ErrReviewTooLong) {
		return nil, errReviewTooLong
	}
	return r, err
}

// apiRequestReview: POST /api/v1/games/:id/analysis (or imports/:id).
func (h *handler) apiRequestReview(subject func(echo.Context) (game.ReviewSubject, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		sub, err := subject(c)
		if err != nil {
			return err
		}
		r, err := h.requestReview(c, sub)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusAccepted, map[string]string{"status": string(r.Status)})
	}
}

// apiReview: GET /api/v1/games/:id/analysis (or imports/:id).
func (h *handler) apiReview(subject func(echo.Context) (game.ReviewSubject, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		sub, err := subject(c)
		if err != nil {
			return err
		}
		r, err := h.games.LoadReview(c.Request().Context(), sub.Key)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, reviewAnswer(r))
	}
}

// reviewForm: POST /{lang}/games/:id/analysis (or import/:id) with the
// ply shown; htmx gets the replay's panel, a plain form a redirect to it.
func (h *handler) reviewForm(subject func(echo.Context) (game.ReviewSubject, error), replay echo.HandlerFunc, url func(lang, id string, ply int) string) echo.HandlerFunc {
	return func(c echo.Context) error {
		sub, err := subject(c)
		if err != nil {
			return err
		}
		if _, err := h.requestReview(c, sub); err != nil {
			return err
		}
		ply, err := strconv.Atoi(c.FormValue("ply"))
		if err != nil {
			ply = len(sub.Moves)
		}
		if htmx(c) {
			q := c.Request().URL.Query()
			q.Set("ply", strconv.Itoa(ply))
			c.Request().URL.RawQuery = q.Encode()
			return replay(c)
		}
		return c.Redirect(http.StatusSeeOther, url(langOf(c), c.Param("id"), ply))
	}
}

// gameReviewForm is the review form of a finished game.
func (h *handler) gameReviewForm(c echo.Context) error {
	return h.reviewForm(h.finishedSubject, h.replayPage, gameReplayAt)(c)
}

// importReviewForm is the review form of an imported record.
func (h *handler) importReviewForm(c echo.Context) error {
	return h.reviewForm(h.importSubject, h.importReplay, importURL)(c)
}

// attachReview adds the review under key to the replay v of lang: the
// form to ask for it (action), or its progress (events), or the review and
// the learning from its mistakes (learn).
func (h *handler) attachReview(c echo.Context, v *views.ReplayView, key, action, events, learn string) error {
	r, err := h.games.LoadReview(c.Request().Context(), key)
	if err != nil {
		return err
	}
	rv := &views.ReviewView{Status: r.Status, Reviewed: r.Reviewed, Total: r.Total, Action: action,
		Events: events, Progress: v.URL(v.Ply) + "&poll=1", CSRF: csrfToken(c)}
	sum := r.Summary()
	rv.South, rv.North = reviewSide(sum.South), reviewSide(sum.North)
	for _, p := range r.Plies {
		mover := engine.South
		if p.Mover == engine.North.String() {
			mover = engine.North
		}
		rv.Points = append(rv.Points, views.ReviewPoint{Ply: p.Ply, Move: p.Move, Mover: mover, Value: p.Value,
			BestValue: p.BestValue, Best: p.Best, PV: p.PV, Exact: p.Exact, Result: p.Result, Loss: p.Loss,
			Mark: string(p.Mark), Refutation: p.Refutation})
	}
	if r.Status == game.ReviewDone && sum.South.Mistake+sum.South.Blunder+sum.North.Mistake+sum.North.Blunder > 0 {
		rv.Learn = learn
	}
	v.Review = rv
	return nil
}

// reviewSide is a player's summary for the view.
func reviewSide(s game.ReviewSide) views.ReviewSide {
	return views.ReviewSide{Inaccuracy: s.Inaccuracy, Mistake: s.Mistake, Blunder: s.Blunder, AverageLoss: s.AverageLoss}
}

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
func (h *handler) reviewEvents(prefix string) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("id")
		if id == "" || len(id) > maxSubjectID {
			return errNotFound
		}
		key := prefix + id
		ctx := c.Request().Context()
		r, err := h.games.ReviewProgress(ctx, key)
		if err != nil {
			return err
		}
		if r.Status == game.ReviewNone {
			return errNotFound
		}
		ok, closed := h.streams.open(clientKey(c), key)
		if !ok {
			setRetryAfter(c, streamRetryAfter)
			return errTooManyStreams
		}
		defer closed()
		write := startEventStream(c)
		l := h.visit(c).l
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
			if r, err = h.games.ReviewProgress(ctx, key); err != nil {
				return nil
			}
		}
	}
}
