package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/handlers/core"
)

// apiExplorer: GET /api/v1/explorer?rules=R&position=P.
func (h *API) apiExplorer(c echo.Context) error {
	if c.QueryParam("position") == "" {
		return core.ErrExplorerPosition
	}
	e, err := h.Explore(c.QueryParam("rules"), c.QueryParam("position"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, e.Out)
}
