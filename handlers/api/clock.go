package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
)

// clockJSON is a game's clock in the API: each side's time left now in
// milliseconds and the side whose clock runs (null when none does); also
// the time control and, during the first moves of a real-time game, the
// time left for the first move.
type clockJSON struct {
	SouthMS     int64   `json:"south_ms"`
	NorthMS     int64   `json:"north_ms"`
	Running     *string `json:"running"`
	Initial     int     `json:"initial,omitempty"`
	Increment   *int    `json:"increment,omitempty"`
	Days        int     `json:"days,omitempty"`
	FirstMoveMS *int64  `json:"first_move_ms,omitempty"`
}

// clockJSON returns g's clock for the API, nil for none.
func (h *API) clockJSON(g *game.Game) *clockJSON {
	if !g.Clock.On() {
		return nil
	}
	now := h.Games.Now()
	left, running := g.ClockAt(now)
	j := &clockJSON{SouthMS: left[engine.South].Milliseconds(), NorthMS: left[engine.North].Milliseconds(), Days: g.Clock.Days}
	if running != engine.Nobody {
		s := running.String()
		j.Running = &s
	}
	if g.Clock.Days == 0 {
		inc := g.Clock.Increment
		j.Initial, j.Increment = g.Clock.Initial, &inc
	}
	if d, ok := g.FirstMoveLeft(now); ok {
		ms := d.Milliseconds()
		j.FirstMoveMS = &ms
	}
	return j
}

// timeControlJSON is a time control in the API: {"initial": S,
// "increment": S} (real time) or {"days": N} (correspondence).
type timeControlJSON struct {
	Initial   *int `json:"initial,omitempty"`
	Increment *int `json:"increment,omitempty"`
	Days      *int `json:"days,omitempty"`
}

// timeControl reads a time control of the API (nil for none): 422 for
// one that is not a real-time control of 10 s to 3 h plus 0 to 60 s, or 1,
// 3 or 7 days.
func (j *timeControlJSON) timeControl() (game.TimeControl, error) {
	var tc game.TimeControl
	if j == nil {
		return tc, nil
	}
	if j.Days != nil {
		if j.Initial != nil || j.Increment != nil {
			return tc, game.ErrBadClock
		}
		tc.Days = *j.Days
	} else {
		if j.Initial == nil {
			return tc, game.ErrBadClock
		}
		tc.Initial = *j.Initial
		if j.Increment != nil {
			tc.Increment = *j.Increment
		}
	}
	if !tc.On() {
		return tc, game.ErrBadClock
	}
	return tc, tc.Check()
}

// timeControlOf writes a time control for the API, nil for none.
func timeControlOf(tc game.TimeControl) *timeControlJSON {
	switch {
	case tc.Days > 0:
		return &timeControlJSON{Days: &tc.Days}
	case tc.Initial > 0:
		return &timeControlJSON{Initial: &tc.Initial, Increment: &tc.Increment}
	}
	return nil
}

// apiClaim: POST /api/v1/games/{id}/claim {"result":"win"|"draw"} with the
// bearer token: the opponent, to move, left; 409 when there is nothing to
// claim.
func (h *API) apiClaim(c echo.Context) error {
	g, seat, err := h.Bearer(c)
	if err != nil {
		return err
	}
	var req struct {
		Result  string `json:"result"`
		Version int    `json:"version"` // optional: the version the claim was made on (apiResign)
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Result != "win" && req.Result != "draw" {
		return &core.UserError{Status: http.StatusUnprocessableEntity, Key: "err_bad_request"}
	}
	if err := g.CheckVersion(req.Version); err != nil {
		return err
	}
	if err := h.Games.Claim(c.Request().Context(), g, seat, req.Result == "draw"); err != nil {
		return err
	}
	return h.answerGame(c, g)
}
