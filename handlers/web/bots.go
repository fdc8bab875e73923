package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/handlers/core"
	"oware/views"
)

// The account page's API tokens and a bot's profile (issue 35): forms
// behind RequireUser, answered with the account page.

// tokensView is the account page's section of u's tokens; secret is the
// token made by this request ("" for none).
func (h *Site) tokensView(c echo.Context, u *accounts.User, secret string) (views.TokensView, error) {
	ts, err := h.Accounts.Tokens(c.Request().Context(), u.ID)
	if err != nil {
		return views.TokensView{}, err
	}
	v := views.TokensView{NewToken: secret, Scopes: accounts.Scopes, Bot: u.Bot, BotEngine: u.BotEngine, CSRF: core.CsrfToken(c)}
	for _, t := range ts {
		v.Tokens = append(v.Tokens, views.TokenRow{ID: t.ID, Name: t.Name, Scopes: t.Scopes, Created: t.CreatedAt.Format("2006-01-02")})
	}
	if u.Bot {
		v.BotOwner = h.botInfo(c, u).Owner
	}
	return v, nil
}

// tokenForm: POST /{lang}/account/tokens (name, scope...) makes a token
// and answers the account page with its secret, shown this once.
func (h *Site) tokenForm(c echo.Context) error {
	u := h.User(c)
	if err := c.Request().ParseForm(); err != nil {
		return core.ErrBadRequest
	}
	secret, _, err := h.Accounts.CreateToken(c.Request().Context(), u.ID, c.FormValue("name"), c.Request().PostForm["scope"])
	if err != nil {
		return h.refused(c, u, err)
	}
	return h.settingsWith(c, u, http.StatusOK, "", "", secret)
}

// revokeTokenForm: POST /{lang}/account/tokens/{id}/revoke.
func (h *Site) revokeTokenForm(c echo.Context) error {
	u := h.User(c)
	id, err := strconv.ParseUint(c.Param("id"), 10, 32)
	if err != nil {
		return core.ErrNotFound
	}
	if err := h.Accounts.RevokeToken(c.Request().Context(), u.ID, uint(id)); err != nil {
		if errors.Is(err, accounts.ErrNotFound) {
			return core.ErrNotFound
		}
		return err
	}
	return h.settingsWith(c, u, http.StatusOK, "bot_token_revoked", "", "")
}

// botForm: POST /{lang}/account/bot (engine, owner) stores what a bot's
// profile shows.
func (h *Site) botForm(c echo.Context) error {
	u := h.User(c)
	if err := h.Accounts.SetBotProfile(c.Request().Context(), u, c.FormValue("engine"), c.FormValue("owner")); err != nil {
		return h.refused(c, u, err)
	}
	return h.settingsWith(c, u, http.StatusOK, "bot_profile_saved", "", "")
}

// refused answers the account page with the refusal of err (a user's
// mistake), or err itself (a fault).
func (h *Site) refused(c echo.Context, u *accounts.User, err error) error {
	var ue *core.UserError
	if errors.As(core.Refusal(err), &ue) {
		return h.settingsWith(c, u, ue.Status, "", ue.Key, "")
	}
	return err
}

// botInfo is the profile of bot u: its engine and its owner's name.
func (h *Site) botInfo(c echo.Context, u *accounts.User) *views.BotInfo {
	b := &views.BotInfo{Engine: u.BotEngine}
	if u.BotOwnerID != nil {
		if o, err := h.Accounts.ByID(c.Request().Context(), *u.BotOwnerID); err == nil && !o.Deleted() {
			b.Owner = o.Username
		}
	}
	return b
}
