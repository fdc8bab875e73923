package handlers

import (
	"github.com/labstack/echo/v4"
)

// takebackForm takes back the player's last move: against the computer at
// once (with its reply), between people as a request to the opponent.
func (h *handler) takebackForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	return h.answer(c, g, seat, h.games.TakeBack(c.Request().Context(), g, seat))
}

// answerTakebackForm returns the handler that accepts (or declines) the
// opponent's request to take back their last move.
func (h *handler) answerTakebackForm(accept bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		g, seat, err := h.seated(c)
		if err != nil {
			return err
		}
		return h.answer(c, g, seat, h.games.AnswerTakeback(c.Request().Context(), g, seat, accept))
	}
}
