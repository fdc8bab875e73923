package api

import (
	"cmp"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/handlers/core"
	"oware/tournament"
)

// tournamentJSON is a tournament in the API's list.
type tournamentJSON struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"` // arena or swiss
	Name   string `json:"name"`
	Rules  string `json:"rules"`
	Status string `json:"status"` // created, running, finished
	// The settings and times, besides the contract's fields.
	Clock   clockSettingJSON `json:"clock"`
	Minutes int              `json:"minutes,omitempty"`
	Rounds  int              `json:"rounds,omitempty"`
	// RoundMinutes: a Swiss event's rounds start every so many minutes
	// at the latest (0: each once the last is over).
	RoundMinutes int  `json:"round_minutes,omitempty"`
	Rated        bool `json:"rated"`
	Password     bool `json:"password"`
	// Admits is who may play: people, bots or both (issue 35).
	Admits   string     `json:"admits"`
	StartsAt time.Time  `json:"starts_at"`
	EndsAt   *time.Time `json:"ends_at,omitempty"` // an arena's end
}

// clockSettingJSON is a tournament's time control, in seconds.
type clockSettingJSON struct {
	Initial   int `json:"initial"`
	Increment int `json:"increment"`
}

func toTournamentJSON(t *tournament.Tournament) tournamentJSON {
	j := tournamentJSON{ID: t.ID, Kind: t.Kind, Name: t.Name, Rules: t.Rules, Status: t.Status,
		Clock: clockSettingJSON{t.ClockInitial, t.ClockIncrement}, Minutes: t.Minutes, Rounds: t.Rounds,
		RoundMinutes: t.RoundMinutes, Rated: t.Rated, Password: t.PasswordHash != "", StartsAt: t.StartsAt,
		Admits: cmp.Or(t.Admits, tournament.AdmitPeople)}
	if t.Kind == "arena" {
		end := t.EndsAt
		j.EndsAt = &end
	}
	return j
}

// apiTournaments: GET /api/v1/tournaments -> 200 the running, upcoming and
// latest finished tournaments (at most 50 of each).
func (h *API) apiTournaments(c echo.Context) error {
	running, upcoming, finished, err := h.Tournaments.List(c.Request().Context(), 50)
	if err != nil {
		return err
	}
	out := []tournamentJSON{}
	for _, list := range [][]tournament.Tournament{running, upcoming, finished} {
		for i := range list {
			out = append(out, toTournamentJSON(&list[i]))
		}
	}
	return c.JSON(http.StatusOK, out)
}

// apiCreateTournament: POST /api/v1/tournaments {"kind","name","rules",
// "clock","minutes"|"rounds","starts_in","rated"} (and "fours",
// "password", "admits": people (the default), bots or both, a Swiss
// event's "round_minutes") with a logged-in account's session cookie ->
// 201 {"id"}.
func (h *API) apiCreateTournament(c echo.Context) error {
	var req struct {
		Kind    string           `json:"kind"`
		Name    string           `json:"name"`
		Rules   string           `json:"rules"`
		Fours   string           `json:"fours"`
		Clock   *timeControlJSON `json:"clock"`
		Minutes int              `json:"minutes"`
		Rounds  int              `json:"rounds"`
		// RoundMinutes schedules a Swiss event's rounds (optional).
		RoundMinutes int    `json:"round_minutes"`
		StartsIn     int    `json:"starts_in"` // seconds
		Rated        bool   `json:"rated"`
		Password     string `json:"password"`
		Admits       string `json:"admits"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	user := h.UserID(c)
	if user == 0 {
		return core.ErrNeedsAccount
	}
	if req.Clock == nil {
		return tournament.ErrBadClock
	}
	tc, err := req.Clock.timeControl()
	if err != nil {
		return err
	}
	if req.StartsIn < 0 || req.StartsIn > int(tournament.MaxStartsIn/time.Second) {
		return tournament.ErrBadStart
	}
	set := tournament.Settings{Kind: req.Kind, Name: req.Name, Rules: req.Rules, Fours: req.Fours, Clock: tc,
		Minutes: req.Minutes, Rounds: req.Rounds, RoundMinutes: req.RoundMinutes, StartsIn: time.Duration(req.StartsIn) * time.Second,
		Rated: req.Rated, Password: req.Password, Admits: req.Admits}
	t, err := h.Tournaments.Create(c.Request().Context(), set, user)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]string{"id": t.ID})
}

// standingJSON is a line of the standings.
type standingJSON struct {
	Player    string             `json:"player"` // the username
	Points    float64            `json:"points"`
	Games     int                `json:"games"`
	Tiebreaks map[string]float64 `json:"tiebreaks"` // swiss: buchholz, sonneborn_berger; arena: none
	Rank      int                `json:"rank"`
	Fire      bool               `json:"fire,omitempty"` // arena: the next win scores double
	Withdrawn bool               `json:"withdrawn,omitempty"`
}

// pairingJSON is a pairing: a game, or a Swiss bye (game and north null).
type pairingJSON struct {
	Round  int     `json:"round"`
	Game   *string `json:"game"`
	South  string  `json:"south"`
	North  *string `json:"north"`
	Result *string `json:"result"` // south, north, draw; null while played, for a bye and a void game
}

// apiTournament: GET /api/v1/tournaments/{id} -> 200 the tournament with
// its standings and pairings (an arena's every game, round 0).
func (h *API) apiTournament(c echo.Context) error {
	ctx := c.Request().Context()
	t, err := h.Tournaments.Find(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	v, err := h.Tournaments.View(ctx, t)
	if err != nil {
		return err
	}
	out := struct {
		tournamentJSON
		Standings []standingJSON `json:"standings"`
		Round     int            `json:"round"`
		Pairings  []pairingJSON  `json:"pairings"`
	}{tournamentJSON: toTournamentJSON(t), Standings: []standingJSON{}, Round: t.Round, Pairings: []pairingJSON{}}
	for _, s := range v.Standings {
		j := standingJSON{Player: v.Name(s.Player), Points: s.Points, Games: s.Games, Rank: s.Rank,
			Tiebreaks: map[string]float64{}, Fire: s.Fire, Withdrawn: v.Player(s.Player).Withdrawn}
		if t.Kind == "swiss" {
			j.Tiebreaks["buchholz"], j.Tiebreaks["sonneborn_berger"] = s.Buchholz, s.SonnebornBerger
		}
		out.Standings = append(out.Standings, j)
	}
	for i, g := range v.Games {
		p := pairingJSON{Round: g.Round, Game: g.GameID, South: v.Name(g.SouthID), Result: core.ResultOf(v.Pairings[i].Outcome)}
		if g.NorthID != nil {
			n := v.Name(*g.NorthID)
			p.North = &n
		}
		out.Pairings = append(out.Pairings, p)
	}
	return c.JSON(http.StatusOK, out)
}

// tournamentPlayer returns the account that joins, withdraws or asks for
// its game: a bot's by its account token (scope bot:play; issue 35), else
// the session cookie's (ErrNeedsAccount without either).
func (h *API) tournamentPlayer(c echo.Context) (uint, error) {
	if core.BearerToken(c) != "" {
		_, u, err := h.tokenAccount(c, accounts.ScopeBotPlay)
		if err != nil {
			return 0, err
		}
		return u.ID, nil
	}
	if user := h.UserID(c); user != 0 {
		return user, nil
	}
	return 0, core.ErrNeedsAccount
}

// apiJoinTournament: POST /api/v1/tournaments/{id}/join (a body
// {"password"} when it has one) with the session cookie, or a bot's
// account token (bot:play) -> 200. 403 for a bot in a tournament that
// admits people only, or a person in one that admits bots only.
func (h *API) apiJoinTournament(c echo.Context) error {
	var req struct {
		Password string `json:"password"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	user, err := h.tournamentPlayer(c)
	if err != nil {
		return err
	}
	err = h.Guess(c, user, tournament.ErrWrongPassword, func() error {
		return h.Tournaments.Join(c.Request().Context(), c.Param("id"), user, req.Password)
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"id": c.Param("id"), "joined": true})
}

// apiWithdrawTournament: POST /api/v1/tournaments/{id}/withdraw with the
// session cookie or a bot's token -> 200.
func (h *API) apiWithdrawTournament(c echo.Context) error {
	user, err := h.tournamentPlayer(c)
	if err != nil {
		return err
	}
	if err := h.Tournaments.Withdraw(c.Request().Context(), c.Param("id"), user); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"id": c.Param("id"), "joined": false})
}

// apiTournamentMe: GET /api/v1/tournaments/{id}/me with the session
// cookie or a bot's token -> 200 {"game": {"id","token","seat"} or null, "points",
// "rank"}: the player's game in progress with its seat's bearer token
// (for the moves API), their points and rank (null when not a player).
func (h *API) apiTournamentMe(c echo.Context) error {
	user, err := h.tournamentPlayer(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	t, err := h.Tournaments.Find(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	v, err := h.Tournaments.View(ctx, t)
	if err != nil {
		return err
	}
	type gameJSON struct {
		ID    string `json:"id"`
		Token string `json:"token"`
		Seat  string `json:"seat"`
	}
	out := struct {
		Game   *gameJSON `json:"game"`
		Points float64   `json:"points"`
		Rank   *int      `json:"rank"`
		Joined bool      `json:"joined"` // a player, not withdrawn
		Status string    `json:"status"` // the tournament's
	}{Status: t.Status}
	if s := v.Standing(user); s != nil {
		out.Points, out.Rank, out.Joined = s.Points, &s.Rank, !v.Player(user).Withdrawn
	}
	if i := v.Current(user); i >= 0 && v.Games[i].GameID != nil && v.Games[i].Game.Status != "" {
		g := v.Games[i]
		out.Game = &gameJSON{ID: *g.GameID, Token: g.SouthToken, Seat: "south"}
		if g.SouthID != user {
			out.Game.Token, out.Game.Seat = g.NorthToken, "north"
		}
	}
	return c.JSON(http.StatusOK, out)
}
