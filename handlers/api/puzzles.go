package api

import (
	"math"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/engine/puzzle"
	"oware/game"
	"oware/handlers/core"
)

// puzzleJSON is a puzzle in the API.
type puzzleJSON struct {
	ID       string   `json:"id"`
	Rules    string   `json:"rules"`
	Position string   `json:"position"` // the solver to move
	Themes   []string `json:"themes"`
	Rating   int      `json:"rating"` // the puzzle's Glicko-2 rating, rounded
	// SolverMoves is how many moves the solver makes; Number the
	// puzzle's place in the list (for after=).
	SolverMoves int `json:"solver_moves"`
	Number      int `json:"number"`
}

func toPuzzleJSON(p *game.Puzzle) puzzleJSON {
	return puzzleJSON{ID: p.ID, Rules: p.Rules, Position: p.Position, Themes: p.ThemeList(),
		Rating: int(math.Round(p.Rating)), SolverMoves: len(game.SolverMoves(strings.Split(p.Solution, ","))), Number: p.Number}
}

// attemptJSON is the answer to an attempt, exactly (and more).
type attemptJSON struct {
	Correct  bool     `json:"correct"`
	Solution []string `json:"solution"` // the line: the solver's moves and the replies between them
	// Pending: the moves are right so far but the solution goes on.
	Pending bool `json:"pending"`
	// Rated: the attempt was the player's first (a browser's session or
	// an account); Rating and Streak are then theirs after it.
	Rated  bool `json:"rated"`
	Rating *int `json:"rating,omitempty"`
	Streak *int `json:"streak,omitempty"`
}

// apiPuzzles: GET /api/v1/puzzles?theme=T&limit=N&after=K.
func (h *API) apiPuzzles(c echo.Context) error {
	theme, err := core.PuzzleTheme(c)
	if err != nil {
		return err
	}
	limit, err := core.QueryInt(c, "limit", core.DefaultPuzzleList, 1, game.MaxPuzzleList, core.ErrPuzzleLimit)
	if err != nil {
		return err
	}
	after, err := core.QueryInt(c, "after", 0, 0, math.MaxInt32, core.ErrPuzzleAfter)
	if err != nil {
		return err
	}
	rows, err := h.Games.Puzzles(c.Request().Context(), theme, after, limit)
	if err != nil {
		return err
	}
	out := make([]puzzleJSON, len(rows))
	for i := range rows {
		out[i] = toPuzzleJSON(&rows[i])
	}
	return c.JSON(http.StatusOK, out)
}

// apiPuzzle: GET /api/v1/puzzles/{id}.
func (h *API) apiPuzzle(c echo.Context) error {
	p, err := h.LoadPuzzle(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toPuzzleJSON(p))
}

// apiPuzzleAttempt: POST /api/v1/puzzles/{id}/attempt {"moves":["C"]}.
// A browser's attempt (with the session cookie) is rated as the page's;
// a program's without one is only judged.
func (h *API) apiPuzzleAttempt(c echo.Context) error {
	if err := h.PuzzleAttempts.CheckAccount(c, h.UserID(c)); err != nil {
		return err
	}
	p, err := h.LoadPuzzle(c)
	if err != nil {
		return err
	}
	var body struct {
		Moves []string `json:"moves"`
	}
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	if len(body.Moves) == 0 || len(body.Moves) > puzzle.MaxSolverMoves {
		return core.ErrPuzzleMoves
	}
	for _, m := range body.Moves {
		if _, err := engine.ParseLabel(m); err != nil {
			return core.ErrPuzzleMoves
		}
	}
	v, err := h.Games.AttemptPuzzle(c.Request().Context(), h.PuzzlePlayer(c, false), p, body.Moves)
	if err != nil {
		return err
	}
	out := attemptJSON{Correct: v.Correct, Solution: v.Solution, Pending: v.Pending, Rated: v.Rated}
	if v.Rated {
		r, s := int(math.Round(v.Player.Rating)), v.Player.Streak
		out.Rating, out.Streak = &r, &s
	}
	return c.JSON(http.StatusOK, out)
}
