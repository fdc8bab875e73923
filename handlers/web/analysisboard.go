package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// The analysis board (docs/learning.md): GET /{lang}/analysis?rules=R&
// fours=F&position=P opens a position of any rule set (the start without
// one); its pits post to /{lang}/analysis/play, which plays the move and
// redirects to the position after it. The computer's lines (every legal
// move with its value, best first: game.Pool.Lines) come with ?analyse=1
// after a search of boardNoScriptTime (a form, no JavaScript needed), and
// with htmx from /{lang}/analysis/lines?...&ms=N, asked again deeper
// (boardDeepening) while the page is open. Every search counts against the
// client's analysis limit. The set-up forms give a position string, or
// seeds per pit, captures, stores and the side to move (edit=1).

// The analysis board's searches: without JavaScript, and the steps of
// the deepening with it (the total time of each request).
var (
	boardNoScriptTime = 1500 * time.Millisecond
	boardDeepening    = []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond, 4 * time.Second}
)

// errBoardPosition refuses a position the board cannot open.
var errBoardPosition = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "an_err_position"}

// boardQuery reads the rule set and position of an analysis board
// request: a position string, the set-up form's fields (edit=1), or the
// start. Errors: errAnalysisRules, errBoardPosition.
func (h *Site) boardQuery(c echo.Context) (*engine.Game, *engine.Budget, error) {
	name, fours := c.QueryParam("rules"), c.QueryParam("fours")
	if name != "namnam" {
		fours = ""
	}
	r, err := engine.NewRules(name, fours)
	if err != nil {
		return nil, nil, core.ErrAnalysisRules
	}
	r, budget := h.Budgeted(r)
	pos := r.Start()
	text := c.QueryParam("position")
	if c.QueryParam("edit") != "" {
		text = editedPosition(c.QueryParams(), r)
	}
	if text != "" {
		if pos, err = r.ParsePosition(text); err != nil {
			return nil, nil, errBoardPosition
		}
	}
	eg := engine.NewGame(r, pos)
	eg.LegalMoves()
	if budget != nil && budget.Err() != nil {
		return nil, nil, engine.ErrTooMuchWork
	}
	return eg, budget, nil
}

// editedPosition is the position string of the set-up form's fields
// (each a count, 0 when missing or not a number; the Nam-nam owners kept
// from the position edited).
func editedPosition(q url.Values, r engine.Rules) string {
	n := func(key string) string {
		v, err := strconv.Atoi(q.Get(key))
		if err != nil || v < 0 {
			return "x" // not a count: the position is refused
		}
		return strconv.Itoa(v)
	}
	parts := make([]string, 0, engine.NumPits+6)
	for i := range engine.NumPits {
		parts = append(parts, n("pit"+strconv.Itoa(i)))
	}
	toMove := "S"
	if q.Get("to_move") == "N" {
		toMove = "N"
	}
	parts = append(parts, n("cap_south"), n("cap_north"), toMove)
	if _, ok := r.(engine.NamNam); ok {
		parts = append(parts, q.Get("owners"), n("store_south"), n("store_north"))
	}
	return strings.Join(parts, "-")
}

// boardPath is the analysis board of g's position (lang's).
func boardPath(lang string, r engine.Rules, p engine.Position) string {
	q := url.Values{"rules": {r.Name()}, "position": {r.FormatPosition(p)}}
	if f := game.Fours(r); f != "" {
		q.Set("fours", f)
	}
	return route.Analysis(lang) + "?" + q.Encode()
}

// analysisBoard: GET /{lang}/analysis.
func (h *Site) analysisBoard(c echo.Context) error {
	p := h.Page(c, "an_title", route.AnalysisPattern)
	eg, budget, err := h.boardQuery(c)
	if err != nil {
		var ue *core.UserError
		if !errors.As(err, &ue) && !errors.Is(err, engine.ErrTooMuchWork) {
			return err
		}
		r := engine.Oware{GrandSlam: engine.Abapa}
		v := h.boardView(c, engine.NewGame(r, r.Start()))
		v.Error = p.L.T(refusalKey(err))
		v.Lines, v.LinesURL = nil, ""
		return core.Render(c, http.StatusUnprocessableEntity, views.AnalysisPage(p, v))
	}
	v := h.boardView(c, eg)
	p.Preview = boardPreview(h.Visit(c).L, eg.Rules, eg.Position, engine.South, "sh_board_description")
	v.Picture = p.Preview.Image
	if c.QueryParam("analyse") != "" && !v.Over {
		if err := h.boardLines(c, eg, budget, boardNoScriptTime, &v); err != nil {
			return err
		}
		v.LinesURL = deeper(core.LangOf(c), v, 1)
	}
	return core.Render(c, http.StatusOK, views.AnalysisPage(p, v))
}

// refusalKey is the message of a refusal of the board.
func refusalKey(err error) string {
	var ue *core.UserError
	if errors.As(core.Refusal(err), &ue) {
		return ue.Key
	}
	return "err_bad_request"
}

// boardTable gives v the endgame tables' proven value of its position
// (the bounds of the final capture difference for the player to move,
// the best of its moves' in the explorer) and the explorer's address,
// when the computer's tables cover the seeds on the board.
func (h *Site) boardTable(lang string, v *views.AnalysisView) {
	e, err := h.Explore(v.Rules, v.PositionText)
	if err != nil || len(e.Out.Moves) == 0 {
		return
	}
	lo, hi := e.Out.Moves[0].Lo, e.Out.Moves[0].Hi
	for _, m := range e.Out.Moves[1:] {
		lo, hi = max(lo, m.Lo), max(hi, m.Hi)
	}
	v.TableResult, v.TableValue = core.MoveResult(lo, hi), views.BoundsText(lo, hi)
	v.Explorer = route.Explorer(lang) + "?" + url.Values{"rules": {v.Rules}, "position": {v.PositionText}}.Encode()
}

// boardView is the analysis board of eg's position.
func (h *Site) boardView(c echo.Context, eg *engine.Game) views.AnalysisView {
	lang, r, pos := core.LangOf(c), eg.Rules, eg.Position
	text := r.FormatPosition(pos)
	q := url.Values{"rules": {r.Name()}, "position": {text}}
	if f := game.Fours(r); f != "" {
		q.Set("fours", f)
	}
	v := views.AnalysisView{Rules: r.Name(), Fours: game.Fours(r), Position: pos, PositionText: text,
		Legal: eg.LegalMoves(), Action: route.Analysis(lang), CSRF: core.CsrfToken(c),
		PlayAction: route.AnalysisPlay(lang) + "?" + q.Encode(), Captured: [2]int{int(pos.Captured[0]), int(pos.Captured[1])},
		ToMove: string(pos.ToMove.Letter())}
	v.Over = v.Legal == 0
	for i := range engine.NumPits {
		v.Pits[i] = int(pos.Pits[i])
	}
	if _, ok := r.(engine.NamNam); ok {
		v.Match = &views.BoardMatch{}
		v.Owners = ownersOf(pos)
		v.Stores = [2]int{int(pos.Store[0]), int(pos.Store[1])}
	}
	if prev := c.QueryParam("prev"); prev != "" {
		if _, err := r.ParsePosition(prev); err == nil {
			pq := url.Values{"rules": q["rules"], "position": {prev}, "fours": q["fours"]}
			v.Prev = v.Action + "?" + pq.Encode()
		}
	}
	if !v.Over {
		v.LinesURL = linesURL(lang, v, 0)
		h.boardTable(lang, &v)
	}
	return v
}

// ownersOf writes the owners of p's pits as a Nam-nam position string
// does ("SSSSSSNNNNNN").
func ownersOf(p engine.Position) string {
	b := make([]byte, engine.NumPits)
	for i := range b {
		switch p.Owner[i] {
		case engine.South:
			b[i] = 'S'
		case engine.North:
			b[i] = 'N'
		default:
			b[i] = 'x'
		}
	}
	return string(b)
}

// linesURL is the address of step of the deepening of v's position, ""
// past the last.
func linesURL(lang string, v views.AnalysisView, step int) string {
	if step >= len(boardDeepening) {
		return ""
	}
	q := url.Values{"rules": {v.Rules}, "position": {v.PositionText}, "step": {strconv.Itoa(step)}}
	if v.Fours != "" {
		q.Set("fours", v.Fours)
	}
	return route.AnalysisLines(lang) + "?" + q.Encode()
}

// deeper is the address of step of the deepening while some line of v
// is not proven, else "".
func deeper(lang string, v views.AnalysisView, step int) string {
	for _, l := range v.Lines {
		if !l.Exact {
			return linesURL(lang, v, step)
		}
	}
	return ""
}

// boardLines searches eg's lines for total within the client's limit
// into v.
func (h *Site) boardLines(c echo.Context, eg *engine.Game, budget *engine.Budget, total time.Duration, v *views.AnalysisView) error {
	var lines []game.Line
	err := h.Search(c, budget, func(ctx context.Context) (err error) {
		lines, err = h.Games.Computer().Lines(ctx, eg, total)
		return err
	})
	if err != nil {
		return err
	}
	v.Lines = make([]views.AnalysisLine, len(lines))
	for i, l := range lines {
		v.Lines[i] = views.AnalysisLine{Move: l.Move, Value: l.Value, Exact: l.Exact, Result: l.Result, PV: l.PV}
	}
	v.Searched = strconv.FormatFloat(total.Seconds(), 'f', -1, 64) + " s"
	return nil
}

// analysisLines: GET /{lang}/analysis/lines?rules&fours&position&step=N,
// the lines after the step's search, and the next step's address while
// some line is not proven.
func (h *Site) analysisLines(c echo.Context) error {
	eg, budget, err := h.boardQuery(c)
	if err != nil {
		return err
	}
	step, err := strconv.Atoi(c.QueryParam("step"))
	if err != nil || step < 0 || step >= len(boardDeepening) {
		return core.ErrBadRequest
	}
	v := h.boardView(c, eg)
	v.LinesURL = ""
	if !v.Over {
		if err := h.boardLines(c, eg, budget, boardDeepening[step], &v); err != nil {
			return err
		}
		v.LinesURL = deeper(core.LangOf(c), v, step+1)
	}
	return core.Render(c, http.StatusOK, views.AnalysisLines(h.Visit(c).L, v))
}

// analysisPlay: POST /{lang}/analysis/play?rules&fours&position with the
// form's pit: plays it and goes to the position after it (htmx: by
// HX-Redirect), with a way back.
func (h *Site) analysisPlay(c echo.Context) error {
	eg, _, err := h.boardQuery(c)
	if err != nil {
		return err
	}
	pit, err := engine.ParseLabel(c.FormValue("pit"))
	if err != nil {
		return engine.ErrBadLabel
	}
	before := eg.Rules.FormatPosition(eg.Position)
	if _, err := eg.Play(pit); err != nil {
		return err
	}
	to := boardPath(core.LangOf(c), eg.Rules, eg.Position) + "&" + url.Values{"prev": {before}}.Encode()
	if core.Htmx(c) {
		c.Response().Header().Set("HX-Redirect", to)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, to)
}
