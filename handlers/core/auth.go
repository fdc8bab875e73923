package core

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/route"
)

// RequireUser is the middleware of the pages and forms of an account: a
// visitor goes to the login page, which leads back to the page (after a
// form: to the account page), and the handler does not run. Behind it
// h.user(c) is the logged-in player.
func (h *Handlers) RequireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		u, err := h.account(c)
		if err != nil {
			return err
		}
		if u != nil {
			return next(c)
		}
		back := route.Account(LangOf(c))
		if c.Request().Method == http.MethodGet {
			back = c.Request().URL.RequestURI()
		}
		return Redirect(c, route.Login(LangOf(c))+"?next="+url.QueryEscape(back))
	}
}

// NotBot is the middleware of the forms that start or join play (a game,
// a challenge, the lobby, a tournament, the computer): a bot's session is
// refused with ErrBotWeb and nothing changes. The account was read by the
// visitor middleware already: no query more.
func (h *Handlers) NotBot(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if u := h.User(c); u != nil && u.Bot {
			return ErrBotWeb
		}
		return next(c)
	}
}

// Bearer loads the game of :id and the seat of the request's bearer token:
// 401 without a token (before any read), 403 for a token that holds no
// seat. The token is checked against the game's row in the same one read
// that loads it, before any work on the game (game.Service.LoadSeated).
func (h *Handlers) Bearer(c echo.Context) (*game.Game, engine.Side, error) {
	if BearerToken(c) == "" {
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="oware"`)
		return nil, engine.Nobody, &UserError{http.StatusUnauthorized, "err_no_seat"}
	}
	return h.Games.LoadSeated(c.Request().Context(), c.Param("id"), h.VisitorOf(c))
}

// BearerToken returns the request's bearer token, or "".
func BearerToken(c echo.Context) string {
	scheme, token, _ := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
