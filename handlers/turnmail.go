package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/engine"
	"oware/game"
	"oware/mailer"
	"oware/route"
	"oware/views"
)

// The e-mail at a player's turn in a correspondence game (issue 24): an
// account setting, off by default, each mail with an unsubscribe link.

// mailTurn mails the player to move in g, a correspondence game in play
// just changed by mover, that it is their turn, if their account asks for
// it and has an address. A failure to read the account is logged: the
// move is played.
func (h *handler) mailTurn(c echo.Context, g *game.Game, mover engine.Side) {
	if h.mail == nil || g.Status != game.Playing || g.Clock.Days == 0 || g.Position.ToMove == mover {
		return
	}
	seat := g.Seats[g.Position.ToMove]
	if seat.UserID == nil || seat.Computer != 0 {
		return
	}
	ctx := c.Request().Context()
	u, err := h.accounts.ByID(ctx, *seat.UserID)
	if err != nil {
		h.log.WarnContext(ctx, "turn mail", "game", g.ID, "err", err)
		return
	}
	if !u.TurnEmail || u.Email == nil || u.MailKey == "" || u.Deleted() {
		return
	}
	lang := u.Language
	if !validLang(lang) {
		lang = langOf(c)
	}
	l, site := h.localizers[lang], h.siteName()
	h.mail.SendLater(mailer.Message{
		To:      *u.Email,
		Subject: l.T("turn_mail_subject", "Site", site),
		// The links stay out of the localized texts, which are cached.
		Text: l.T("turn_mail_intro", "Name", u.Username, "Opponent", playerName(l, g.Seats[mover])) + "\n\n" +
			h.base + route.Game(lang, g.ID) + "\n\n" + l.T("turn_mail_unsubscribe") + "\n" +
			h.base + route.Unsubscribe(lang, u.MailKey) + "\n",
	})
}

// turnEmailForm keeps a player's choice of the turn e-mails (form field
// turn_email, "on" or absent).
func (h *handler) turnEmailForm(c echo.Context) error {
	v := h.visit(c)
	if h.user(c) == nil {
		return redirect(c, route.Login(v.lang))
	}
	if err := h.accounts.SetTurnEmail(c.Request().Context(), h.user(c).ID, c.FormValue("turn_email") == "on"); err != nil {
		return err
	}
	return redirect(c, route.Account(v.lang))
}

// unsubscribePage shows the button that turns off the turn e-mails of the
// link's account (a GET changes nothing: mail scanners open links).
func (h *handler) unsubscribePage(c echo.Context) error {
	return h.unsubscribe(c, false)
}

// unsubscribeForm turns off the turn e-mails of the link's account.
func (h *handler) unsubscribeForm(c echo.Context) error {
	return h.unsubscribe(c, true)
}

// unsubscribe answers the unsubscribe link's page, after turning the
// mails off when done.
func (h *handler) unsubscribe(c echo.Context, done bool) error {
	key := c.Param("key")
	if !accounts.ValidMailKey(key) {
		return errNotFound
	}
	if done {
		if err := h.accounts.Unsubscribe(c.Request().Context(), key); errors.Is(err, accounts.ErrNotFound) {
			return errNotFound
		} else if err != nil {
			return err
		}
	}
	p := h.page(c, "turn_mail_title", route.Fill(route.UnsubscribePattern, key))
	p.NoIndex = true
	return render(c, http.StatusOK, views.UnsubscribePage(p, views.UnsubscribeView{Done: done, CSRF: csrfToken(c),
		Action: route.Unsubscribe(langOf(c), key)}))
}
