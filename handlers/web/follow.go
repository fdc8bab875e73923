package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// Following players (issue 24): the follow form of a player's page, the
// list of the players an account follows with their games in play, and
// those games on the home page.

// followForm follows the player :name (form field follow "on") or stops
// following them ("off"), then goes back to the page of the form (field
// back, a path of this site; the player's page otherwise).
func (h *Site) followForm(c echo.Context) error {
	v := h.Visit(c)
	if v.User == nil {
		return core.Redirect(c, route.Login(v.Lang)+"?next="+url.QueryEscape(route.Player(v.Lang, c.Param("name"))))
	}
	on := c.FormValue("follow")
	if on != "on" && on != "off" {
		return core.ErrBadRequest
	}
	ctx := c.Request().Context()
	u, err := h.Accounts.ByName(ctx, c.Param("name"))
	if errors.Is(err, accounts.ErrNotFound) {
		return core.ErrNotFound
	}
	if err != nil {
		return err
	}
	if on == "on" {
		err = h.Accounts.Follow(ctx, v.User.ID, u.ID, h.Games.Now())
	} else {
		err = h.Accounts.Unfollow(ctx, v.User.ID, u.ID)
	}
	if err != nil {
		return err
	}
	back := c.FormValue("back")
	if !strings.HasPrefix(back, route.Home(v.Lang)) {
		back = views.PlayerURL(v.Lang, u.Username)
	}
	return core.Redirect(c, back)
}

// followingPage lists the players the account follows, who of them plays
// now, and their games in play.
func (h *Site) followingPage(c echo.Context) error {
	v := h.Visit(c)
	if v.User == nil {
		return core.Redirect(c, route.Login(v.Lang)+"?next="+url.QueryEscape(route.Following(v.Lang)))
	}
	users, err := h.Accounts.Followed(c.Request().Context(), v.User.ID)
	if err != nil {
		return err
	}
	playing, err := h.followedGames(c)
	if err != nil {
		return err
	}
	fv := views.FollowingView{Playing: playing, CSRF: core.CsrfToken(c)}
	for _, u := range users {
		f := views.FollowedPlayer{Name: u.Username, Bot: u.Bot}
		for _, g := range playing.Games {
			if g.Names[0] == u.Username || g.Names[1] == u.Username {
				f.Watch = g.URL
				break
			}
		}
		fv.Players = append(fv.Players, f)
	}
	return core.Render(c, http.StatusOK, views.FollowingPage(h.Page(c, "title_following", route.FollowingPattern), fv))
}

// followedGames returns the games in play of the players the visitor's
// account follows (GamesNowList, asked again with ?following=1).
func (h *Site) followedGames(c echo.Context) (views.GamesNowView, error) {
	v := views.GamesNowView{ListURL: route.GamesNow(core.LangOf(c)) + "?following=1", ID: "followed-list"}
	u := h.Visit(c).User
	if u == nil {
		return v, nil
	}
	games, err := h.Games.PlayingFollowed(c.Request().Context(), u.ID, nowLimit)
	for _, g := range games {
		v.Games = append(v.Games, h.liveGame(core.LangOf(c), g))
	}
	return v, err
}

// playerGames returns the games in play between accounts of the player
// u names (GamesNowList, asked again with ?player=name).
func (h *Site) playerGames(c echo.Context, user uint, name string) (views.GamesNowView, error) {
	v := views.GamesNowView{ListURL: route.GamesNow(core.LangOf(c)) + "?player=" + url.QueryEscape(name), ID: "player-games"}
	games, err := h.Games.PlayingOf(c.Request().Context(), user, nowLimit)
	for _, g := range games {
		v.Games = append(v.Games, h.liveGame(core.LangOf(c), g))
	}
	return v, err
}

// followView is the follow button and the challenge of the page of
// player u for the visitor; nil for a visitor without an account and on
// the player's own page.
func (h *Site) followView(c echo.Context, u *accounts.User) (*views.FollowView, error) {
	me := h.Visit(c).User
	if me == nil || me.ID == u.ID {
		return nil, nil
	}
	following, err := h.Accounts.Follows(c.Request().Context(), me.ID, u.ID)
	return &views.FollowView{Name: u.Username, Following: following, CSRF: core.CsrfToken(c)}, err
}
