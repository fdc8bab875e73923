package web

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/engine/search"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// Learn from your mistakes (docs/learning.md): after a review, the page
// steps through one player's mistakes and blunders, GET and POST
// /{lang}/games/{id}/learn?side=S&step=N (and /{lang}/import/{id}/learn):
// the position before, a board to try a better move (a form; htmx swaps
// the panel), checked by the computer (accepted when it loses less than
// game.InaccuracyLoss against the best move), then why the move played was
// bad (the line that refutes it) and the best move with its line. A try
// searches learnTryTime on the computer's pool within the client's
// analysis limit.

// learnTryTime is the search of the position after a move tried.
const learnTryTime = 500 * time.Millisecond

// gameLearn is the page of a site game.
func (h *Site) gameLearn(c echo.Context) error {
	g, side, err := h.Games.LoadFor(c.Request().Context(), c.Param("id"), h.VisitorOf(c))
	if err != nil {
		return err
	}
	lang := core.LangOf(c)
	return h.learn(c, game.GameSubject(g), side, route.GameLearn(lang, g.ID), func(ply int) string { return gameReplayAt(lang, g.ID, ply) })
}

// importLearn is the page of an imported record.
func (h *Site) importLearn(c echo.Context) error {
	if err := h.Imports.Check(c); err != nil {
		return err
	}
	sub, err := h.ImportSubject(c)
	if err != nil {
		return err
	}
	lang, id := core.LangOf(c), c.Param("id")
	return h.learn(c, sub, engine.Nobody, route.ImportLearn(lang, id), func(ply int) string { return importURL(lang, id, ply) })
}

// learn renders (or, for a POST, answers) a step of sub's mistakes by
// the side of the query (else seat, else South); replay is the replay's
// address at a ply. A game without a finished review goes to its replay.
func (h *Site) learn(c echo.Context, sub game.ReviewSubject, seat engine.Side, path string, replay func(int) string) error {
	r, err := h.Games.LoadReview(c.Request().Context(), sub.Key)
	if err != nil {
		return err
	}
	if r.Status != game.ReviewDone {
		return c.Redirect(http.StatusSeeOther, replay(len(sub.Moves)))
	}
	side := seat
	switch c.QueryParam("side") {
	case "south":
		side = engine.South
	case "north":
		side = engine.North
	}
	if side == engine.Nobody {
		side = engine.South
	}
	var steps []game.ReviewPly
	for _, p := range r.Plies {
		if p.Mover == side.String() && (p.Mark == game.MarkMistake || p.Mark == game.MarkBlunder) {
			steps = append(steps, p)
		}
	}
	at := func(side engine.Side, step int) string {
		return path + "?side=" + side.String() + "&step=" + strconv.Itoa(step)
	}
	v := views.LearnView{Side: side, Steps: len(steps), Replay: replay(len(sub.Moves)), CSRF: core.CsrfToken(c),
		Sides: [2]string{at(engine.South, 1), at(engine.North, 1)}}
	if len(steps) > 0 {
		step, _ := strconv.Atoi(c.QueryParam("step"))
		step = min(max(step, 1), len(steps))
		if err := h.learnStep(c, sub, steps[step-1], &v); err != nil {
			return err
		}
		v.Step, v.Action, v.Replay = step, at(side, step), replay(v.Ply)
		if step > 1 {
			v.Prev = at(side, step-1)
		}
		if step < len(steps) {
			v.Next = at(side, step+1)
		}
	}
	c.Response().Header().Add(echo.HeaderVary, "HX-Request")
	if core.Htmx(c) {
		return core.Render(c, http.StatusOK, views.LearnPanel(h.Visit(c).L, v))
	}
	return core.Render(c, http.StatusOK, views.LearnPage(h.Page(c, "rv_learn", strings.TrimPrefix(path, "/"+core.LangOf(c))), v))
}

// learnStep fills v with the step of ply p, and the verdict of a POST.
func (h *Site) learnStep(c echo.Context, sub game.ReviewSubject, p game.ReviewPly, v *views.LearnView) error {
	before, err := gameBefore(sub, p.Ply)
	if err != nil {
		return err
	}
	v.Ply, v.Played, v.Mark, v.Loss = p.Ply, p.Move, string(p.Mark), p.Loss
	v.Position, v.Legal = before.Position, before.LegalMoves()
	if _, ok := sub.Rules.(engine.Rounds); ok {
		v.Match = &views.BoardMatch{}
	}
	v.Best, v.BestValue, v.PV, v.PlayedValue, v.Refutation = p.Best, p.BestValue, p.PV, p.Value, p.Refutation
	if c.Request().Method != http.MethodPost {
		return nil
	}
	if c.FormValue("show") != "" {
		v.Verdict = "shown"
		return nil
	}
	pit, err := engine.ParseLabel(c.FormValue("pit"))
	if err != nil || !v.Legal.Has(pit) {
		return core.ErrBadRequest
	}
	v.Tried = engine.Label(pit)
	switch v.Tried {
	case p.Move:
		v.Verdict = "same"
		return nil
	case p.Best:
		v.Verdict, v.TriedValue = "right", p.BestValue
		return nil
	}
	if err := h.Analyses.Check(c); err != nil {
		return err
	}
	value, err := h.moveValue(c, before, pit)
	if err != nil {
		return err
	}
	v.TriedValue, v.Verdict = value, "wrong"
	if p.BestValue-value < game.InaccuracyLoss {
		v.Verdict = "right"
	}
	return nil
}

// gameBefore replays sub up to the move ply (1-based), not played.
func gameBefore(sub game.ReviewSubject, ply int) (*engine.Game, error) {
	moves := sub.Moves[:ply-1]
	var agreed []int
	for _, a := range sub.Agreed {
		if a <= len(moves) {
			agreed = append(agreed, a)
		}
	}
	return engine.ReplayMatch(sub.Rules, sub.Start, moves, agreed, nil)
}

// moveValue is the value of sowing pit in g for its mover, in seeds: the
// final capture difference when the game ends, else a search of the
// position after it on the computer's pool.
func (h *Site) moveValue(c echo.Context, g *engine.Game, pit int) (float64, error) {
	after := g.Clone()
	mv, err := after.Play(pit)
	if err != nil {
		return 0, core.ErrBadRequest
	}
	me := mv.Mover
	if after.Over || after.LegalMoves() == 0 {
		return game.FinalValue(g.Rules, after.Position, me), nil
	}
	res, err := h.Games.Computer().Analyze(c.Request().Context(), after, search.Limits{MoveTime: learnTryTime})
	if err != nil {
		return 0, err
	}
	value := float64(res.Score) / 100
	if after.Position.ToMove != me {
		value = -value
	}
	return value, nil
}
