package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/views"
)

// reviewForm: POST /{lang}/games/:id/analysis (or import/:id) with the
// ply shown; htmx gets the replay's panel, a plain form a redirect to it.
func (h *Site) reviewForm(subject func(echo.Context) (game.ReviewSubject, error), replay echo.HandlerFunc, url func(lang, id string, ply int) string) echo.HandlerFunc {
	return func(c echo.Context) error {
		sub, err := subject(c)
		if err != nil {
			return err
		}
		if _, err := h.RequestReview(c, sub); err != nil {
			return err
		}
		ply, err := strconv.Atoi(c.FormValue("ply"))
		if err != nil {
			ply = len(sub.Moves)
		}
		if core.Htmx(c) {
			q := c.Request().URL.Query()
			q.Set("ply", strconv.Itoa(ply))
			c.Request().URL.RawQuery = q.Encode()
			return replay(c)
		}
		return c.Redirect(http.StatusSeeOther, url(core.LangOf(c), c.Param("id"), ply))
	}
}

// gameReviewForm is the review form of a finished game.
func (h *Site) gameReviewForm(c echo.Context) error {
	return h.reviewForm(h.FinishedSubject, h.replayPage, gameReplayAt)(c)
}

// importReviewForm is the review form of an imported record.
func (h *Site) importReviewForm(c echo.Context) error {
	return h.reviewForm(h.ImportSubject, h.importReplay, importURL)(c)
}

// attachReview adds the review under key to the replay v of lang: the
// form to ask for it (action), or its progress (events), or the review and
// the learning from its mistakes (learn).
func (h *Site) attachReview(c echo.Context, v *views.ReplayView, key, action, events, learn string) error {
	r, err := h.Games.LoadReview(c.Request().Context(), key)
	if err != nil {
		return err
	}
	rv := &views.ReviewView{Status: r.Status, Reviewed: r.Reviewed, Total: r.Total, Action: action,
		Events: events, Progress: v.URL(v.Ply) + "&poll=1", CSRF: core.CsrfToken(c)}
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
