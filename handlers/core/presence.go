package core

import (
	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
)

// Seen notes that the player in seat of g acts now (a page, a program).
func (h *Handlers) Seen(c echo.Context, g *game.Game, seat engine.Side) {
	if g.Status != game.Playing {
		return
	}
	if err := h.Games.Seen(c.Request().Context(), g.ID, seat); err != nil {
		h.Log.WarnContext(c.Request().Context(), "presence", "game", g.ID, "err", err)
	}
}
