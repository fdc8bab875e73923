package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/handlers/core"
)

// challengeJSON is a challenge in the API.
type challengeJSON struct {
	ID        string           `json:"id"`
	Rules     string           `json:"rules"`
	Fours     string           `json:"fours,omitempty"`
	Clock     *timeControlJSON `json:"clock"`
	Rated     bool             `json:"rated"`
	By        *string          `json:"by"`               // the creator's username; null for a guest
	Rating    *string          `json:"rating,omitempty"` // the creator's rating in the game's category
	Seat      string           `json:"seat"`             // the creator's: south, north, random
	MinRating int              `json:"min_rating,omitempty"`
	MaxRating int              `json:"max_rating,omitempty"`
}

func toChallengeJSON(ch *game.Challenge) challengeJSON {
	j := challengeJSON{ID: ch.ID, Rules: ch.Rules, Fours: ch.Fours, Clock: timeControlOf(ch.Clock), Rated: ch.Rated,
		Seat: ch.Seat, MinRating: ch.MinRating, MaxRating: ch.MaxRating}
	if ch.By != "" {
		by := ch.By
		j.By = &by
	}
	if ch.ByRating != "" {
		r := ch.ByRating
		j.Rating = &r
	}
	return j
}

// apiChallenges: GET /api/v1/challenges -> the open challenges.
func (h *API) apiChallenges(c echo.Context) error {
	list, err := h.Games.Challenges(c.Request().Context(), game.Player{UserID: h.UserID(c)})
	if err != nil {
		return err
	}
	out := make([]challengeJSON, len(list))
	for i, ch := range list {
		out[i] = toChallengeJSON(ch)
	}
	return c.JSON(http.StatusOK, out)
}

// apiCreateChallenge: POST /api/v1/challenges {"rules","fours","seat",
// "clock","rated","for","min_rating","max_rating"} -> 201 {"id","token"}.
// A rated challenge needs an account: the session cookie of a logged-in
// player.
func (h *API) apiCreateChallenge(c echo.Context) error {
	var req struct {
		Rules     string           `json:"rules"`
		Fours     string           `json:"fours"`
		Seat      string           `json:"seat"`
		Clock     *timeControlJSON `json:"clock"`
		Rated     bool             `json:"rated"`
		For       string           `json:"for"`
		MinRating int              `json:"min_rating"`
		MaxRating int              `json:"max_rating"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := h.Challenges.Check(c); err != nil {
		return err
	}
	tc, err := req.Clock.timeControl()
	if err != nil {
		return err
	}
	by := h.apiPlayer(c)
	set := game.ChallengeSettings{Settings: game.Settings{Rules: req.Rules, Fours: req.Fours, Seat: req.Seat,
		UserID: by.UserID, Clock: tc, Rated: req.Rated}, For: req.For, MinRating: req.MinRating, MaxRating: req.MaxRating, API: true}
	ch, token, err := h.Games.CreateChallenge(c.Request().Context(), set, by)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]string{"id": ch.ID, "token": token})
}

// apiPlayer returns the lobby identity of an API client: the account of
// its session cookie, else a new one of its own.
func (h *API) apiPlayer(c echo.Context) game.Player {
	if id := h.UserID(c); id != 0 {
		return game.Player{UserID: id, Owner: game.OwnerOf(id, ""), Client: core.ClientKey(c)}
	}
	return game.Player{Owner: "a" + game.NewToken()[:16], Client: core.ClientKey(c)}
}

// apiChallenge: GET /api/v1/challenges/{id} -> the challenge with "game"
// (its game's id once taken, else null) and "status". The creator's
// bearer token keeps it open (APIWait).
func (h *API) apiChallenge(c echo.Context) error {
	ctx := c.Request().Context()
	ch, err := h.Games.FindChallenge(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if ch.SeatToken(core.BearerToken(c)) {
		if err := h.Games.KeepChallenge(ctx, ch, true); err != nil {
			return err
		}
	}
	var out struct {
		challengeJSON
		Game   *string `json:"game"`
		Status string  `json:"status"` // open, taken, cancelled
	}
	out.challengeJSON, out.Status = toChallengeJSON(ch), ch.Status
	if ch.GameID != "" {
		id := ch.GameID
		out.Game = &id
	}
	return c.JSON(http.StatusOK, out)
}

// apiAccept: POST /api/v1/challenges/{id}/accept -> 200 {"game","token",
// "seat"}; 409 when taken (or cancelled, or gone).
func (h *API) apiAccept(c echo.Context) error {
	ctx := c.Request().Context()
	p := h.apiPlayer(c)
	if t := core.BearerToken(c); t != "" {
		if ch, err := h.Games.FindChallenge(ctx, c.Param("id")); err == nil && ch.SeatToken(t) {
			return game.ErrOwnChallenge
		}
	}
	g, token, seat, err := h.Games.Accept(ctx, c.Param("id"), p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"game": g.ID, "token": token, "seat": seat.String()})
}

// apiCancel: DELETE /api/v1/challenges/{id} with the creator's bearer
// token -> 204.
func (h *API) apiCancel(c echo.Context) error {
	ctx := c.Request().Context()
	ch, err := h.Games.FindChallenge(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if !ch.SeatToken(core.BearerToken(c)) {
		return core.ErrNoSeat
	}
	if err := h.Games.CancelChallenge(ctx, ch.ID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
