package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// turnEmailForm keeps a player's choice of the turn e-mails (form field
// turn_email, "on" or absent).
func (h *Site) turnEmailForm(c echo.Context) error {
	v := h.Visit(c)
	if h.User(c) == nil {
		return core.Redirect(c, route.Login(v.Lang))
	}
	if err := h.Accounts.SetTurnEmail(c.Request().Context(), h.User(c).ID, c.FormValue("turn_email") == "on"); err != nil {
		return err
	}
	return core.Redirect(c, route.Account(v.Lang))
}

// unsubscribePage shows the button that turns off the turn e-mails of the
// link's account (a GET changes nothing: mail scanners open links).
func (h *Site) unsubscribePage(c echo.Context) error {
	return h.unsubscribe(c, false)
}

// unsubscribeForm turns off the turn e-mails of the link's account.
func (h *Site) unsubscribeForm(c echo.Context) error {
	return h.unsubscribe(c, true)
}

// unsubscribe answers the unsubscribe link's page, after turning the
// mails off when done.
func (h *Site) unsubscribe(c echo.Context, done bool) error {
	key := c.Param("key")
	if !accounts.ValidMailKey(key) {
		return core.ErrNotFound
	}
	if done {
		if err := h.Accounts.Unsubscribe(c.Request().Context(), key); errors.Is(err, accounts.ErrNotFound) {
			return core.ErrNotFound
		} else if err != nil {
			return err
		}
	}
	p := h.Page(c, "turn_mail_title", route.Fill(route.UnsubscribePattern, key))
	p.NoIndex = true
	return core.Render(c, http.StatusOK, views.UnsubscribePage(p, views.UnsubscribeView{Done: done, CSRF: core.CsrfToken(c),
		Action: route.Unsubscribe(core.LangOf(c), key)}))
}
