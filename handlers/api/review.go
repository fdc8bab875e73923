package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/play"
)

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

// apiImportSubject is importSubject within the client's import limit
// (reading a record costs as much as its replay).
func (h *API) apiImportSubject(c echo.Context) (game.ReviewSubject, error) {
	if err := h.Imports.Check(c); err != nil {
		return game.ReviewSubject{}, err
	}
	return h.ImportSubject(c)
}

// apiRequestReview: POST /api/v1/games/:id/analysis (or imports/:id).
func (h *API) apiRequestReview(subject func(echo.Context) (game.ReviewSubject, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		sub, err := subject(c)
		if err != nil {
			return err
		}
		r, err := h.RequestReview(c, sub)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusAccepted, map[string]string{"status": string(r.Status)})
	}
}

// apiReview: GET /api/v1/games/:id/analysis (or imports/:id).
func (h *API) apiReview(subject func(echo.Context) (game.ReviewSubject, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		sub, err := subject(c)
		if err != nil {
			return err
		}
		r, err := h.Games.LoadReview(c.Request().Context(), sub.Key)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, reviewAnswer(r))
	}
}
