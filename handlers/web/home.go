package web

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// home is the home page: the pitch with a board picture, the ways to play
// and, for a returning visitor or player, their games in progress.
func (h *Site) home(c echo.Context) error {
	p := h.Page(c, "home_title", route.HomePattern)
	p.Description = p.L.T("home_description")
	games, err := h.gamesInProgress(c)
	if err != nil {
		return err
	}
	v := views.HomeView{Games: games, LobbyURL: route.Lobby(core.LangOf(c)), ComputerURL: route.Computer(core.LangOf(c))}
	var taken string
	if v.Lobby, taken, err = h.lobbyView(c); err != nil {
		return err
	}
	if taken != "" { // the visitor's challenge became a game
		return core.Redirect(c, route.Game(core.LangOf(c), taken))
	}
	live, err := h.liveGames(c)
	if err != nil {
		return err
	}
	v.Featured, _ = featured(live)
	v.Now, v.NowURL = homeNowList(core.LangOf(c), live), route.GamesNow(core.LangOf(c))
	// The picture: the standard game after South's first move, C.
	r, _ := engine.RulesByName("abapa")
	pos, mv, err := r.Play(r.Start(), 2)
	if err != nil {
		return err
	}
	v.Picture, v.LastPit = pos, mv.Pit
	if v.Daily, err = h.daily(c); err != nil {
		return err
	}
	v.Tournaments = h.tournamentReminders(c)
	v.Continue = h.courseContinue(c.Request().Context(), c)
	if followed, err := h.followedGames(c); err != nil {
		return err
	} else if len(followed.Games) > 0 {
		v.Followed = &followed
	}
	return core.Render(c, http.StatusOK, views.Home(p, v))
}

// gamesInProgress returns the visitor's games that are not over: the
// account's (for a player) and those whose seats this browser's session
// holds, the games waiting for the visitor's move first.
func (h *Site) gamesInProgress(c echo.Context) ([]views.OpenGame, error) {
	var games []views.OpenGame
	if u := h.User(c); u != nil {
		var err error
		if games, err = h.openGames(c, u); err != nil {
			return nil, err
		}
	}
	more, err := h.sessionGames(c, games)
	if err != nil {
		return nil, err
	}
	games = append(games, more...)
	slices.SortStableFunc(games, byTurn)
	return games, nil
}

// byTurn orders games in progress: those waiting for the player's move,
// then for the opponent's, then for an opponent to join.
func byTurn(a, b views.OpenGame) int {
	rank := func(g views.OpenGame) int {
		switch {
		case g.YourTurn:
			return 0
		case !g.Waiting:
			return 1
		}
		return 2
	}
	return rank(a) - rank(b)
}

// openGames lists the games of u that are not over, for u's own pages.
func (h *Site) openGames(c echo.Context, u *accounts.User) ([]views.OpenGame, error) {
	games, err := h.Games.OpenGames(c.Request().Context(), u.ID)
	if err != nil {
		return nil, err
	}
	var out []views.OpenGame
	for _, g := range games {
		me := engine.South
		if id := g.Seats[engine.North].UserID; id != nil && *id == u.ID {
			me = engine.North
		}
		out = append(out, openGameOf(g, me))
	}
	slices.SortStableFunc(out, byTurn)
	return out, nil
}

// sessionGames returns the games not over whose seats are kept for the
// request's visitor, leaving out those already listed.
func (h *Site) sessionGames(c echo.Context, listed []views.OpenGame) ([]views.OpenGame, error) {
	visitor := h.Visit(c).Sess.Visitor()
	if visitor == "" {
		return nil, nil
	}
	ctx := c.Request().Context()
	seats, err := h.Games.OpenSeats(ctx, visitor)
	if err != nil {
		return nil, err
	}
	var out []views.OpenGame
	for _, e := range seats {
		if slices.ContainsFunc(listed, func(g views.OpenGame) bool { return g.ID == e.GameID }) {
			continue
		}
		g, err := h.Games.Load(ctx, e.GameID)
		if err != nil {
			return nil, err
		}
		if seat := g.SeatOf(e.TokenHash, h.UserID(c)); seat != engine.Nobody && g.Status != game.Over {
			out = append(out, openGameOf(g, seat))
		}
	}
	return out, nil
}

// openGameOf describes game g (not over) for the player in seat me.
func openGameOf(g *game.Game, me engine.Side) views.OpenGame {
	o := views.OpenGame{ID: g.ID, Rules: g.Rules.Name(), Waiting: g.Status == game.Waiting,
		YourTurn: g.Status == game.Playing && g.Position.ToMove == me}
	opp := g.Seats[me.Opponent()]
	if opp.UserID != nil && !opp.Deleted {
		o.Opponent, o.OpponentBot = opp.Name, opp.Bot
	}
	o.Computer = int(opp.Computer)
	return o
}
