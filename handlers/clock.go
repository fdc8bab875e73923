package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/route"
	"oware/views"
)

// The clock, presence and claims of a game page (issue 12).

// clockView returns the clock of g as a viewer sees it now; nil for a
// game without a clock.
func (h *handler) clockView(g *game.Game) *views.ClockView {
	if !g.Clock.On() {
		return nil
	}
	now := h.games.Now()
	left, running := g.ClockAt(now)
	c := &views.ClockView{Left: left, Running: sideName(running), Days: g.Clock.Days, Control: g.Clock.String()}
	if d, ok := g.FirstMoveLeft(now); ok {
		c.FirstMove = max(d, 1)
	}
	return c
}

// presenceView returns the presence line of the player in seat of g, and
// notes that they have the game open; nil for a spectator, a game not in
// play, or a game against the computer (which is never away and cannot be
// claimed from).
func (h *handler) presenceView(c echo.Context, g *game.Game, seat engine.Side) *views.PresenceView {
	if seat == engine.Nobody || g.Status != game.Playing {
		return nil
	}
	ctx := c.Request().Context()
	if err := h.games.Seen(ctx, g.ID, seat); err != nil {
		h.log.WarnContext(c.Request().Context(), "presence", "game", g.ID, "err", err)
	}
	if g.Seats[seat.Opponent()].Computer != 0 {
		return nil
	}
	seen, err := h.games.Presence(ctx, g.ID)
	if err != nil {
		h.log.WarnContext(c.Request().Context(), "presence", "game", g.ID, "err", err)
	}
	now := h.games.Now()
	return &views.PresenceView{URL: route.GamePresence(langOf(c), g.ID), Claim: route.GameClaim(langOf(c), g.ID), CSRF: csrfToken(c),
		Version:   g.Version,
		Connected: now.Sub(seen[seat.Opponent()]) <= game.Connected,
		Claimable: seat != g.Position.ToMove && g.Claimable(seen, now)}
}

// presencePoll answers the presence poll of a player's game page: the
// line again (and the player is seen); nothing once the game is over.
func (h *handler) presencePoll(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	v := h.presenceView(c, g, seat)
	if v == nil {
		return c.HTML(http.StatusOK, `<div id="presence"></div>`)
	}
	return render(c, http.StatusOK, views.PresenceLine(h.visit(c).l, *v))
}

// claimForm claims the game whose opponent left (form field result, "win"
// or "draw").
func (h *handler) claimForm(c echo.Context) error {
	result := c.FormValue("result")
	if result != "win" && result != "draw" {
		return errBadRequest
	}
	return h.act(c, func(ctx context.Context, g *game.Game, seat engine.Side) error {
		return h.games.Claim(ctx, g, seat, result == "draw")
	})
}

// seen notes that the player in seat of g acts now (a page, a program).
func (h *handler) seen(c echo.Context, g *game.Game, seat engine.Side) {
	if g.Status != game.Playing {
		return
	}
	if err := h.games.Seen(c.Request().Context(), g.ID, seat); err != nil {
		h.log.WarnContext(c.Request().Context(), "presence", "game", g.ID, "err", err)
	}
}

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
func (h *handler) clockJSON(g *game.Game) *clockJSON {
	if !g.Clock.On() {
		return nil
	}
	now := h.games.Now()
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
func (h *handler) apiClaim(c echo.Context) error {
	g, seat, err := h.bearer(c)
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
		return &userError{http.StatusUnprocessableEntity, "err_bad_request"}
	}
	if err := g.CheckVersion(req.Version); err != nil {
		return err
	}
	if err := h.games.Claim(c.Request().Context(), g, seat, req.Result == "draw"); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.toJSON(g))
}
