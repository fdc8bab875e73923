package web

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// The clock, presence and claims of a game page (issue 12).

// clockView returns the clock of g as a viewer sees it now; nil for a
// game without a clock.
func (h *Site) clockView(g *game.Game) *views.ClockView {
	if !g.Clock.On() {
		return nil
	}
	now := h.Games.Now()
	left, running := g.ClockAt(now)
	c := &views.ClockView{Left: left, Running: sideName(running), Days: g.Clock.Days, Control: g.Clock.String()}
	if d, ok := g.FirstMoveLeft(now); ok {
		c.FirstMove = max(d, 1)
	}
	return c
}

// presenceView returns the presence line of the player in seat of g, and
// notes that they have the game open; nil for a spectator, a game over,
// or a game against the computer (which is never away and cannot be
// claimed from). While the game waits for the opponent the line is empty
// but polled, so that the creator is seen (and sees the opponent) from the
// start: the joiner was told the creator was not on the page.
func (h *Site) presenceView(c echo.Context, g *game.Game, seat engine.Side) *views.PresenceView {
	if seat == engine.Nobody || g.Status == game.Over {
		return nil
	}
	ctx := c.Request().Context()
	if err := h.Games.Seen(ctx, g.ID, seat); err != nil {
		h.Log.WarnContext(c.Request().Context(), "presence", "game", g.ID, "err", err)
	}
	if g.Seats[seat.Opponent()].Computer != 0 {
		return nil
	}
	if g.Status == game.Waiting {
		return &views.PresenceView{URL: route.GamePresence(core.LangOf(c), g.ID), Waiting: true}
	}
	seen, err := h.Games.Presence(ctx, g.ID)
	if err != nil {
		h.Log.WarnContext(c.Request().Context(), "presence", "game", g.ID, "err", err)
	}
	now := h.Games.Now()
	return &views.PresenceView{URL: route.GamePresence(core.LangOf(c), g.ID), Claim: route.GameClaim(core.LangOf(c), g.ID), CSRF: core.CsrfToken(c),
		Version:   g.Version,
		Connected: now.Sub(seen[seat.Opponent()]) <= game.Connected,
		Claimable: seat != g.Position.ToMove && g.Claimable(seen, now)}
}

// presencePoll answers the presence poll of a player's game page: the
// line again (and the player is seen); nothing once the game is over.
func (h *Site) presencePoll(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	v := h.presenceView(c, g, seat)
	if v == nil {
		return c.HTML(http.StatusOK, `<div id="presence"></div>`)
	}
	return core.Render(c, http.StatusOK, views.PresenceLine(h.Visit(c).L, *v))
}

// claimForm claims the game whose opponent left (form field result, "win"
// or "draw").
func (h *Site) claimForm(c echo.Context) error {
	result := c.FormValue("result")
	if result != "win" && result != "draw" {
		return core.ErrBadRequest
	}
	return h.act(c, func(ctx context.Context, g *game.Game, seat engine.Side) error {
		return h.Games.Claim(ctx, g, seat, result == "draw")
	})
}
