package web

import (
	"context"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
)

// takebackForm takes back the player's last move: against the computer at
// once (with its reply), between people as a request to the opponent.
// Once per version of the game (act).
func (h *Site) takebackForm(c echo.Context) error {
	return h.act(c, func(ctx context.Context, g *game.Game, seat engine.Side) error {
		return h.Games.TakeBack(ctx, g, seat)
	})
}

// answerTakebackForm returns the handler that accepts (or declines) the
// opponent's request to take back their last move.
func (h *Site) answerTakebackForm(accept bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		return h.act(c, func(ctx context.Context, g *game.Game, seat engine.Side) error {
			return h.Games.AnswerTakeback(ctx, g, seat, accept)
		})
	}
}
