package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// The games being played now (issue 24): the games-now page, its list
// refreshed by htmx, and the featured game of the home page.

// nowLimit is how many games in play the games-now page lists; the home
// page shows homeNow of them.
const (
	nowLimit = 24
	homeNow  = 4
)

// gamesNowPage lists the games in play between players (htmx: the list
// only; ?home=1 the home page's, ?following=1 those of the players the
// account follows, ?player=name a player's).
func (h *Site) gamesNowPage(c echo.Context) error {
	v, err := h.nowList(c)
	if err != nil {
		return err
	}
	if core.Htmx(c) {
		return core.Render(c, http.StatusOK, views.GamesNowList(h.Visit(c).L, v))
	}
	return core.Render(c, http.StatusOK, views.GamesNowPage(h.Page(c, "now_title", route.GamesNowPattern), v))
}

// nowList returns the list of games in play the request asks for.
func (h *Site) nowList(c echo.Context) (views.GamesNowView, error) {
	q := c.QueryParams()
	switch {
	case q.Has("following"):
		return h.followedGames(c)
	case q.Has("player"):
		u, err := h.Accounts.ByName(c.Request().Context(), q.Get("player"))
		if errors.Is(err, accounts.ErrNotFound) {
			return views.GamesNowView{}, core.ErrNotFound
		}
		if err != nil {
			return views.GamesNowView{}, err
		}
		return h.playerGames(c, u.ID, u.Username)
	}
	games, err := h.liveGames(c)
	if err != nil {
		return views.GamesNowView{}, err
	}
	if q.Has("home") {
		return homeNowList(core.LangOf(c), games), nil
	}
	return views.GamesNowView{Games: games, ListURL: route.GamesNow(core.LangOf(c))}, nil
}

// liveGames returns the games in play between players as the pages show
// them, the newest first.
func (h *Site) liveGames(c echo.Context) ([]views.LiveGame, error) {
	games, err := h.Games.Playing(c.Request().Context(), nowLimit)
	if err != nil {
		return nil, err
	}
	out := make([]views.LiveGame, 0, len(games))
	for _, g := range games {
		out = append(out, h.liveGame(core.LangOf(c), g))
	}
	return out, nil
}

// liveGame describes g, in play, for the games-now list.
func (h *Site) liveGame(lang string, g *game.Game) views.LiveGame {
	v := views.LiveGame{URL: route.Watch(lang, g.SpectatorKey), Rules: g.Rules.Name(), Ratings: g.Ratings,
		Position: g.Position, Last: -1, Clock: h.clockView(g), Moves: len(g.Engine.Moves)}
	for _, side := range []engine.Side{engine.South, engine.North} {
		v.Names[side], v.Bots[side] = g.Seats[side].Name, g.Seats[side].Bot
	}
	if g.Last != nil && !g.Last.Agreement {
		v.Last = g.Last.Move.Pit
	}
	return v
}

// homeNowList is the home page's list of games in play: homeNow games
// besides the featured one.
func homeNowList(lang string, games []views.LiveGame) views.GamesNowView {
	_, rest := featured(games)
	return views.GamesNowView{Games: rest[:min(len(rest), homeNow)], ListURL: route.GamesNow(lang) + "?home=1"}
}

// featured takes the highest-rated game (the sum of both ratings; unrated
// players count as 0) out of games and returns it, nil for none.
func featured(games []views.LiveGame) (*views.LiveGame, []views.LiveGame) {
	if len(games) == 0 {
		return nil, games
	}
	best := 0
	for i, g := range games {
		if ratingSum(g) > ratingSum(games[best]) {
			best = i
		}
	}
	f := games[best]
	return &f, slices.Delete(slices.Clone(games), best, best+1)
}

// ratingSum adds the players' ratings of g ("1500?" counts as 1500).
func ratingSum(g views.LiveGame) int {
	sum := 0
	for _, r := range g.Ratings {
		n, _ := strconv.Atoi(strings.TrimSuffix(r, "?"))
		sum += n
	}
	return sum
}
