package web

import (
	"errors"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/engine/puzzle"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// puzzlesPath is the URL of the puzzle list of theme ("" for all).
func puzzlesPath(lang, theme string) string {
	if theme == "" {
		return route.Puzzles(lang)
	}
	return route.Puzzles(lang) + "?theme=" + url.QueryEscape(theme)
}

// puzzlePath is the URL of puzzle id, keeping the theme the solver follows.
func puzzlePath(lang, id, theme string) string {
	if theme == "" {
		return route.Puzzle(lang, id)
	}
	return route.Puzzle(lang, id) + "?theme=" + url.QueryEscape(theme)
}

// nextPath is the URL of the next puzzle after number, in theme.
func nextPath(lang, theme string, after int) string {
	q := url.Values{"after": {strconv.Itoa(after)}}
	if theme != "" {
		q.Set("theme", theme)
	}
	return route.PuzzlesNext(lang) + "?" + q.Encode()
}

// puzzleCard is a puzzle in a list.
func puzzleCard(lang string, p *game.Puzzle, theme string) views.PuzzleCard {
	return views.PuzzleCard{ID: p.ID, URL: puzzlePath(lang, p.ID, theme), Rules: p.Rules, Themes: p.ThemeList(),
		Rating: int(math.Round(p.Rating)), SolverMoves: len(game.SolverMoves(strings.Split(p.Solution, ",")))}
}

// puzzleListPage: GET /{lang}/puzzles?theme=T&after=K.
func (h *Site) puzzleListPage(c echo.Context) error {
	theme, err := core.PuzzleTheme(c)
	if err != nil {
		return err
	}
	after, err := core.QueryInt(c, "after", 0, 0, math.MaxInt32, core.ErrPuzzleAfter)
	if err != nil {
		return err
	}
	ctx, lang := c.Request().Context(), core.LangOf(c)
	rows, err := h.Games.Puzzles(ctx, theme, after, core.DefaultPuzzleList+1)
	if err != nil {
		return err
	}
	v := views.PuzzlesView{Theme: theme, Themes: puzzle.Themes, NextURL: nextPath(lang, theme, 0)}
	for i := range rows {
		if i == core.DefaultPuzzleList {
			q := url.Values{"after": {strconv.Itoa(rows[i-1].Number)}}
			if theme != "" {
				q.Set("theme", theme)
			}
			v.MoreURL = route.Puzzles(lang) + "?" + q.Encode()
			break
		}
		v.List = append(v.List, puzzleCard(lang, &rows[i], theme))
	}
	daily, err := h.daily(c)
	if err != nil {
		return err
	}
	v.Daily = daily
	player := h.PuzzlePlayer(c, false)
	pl, err := h.Games.PuzzlePlayer(ctx, player)
	if err != nil {
		return err
	}
	v.Player = puzzleStats(pl)
	if h.Visit(c).User != nil {
		if v.History, err = h.puzzleHistory(c, player); err != nil {
			return err
		}
		v.Account = true
	}
	p := h.Page(c, "pz_title", route.PuzzlesPattern)
	p.Description = p.L.T("pz_intro")
	return core.Render(c, http.StatusOK, views.PuzzlesPage(p, v))
}

// puzzleStats is a solver's rating and streak as pages show them.
func puzzleStats(pl game.PuzzlePlayer) views.PuzzleStats {
	return views.PuzzleStats{Rating: int(math.Round(pl.Rating)), Streak: pl.Streak, BestStreak: pl.BestStreak,
		Solved: pl.Solved, Failed: pl.Failed}
}

// maxPuzzleHistory is how many attempts the history shows.
const maxPuzzleHistory = 20

// puzzleHistory returns an account's last rated attempts.
func (h *Site) puzzleHistory(c echo.Context, player string) ([]views.PuzzleHistoryRow, error) {
	rows, err := h.Games.PuzzleHistory(c.Request().Context(), player, maxPuzzleHistory)
	if err != nil {
		return nil, err
	}
	out := make([]views.PuzzleHistoryRow, len(rows))
	for i, r := range rows {
		out[i] = views.PuzzleHistoryRow{ID: r.PuzzleID, URL: puzzlePath(core.LangOf(c), r.PuzzleID, ""), Correct: r.Correct,
			Rating: int(math.Round(r.Rating)), Date: r.CreatedAt.UTC().Format("2006-01-02")}
	}
	return out, nil
}

// daily returns the daily puzzle as a card with its board, nil when there
// are no puzzles.
func (h *Site) daily(c echo.Context) (*views.DailyPuzzle, error) {
	p, err := h.Games.DailyPuzzle(c.Request().Context(), h.Games.Now())
	if errors.Is(err, game.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r, err := engine.RulesByName(p.Rules)
	if err != nil {
		return nil, err
	}
	pos, err := r.ParsePosition(p.Position)
	if err != nil {
		return nil, err
	}
	return &views.DailyPuzzle{Card: puzzleCard(core.LangOf(c), p, ""), Position: pos}, nil
}

// nextPuzzle: GET /{lang}/puzzles/next?theme=T&after=K sends the solver
// to the next puzzle of the theme they have not tried.
func (h *Site) nextPuzzle(c echo.Context) error {
	theme, err := core.PuzzleTheme(c)
	if err != nil {
		return err
	}
	after, err := core.QueryInt(c, "after", 0, 0, math.MaxInt32, core.ErrPuzzleAfter)
	if err != nil {
		return err
	}
	p, err := h.Games.NextPuzzle(c.Request().Context(), h.PuzzlePlayer(c, false), theme, after)
	if errors.Is(err, game.ErrNotFound) {
		return core.ErrPuzzleNotFound
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, puzzlePath(core.LangOf(c), p.ID, theme))
}

// puzzlePage: GET /{lang}/puzzles/{id}, the puzzle at its start.
func (h *Site) puzzlePage(c echo.Context) error {
	p, err := h.LoadPuzzle(c)
	if err != nil {
		return err
	}
	s, err := newSolving(p)
	if err != nil {
		return err
	}
	return h.renderPuzzle(c, http.StatusOK, s, nil)
}

// puzzleMoveForm: POST /{lang}/puzzles/{id}?line=L with the form field
// pit: the solver's next move after the line so far (the solution's
// moves, comma-separated). Answers the page, or for htmx the puzzle's
// panel.
func (h *Site) puzzleMoveForm(c echo.Context) error {
	if err := h.PuzzleAttempts.CheckAccount(c, h.UserID(c)); err != nil {
		return err
	}
	p, err := h.LoadPuzzle(c)
	if err != nil {
		return err
	}
	s, err := newSolving(p)
	if err != nil {
		return err
	}
	if err := s.follow(c.QueryParam("line")); err != nil {
		return err
	}
	pit, err := engine.ParseLabel(c.FormValue("pit"))
	if err == nil {
		_, _, err = s.rules.Play(s.pos, pit)
	}
	if err != nil {
		l := h.Visit(c).L
		msg := l.T("pz_err_move")
		var ue *core.UserError
		if errors.As(core.Refusal(err), &ue) {
			msg = l.T(ue.Key)
		}
		return h.renderPuzzle(c, http.StatusUnprocessableEntity, s, &msg)
	}
	moves := append(game.SolverMoves(s.line), engine.Label(pit))
	v, err := h.Games.AttemptPuzzle(c.Request().Context(), h.PuzzlePlayer(c, true), p, moves)
	if err != nil {
		return err
	}
	s.verdict = &v
	s.played = pit
	return h.renderPuzzle(c, http.StatusOK, s, nil)
}

// solving is a puzzle on its way: the line played so far and the
// position after it.
type solving struct {
	puzzle   *game.Puzzle
	rules    engine.Rules
	start    engine.Position
	pos      engine.Position
	solution []string
	line     []string          // the solution's first moves, played
	seen     []engine.Position // since the last capture, pos last (the repetition rule)
	verdict  *game.PuzzleVerdict
	played   int // the solver's last move, with verdict
}

func newSolving(p *game.Puzzle) (*solving, error) {
	r, err := engine.RulesByName(p.Rules)
	if err != nil {
		return nil, err
	}
	pos, err := r.ParsePosition(p.Position)
	if err != nil {
		return nil, err
	}
	return &solving{puzzle: p, rules: r, start: pos, pos: pos, seen: []engine.Position{pos},
		solution: strings.Split(p.Solution, ","), played: -1}, nil
}

// follow plays the line so far: an even number of the solution's first
// moves (the solver's and the replies), else errPuzzleLine.
func (s *solving) follow(line string) error {
	if line == "" {
		return nil
	}
	moves := strings.Split(line, ",")
	if len(moves)%2 != 0 || len(moves) >= len(s.solution) || !slices.Equal(moves, s.solution[:len(moves)]) {
		return core.ErrPuzzleLine
	}
	for _, m := range moves {
		if err := s.play(m); err != nil {
			return core.ErrPuzzleLine
		}
	}
	return nil
}

// play plays one move label on the position and the line.
func (s *solving) play(label string) error {
	pit, err := engine.ParseLabel(label)
	if err != nil {
		return err
	}
	next, _, err := s.rules.Play(s.pos, pit)
	if err != nil {
		return err
	}
	if next.Captured != s.pos.Captured {
		s.seen = s.seen[:0]
	}
	s.pos, s.line, s.seen = next, append(s.line, label), append(s.seen, next)
	return nil
}

// winPlies says within how many plies the solution's move best wins by
// force at the position before the solver's move, if proven.
func (h *Site) winPlies(c echo.Context, s *solving, pos engine.Position, seen []engine.Position, best string) []string {
	pit, err := engine.ParseLabel(best)
	if err != nil {
		return nil
	}
	n := h.Games.WinPlies(c.Request().Context(), s.rules, pos, seen, pit)
	if n == 0 {
		return nil
	}
	return []string{h.Visit(c).L.N("pz_why_plies", n, "Best", best)}
}

// puzzleView is the view of puzzle s on its way (errMsg a refused move's
// message, or nil).
func (h *Site) puzzleView(c echo.Context, s *solving, errMsg *string) views.PuzzleView {
	lang, theme := core.LangOf(c), c.QueryParam("theme")
	if !slices.Contains(puzzle.Themes, theme) {
		theme = ""
	}
	p := s.puzzle
	v := views.PuzzleView{
		Card: puzzleCard(lang, p, theme), Solver: s.start.ToMove, ListURL: puzzlesPath(lang, theme),
		NextURL: nextPath(lang, theme, p.Number), Target: "#puzzle",
	}
	if errMsg != nil {
		v.Error = *errMsg
	}
	before, seen := s.pos, s.seen[:len(s.seen)-1]
	state := "solving"
	if vd := s.verdict; vd != nil {
		switch {
		case vd.Correct:
			state = "solved"
			if len(s.line) == 0 {
				v.Why = h.winPlies(c, s, before, seen, engine.Label(s.played))
			}
			_ = s.play(engine.Label(s.played))
		case vd.Pending:
			_ = s.play(engine.Label(s.played))
			reply := s.solution[len(s.line)]
			v.Reply = reply
			_ = s.play(reply)
		default:
			state = "wrong"
			v.Played = engine.Label(s.played)
			v.Best = s.solution[len(s.line)]
			v.Why = append(puzzleWhy(h.Visit(c).L, p, len(s.line), v.Played, v.Best), h.winPlies(c, s, before, seen, v.Best)...)
		}
		if vd.Rated {
			stats := puzzleStats(vd.Player)
			v.After = &stats
		}
		if state != "solving" {
			v.Solution = s.solution
		}
	}
	v.State = state
	v.Board, v.Options = s.pos, views.BoardOptions{Bottom: s.start.ToMove, Last: -1}
	if state == "wrong" {
		v.Board = before
		if best, err := engine.ParseLabel(v.Best); err == nil {
			v.Options.Highlight = 1 << best
		}
	}
	if state == "solving" {
		q := url.Values{}
		if len(s.line) > 0 {
			q.Set("line", strings.Join(s.line, ","))
		}
		if theme != "" {
			q.Set("theme", theme)
		}
		action := route.Puzzle(lang, p.ID)
		if len(q) > 0 {
			action += "?" + q.Encode()
		}
		v.Options.Playable, v.Options.Action, v.Options.Target = s.rules.LegalMoves(s.pos), action, "#puzzle"
		v.Options.CSRF = core.CsrfToken(c)
	}
	if len(s.line) > 0 {
		if last, err := engine.ParseLabel(s.line[len(s.line)-1]); err == nil && state != "wrong" {
			v.Options.Last = last
		}
	}
	if !v.Card.Deep() {
		v.ExplorerURL = route.Explorer(lang) + "?" + url.Values{"rules": {p.Rules}, "position": {p.Position}}.Encode()
	}
	v.AnalysisURL = route.Analysis(lang) + "?" + url.Values{"rules": {p.Rules}, "position": {p.Position}}.Encode()
	return v
}

// renderPuzzle shows the puzzle as s stands: after a verdict, the solver's
// move (and the reply when the line goes on), the success or the solution
// and why; errMsg is a refused move.
func (h *Site) renderPuzzle(c echo.Context, status int, s *solving, errMsg *string) error {
	p := s.puzzle
	v := h.puzzleView(c, s, errMsg)
	pg := h.Page(c, "pz_puzzle_title", route.Fill(route.PuzzlePattern, p.ID))
	pg.NoIndex = true
	pg.Title = pg.L.T("pz_puzzle_title_id", "ID", p.ID)
	pg.Preview = boardPreview(h.Visit(c).L, s.rules, s.start, s.start.ToMove, "sh_puzzle_description")
	v.Share = &views.ShareView{Link: h.Base + route.Puzzle(pg.Lang, p.ID), Embed: h.Base + route.EmbedPuzzle(p.ID) + "?lang=" + pg.Lang, Puzzle: true}
	if core.Htmx(c) {
		v.Partial = true
		return core.Render(c, status, views.PuzzlePanel(pg, v))
	}
	return core.Render(c, status, views.PuzzlePage(pg, v))
}

// puzzleWhy explains a wrong move: at the first move with the proven
// outcomes of the puzzle's first moves (a deep search puzzle's: their
// values at puzzle.DeepDepth), later by the uniqueness the tables proved.
func puzzleWhy(l *core.Localizer, p *game.Puzzle, ply int, played, best string) []string {
	if ply > 0 {
		return []string{l.T("pz_why_later", "Best", best, "Played", played)}
	}
	bounds := map[string][2]int{}
	for _, f := range strings.Split(p.FirstMoves, ",") {
		parts := strings.Split(f, ":")
		if len(parts) != 3 {
			continue
		}
		lo, err1 := strconv.Atoi(parts[1])
		hi, err2 := strconv.Atoi(parts[2])
		if err1 == nil && err2 == nil {
			bounds[parts[0]] = [2]int{lo, hi}
		}
	}
	b, ok1 := bounds[best]
	w, ok2 := bounds[played]
	if !ok1 || !ok2 {
		return []string{l.T("pz_why_later", "Best", best, "Played", played)}
	}
	if slices.Contains(p.ThemeList(), puzzle.Middlegame) {
		return []string{l.T("pz_why_deep", "Depth", puzzle.DeepDepth, "Played", played, "Value", views.BoundsText(w[0], w[1]),
			"Best", best, "BestValue", views.BoundsText(b[0], b[1]), "Margin", puzzle.DeepMargin)}
	}
	return []string{
		l.T("pz_why_played_"+core.MoveResult(w[0], w[1]), "Played", played, "Value", views.BoundsText(w[0], w[1])),
		l.T("pz_why_best", "Best", best, "Value", views.BoundsText(b[0], b[1])),
	}
}

// tutorialThemes are the puzzle themes each tutorial teaches (by slug).
var tutorialThemes = map[string][]string{
	"oware-step-by-step": {puzzle.CaptureChain, puzzle.Feeding, puzzle.Saving, puzzle.EndgameWin},
	"grand-slam":         {puzzle.GrandSlam},
}

// tutorialPuzzles returns the links to the puzzles of tutorial slug's
// themes.
func tutorialPuzzles(lang, slug string) []views.ThemeLink {
	var out []views.ThemeLink
	for _, th := range tutorialThemes[slug] {
		out = append(out, views.ThemeLink{Theme: th, URL: puzzlesPath(lang, th)})
	}
	return out
}
