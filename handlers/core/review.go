package core

import (
	"context"
	"errors"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
)

// ReadRecord reads a record with the work bound of a visitor's request.
func ReadRecord(text string) (*engine.Record, error) {
	return engine.ReadRecord(text, engine.ReadOptions{Budget: engine.NewBudget(engine.VisitorLaps)})
}

// GameSubject loads the game of the request's :id for a review (not
// found is a refusal).
func (h *Handlers) GameSubject(c echo.Context) (game.ReviewSubject, error) {
	g, err := h.Games.Load(c.Request().Context(), c.Param("id"))
	if err != nil {
		return game.ReviewSubject{}, err
	}
	return game.GameSubject(g), nil
}

// FinishedSubject is gameSubject for asking: a game not over yet is
// refused (409, game.ErrNotOver).
func (h *Handlers) FinishedSubject(c echo.Context) (game.ReviewSubject, error) {
	g, err := h.Games.Load(c.Request().Context(), c.Param("id"))
	if err != nil {
		return game.ReviewSubject{}, err
	}
	if g.Status != game.Over {
		return game.ReviewSubject{}, game.ErrNotOver
	}
	return game.GameSubject(g), nil
}

// ImportSubject loads the imported record of the request's :id for a
// review.
func (h *Handlers) ImportSubject(c echo.Context) (game.ReviewSubject, error) {
	id := c.Param("id")
	text, err := h.Games.ImportRecord(c.Request().Context(), id)
	if errors.Is(err, game.ErrNotFound) {
		return game.ReviewSubject{}, ErrNotFound
	}
	if err != nil {
		return game.ReviewSubject{}, err
	}
	rec, err := ReadRecord(text)
	if err != nil {
		return game.ReviewSubject{}, ErrNotFound // a record this release cannot read
	}
	return game.ImportSubject(id, rec), nil
}

// RequestReview asks for the review of sub within the client's limit.
func (h *Handlers) RequestReview(c echo.Context, sub game.ReviewSubject) (*game.Review, error) {
	if err := h.Analyses.Check(c); err != nil {
		return nil, err
	}
	r, err := h.Games.RequestReview(c.Request().Context(), sub)
	if errors.Is(err, game.ErrReviewTooLong) {
		return nil, errReviewTooLong
	}
	return r, err
}

// Search runs search on the computer's pool within the client's analysis
// limit (Analyses): the limit's refusal, engine.ErrTooMuchWork when budget
// (nil: none) ran out meanwhile, else search's error.
func (h *Handlers) Search(c echo.Context, budget *engine.Budget, search func(ctx context.Context) error) error {
	if err := h.Analyses.Check(c); err != nil {
		return err
	}
	err := search(c.Request().Context())
	if budget != nil && budget.Err() != nil {
		return engine.ErrTooMuchWork
	}
	return err
}

// Budgeted returns r ready for a visitor's search: Nam-nam with a budget
// of engine.VisitorLaps of work (returned, for Search to tell) and the
// shared cache of legal moves; any other rule set as it is, with no
// budget.
func (h *Handlers) Budgeted(r engine.Rules) (engine.Rules, *engine.Budget) {
	n, ok := r.(engine.NamNam)
	if !ok {
		return r, nil
	}
	budget := engine.NewBudget(engine.VisitorLaps)
	n.Budget, n.Cache = budget, h.Legal
	return n, budget
}
