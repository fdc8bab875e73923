package core

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/mailer"
	"oware/route"
)

// PlayerName returns the name of a seat's player as the pages show it: the
// username, "guest", "deleted player" or "Computer, level 3".
func PlayerName(l *Localizer, s game.Seat) string {
	switch {
	case s.Computer != 0:
		return l.T("cp_name", "Level", int(s.Computer))
	case s.UserID == nil:
		return l.T("hist_guest")
	case s.Deleted:
		return l.T("hist_deleted_player")
	}
	return s.Name
}

// SiteName is the host of the site's public URL, as the mail names it.
func (h *Handlers) SiteName() string {
	if u, err := url.Parse(h.Base); err == nil && u.Host != "" {
		return u.Host
	}
	return h.Base
}

// The e-mail at a player's turn in a correspondence game (issue 24): an
// account setting, off by default, each mail with an unsubscribe link.

// MailTurn mails the player to move in g, a correspondence game in play
// just changed by mover, that it is their turn, if their account asks for
// it and has an address. A failure to read the account is logged: the
// move is played.
func (h *Handlers) MailTurn(c echo.Context, g *game.Game, mover engine.Side) {
	if h.Mail == nil || g.Status != game.Playing || g.Clock.Days == 0 || g.Position.ToMove == mover {
		return
	}
	seat := g.Seats[g.Position.ToMove]
	if seat.UserID == nil || seat.Computer != 0 {
		return
	}
	ctx := c.Request().Context()
	u, err := h.Accounts.ByID(ctx, *seat.UserID)
	if err != nil {
		h.Log.WarnContext(ctx, "turn mail", "game", g.ID, "err", err)
		return
	}
	if !u.TurnEmail || u.Email == nil || u.MailKey == "" || u.Deleted() {
		return
	}
	lang := u.Language
	if !ValidLang(lang) {
		lang = LangOf(c)
	}
	l, site := h.Localizers[lang], h.SiteName()
	h.Mail.SendLater(mailer.Message{
		To:      *u.Email,
		Subject: l.T("turn_mail_subject", "Site", site),
		// The links stay out of the localized texts, which are cached.
		Text: l.T("turn_mail_intro", "Name", u.Username, "Opponent", PlayerName(l, g.Seats[mover])) + "\n\n" +
			h.Base + route.Game(lang, g.ID) + "\n\n" + l.T("turn_mail_unsubscribe") + "\n" +
			h.Base + route.Unsubscribe(lang, u.MailKey) + "\n",
	})
}
