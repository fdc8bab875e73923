package core

import (
	"errors"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/engine/puzzle"
	"oware/game"
)

// DefaultPuzzleList is the length of a list when none is asked for.
const DefaultPuzzleList = 20

// PuzzleTheme reads the theme of a query: "" for any.
func PuzzleTheme(c echo.Context) (string, error) {
	theme := c.QueryParam("theme")
	if theme != "" && !slices.Contains(puzzle.Themes, theme) {
		return "", errPuzzleTheme
	}
	return theme, nil
}

// QueryInt reads a whole number of the query between lo and hi, def when
// absent.
func QueryInt(c echo.Context, name string, def, lo, hi int, bad error) (int, error) {
	s := c.QueryParam(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, bad
	}
	return n, nil
}

// LoadPuzzle loads the puzzle of the request's :id.
func (h *Handlers) LoadPuzzle(c echo.Context) (*game.Puzzle, error) {
	p, err := h.Games.PuzzleByID(c.Request().Context(), c.Param("id"))
	if errors.Is(err, game.ErrNotFound) {
		return nil, ErrPuzzleNotFound
	}
	return p, err
}

// PuzzlePlayer returns the request's solver: game.PuzzleAccount for an
// account, game.PuzzleGuest for a visitor, "" for none (a program without
// the session cookie). With create a visitor without an id gets one.
func (h *Handlers) PuzzlePlayer(c echo.Context, create bool) string {
	v := h.Visit(c)
	if v.User != nil {
		return game.PuzzleAccount(v.User.ID)
	}
	id := v.Sess.Visitor()
	if id == "" && create {
		id = v.Sess.newVisitor()
		if err := v.Sess.Save(); err != nil {
			return ""
		}
	}
	if id == "" {
		return ""
	}
	return game.PuzzleGuest(id)
}
