package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// Preset chat (issue 24): the players of a game send each other messages
// from a fixed list (nothing to moderate), stored with the game.

// A page shows the last chatShown messages (the limits of sending are
// core.ChatGap and core.ChatMax, the Bot API's too).
const chatShown = 40

// chatForm sends the posted preset message (form field msg) of a seated
// player; htmx gets 204 and the event that makes the chat's poll ask at
// once, a form without JavaScript goes back to the game.
func (h *Site) chatForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	msg := c.FormValue("msg")
	if !slices.Contains(views.ChatPresets, msg) || g.VsComputer() {
		return core.ErrBadRequest
	}
	err = h.Games.Say(c.Request().Context(), g, seat, msg, core.ChatGap, core.ChatMax)
	if errors.Is(err, game.ErrChatLimit) {
		return core.ErrChatLimit
	}
	if err != nil {
		return err
	}
	if !core.Htmx(c) {
		return core.Redirect(c, route.Game(core.LangOf(c), g.ID))
	}
	c.Response().Header().Set("HX-Trigger", "chat")
	return c.NoContent(http.StatusNoContent)
}

// chatPoll answers the chat's poll: the messages after ?after (an id),
// or 204 when none came.
func (h *Site) chatPoll(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	return h.chatNews(c, g, seat)
}

// chatNews renders the messages of g after ?after for the player in seat
// (with the poll that asks from the last), 204 when there are none.
func (h *Site) chatNews(c echo.Context, g *game.Game, seat engine.Side) error {
	after, _ := strconv.Atoi(c.QueryParam("after"))
	v, err := h.chatView(c, g, seat)
	if err != nil || v == nil {
		return err
	}
	v.Messages = slices.DeleteFunc(v.Messages, func(m views.ChatLine) bool { return m.ID <= after })
	if len(v.Messages) == 0 {
		return c.NoContent(http.StatusNoContent)
	}
	return core.Render(c, http.StatusOK, views.ChatNews(h.Visit(c).L, *v))
}

// chatView returns the chat of g as the player in seat sees it; nil for
// a game against the computer.
func (h *Site) chatView(c echo.Context, g *game.Game, seat engine.Side) (*views.ChatView, error) {
	if g.VsComputer() || seat == engine.Nobody || g.Status == game.Waiting {
		return nil, nil
	}
	msgs, err := h.Games.Chat(c.Request().Context(), g.ID, chatShown)
	if err != nil {
		return nil, err
	}
	v := &views.ChatView{URL: route.GameChat(core.LangOf(c), g.ID), CSRF: core.CsrfToken(c)}
	for _, m := range msgs {
		mine := m.Side == seat.String()
		v.Messages = append(v.Messages, views.ChatLine{ID: int(m.ID), Mine: mine, Message: m.Message, Bot: !mine && g.Seats[seat.Opponent()].Bot})
		v.Last = int(m.ID)
	}
	return v, nil
}
