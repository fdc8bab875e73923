package handlers

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/models"
	"oware/views"
)

// home is the home page: the pitch with a board picture, the ways to play
// and, for a returning visitor or player, their games in progress.
func (h *handler) home(c echo.Context) error {
	p := h.page(c, "home_title", "/")
	p.Description = p.L.T("home_description")
	games, err := h.gamesInProgress(c)
	if err != nil {
		return err
	}
	v := views.HomeView{Games: games}
	// The picture: the standard game after South's first move, C, whose
	// seeds drop one by one.
	r, _ := engine.RulesByName("abapa")
	pos, mv, err := r.Play(r.Start(), 2)
	if err != nil {
		return err
	}
	v.Picture, v.Sowing, v.LastPit = pos, mv.Sown, mv.Pit
	return render(c, http.StatusOK, views.Home(p, v))
}

// gamesInProgress returns the visitor's games that are not over: the
// account's (for a player) and those whose seats this browser's session
// holds, the games waiting for the visitor's move first.
func (h *handler) gamesInProgress(c echo.Context) ([]views.OpenGame, error) {
	var games []views.OpenGame
	if u := h.currentUser(c); u != nil {
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

// sessionGames returns the games not over whose seats the session holds,
// leaving out those already listed.
func (h *handler) sessionGames(c echo.Context, listed []views.OpenGame) ([]views.OpenGame, error) {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	tokens := map[string]string{}
	var ids []string
	for _, e := range otherSeats(s, "") {
		id, tok, _ := strings.Cut(e, ":")
		if !slices.ContainsFunc(listed, func(g views.OpenGame) bool { return g.ID == id }) {
			tokens[id] = tok
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	ctx := c.Request().Context()
	status, err := h.db.GameStatuses(ctx, ids)
	if err != nil {
		return nil, err
	}
	var loaded []*models.Game
	var users []uint
	for _, id := range ids {
		if st, ok := status[id]; !ok || st == "over" {
			continue
		}
		g, err := h.db.LoadGame(ctx, id)
		if err != nil {
			return nil, err
		}
		loaded = append(loaded, g)
		users = append(users, nonNil(g.SouthUserID, g.NorthUserID)...)
	}
	names, err := h.db.UsersByID(ctx, users)
	if err != nil {
		return nil, err
	}
	var out []views.OpenGame
	for _, g := range loaded {
		if seat := h.browserSeat(c, g, tokens[g.ID]); seat != engine.Nobody {
			out = append(out, openGameOf(g, seat, names))
		}
	}
	return out, nil
}
