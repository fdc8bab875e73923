package web

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// moveForm plays the posted pit (form field "pit", a label).
// The game is loaded and the move stored in one round trip when this
// instance kept the game (game.Service.MoveFor).
func (h *Site) moveForm(c echo.Context) error {
	g, seat, err := h.Games.MoveFor(c.Request().Context(), c.Param("id"), h.VisitorOf(c), c.FormValue("pit"))
	if g == nil {
		return err
	}
	if err == nil {
		h.MailTurn(c, g, seat)
	}
	if err == nil && !core.Htmx(c) {
		h.awaitComputer(c, g)
	}
	return h.answer(c, g, seat, err)
}

// resignPage asks the player to confirm the resignation.
func (h *Site) resignPage(c echo.Context) error {
	g, _, err := h.seated(c)
	if err != nil {
		return err
	}
	if g.Status != game.Playing {
		return core.Redirect(c, route.Game(core.LangOf(c), g.ID))
	}
	version, err := formVersion(c.QueryParam("version"))
	if err != nil {
		return err
	}
	if version == 0 {
		version = g.Version
	}
	return core.Render(c, http.StatusOK, views.ResignPage(h.Page(c, "title_resign", route.Fill(route.GameResignPattern, g.ID)), g.ID, core.CsrfToken(c), version))
}

// resignForm resigns the game: the player loses.
func (h *Site) resignForm(c echo.Context) error {
	return h.act(c, func(ctx context.Context, g *game.Game, seat engine.Side) error {
		return h.Games.Resign(ctx, g, seat)
	})
}

// endForm returns the handler that proposes ending the game by agreement
// ("offer") or answers the opponent's proposal ("accept", "decline").
func (h *Site) endForm(action string) echo.HandlerFunc {
	return func(c echo.Context) error {
		return h.act(c, func(ctx context.Context, g *game.Game, seat engine.Side) error {
			if action == "offer" {
				return h.Games.OfferEnd(ctx, g, seat)
			}
			return h.Games.AnswerEnd(ctx, g, seat, action == "accept")
		})
	}
}

// act runs action for the visitor's seat on the game of the request's :id
// and answers as answer does. The form's hidden field "version" names the
// version of the game its page showed: an action made on another version
// (a double click, a replayed request) is refused with game.ErrStale and
// does nothing, so each acts at most once. A form without the field acts
// on the game as stored; one whose field is not a version is 400.
func (h *Site) act(c echo.Context, action func(ctx context.Context, g *game.Game, seat engine.Side) error) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	version, err := formVersion(c.FormValue("version"))
	if err != nil {
		return err
	}
	if err := g.CheckVersion(version); err != nil {
		return h.answer(c, g, seat, err)
	}
	return h.answer(c, g, seat, action(c.Request().Context(), g, seat))
}

// formVersion reads the version field of a game's form: 0 when empty,
// errBadRequest when it is not a positive number.
func formVersion(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		return 0, core.ErrBadRequest
	}
	return v, nil
}

// nextRoundForm starts the next Nam-nam round for the player: the summary
// of the round before is no longer shown to them, and their board is
// playable.
func (h *Site) nextRoundForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	return h.answer(c, g, seat, h.Games.StartRound(c.Request().Context(), g, seat))
}

// rematchForm asks for a rematch; when both agreed, the player goes to the
// new game (htmx: HX-Redirect).
func (h *Site) rematchForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	if err := h.Games.Rematch(c.Request().Context(), g, seat); err != nil || g.RematchID == "" {
		return h.answer(c, g, seat, err)
	}
	return h.toRematch(c, g, seat)
}

// followRematch takes a player of a finished game to its rematch, keeping
// their seat token for the new game.
func (h *Site) followRematch(c echo.Context) error {
	g, seat, err := h.load(c)
	if err != nil {
		return err
	}
	if g.RematchID == "" || seat == engine.Nobody {
		return core.Redirect(c, route.Game(core.LangOf(c), g.ID))
	}
	return h.toRematch(c, g, seat)
}

// toRematch keeps the visitor's seat in the rematch of g (the seat with
// the token of theirs in g) and redirects there.
func (h *Site) toRematch(c echo.Context, g *game.Game, seat engine.Side) error {
	if err := h.KeepSeat(c, g.RematchID, g.Seats[seat].Token); err != nil {
		return err
	}
	to := route.Game(core.LangOf(c), g.RematchID)
	if core.Htmx(c) {
		c.Response().Header().Set("HX-Redirect", to)
		return c.NoContent(http.StatusOK)
	}
	return core.Redirect(c, to)
}

// answer ends a game action on g (as the action left it, for seat): with
// htmx, the game panel (after a refusal, of the game as stored, with the
// localized refusal and its status); without JavaScript, a 303
// redirect back to the game page (Post/Redirect/Get), the refusal kept in
// the session for that page.
func (h *Site) answer(c echo.Context, g *game.Game, seat engine.Side, err error) error {
	var ue *core.UserError
	if err != nil && !errors.As(core.Refusal(err), &ue) {
		return err
	}
	if ue != nil && (ue.Status == http.StatusForbidden || ue.Status == http.StatusNotFound || ue.Status == http.StatusBadRequest) {
		return ue
	}
	if !core.Htmx(c) {
		if ue != nil {
			if err := h.Visit(c).Sess.SetFlash(ue.Key); err != nil {
				return err
			}
		}
		return core.Redirect(c, route.Game(core.LangOf(c), g.ID))
	}
	if ue != nil { // a refusal may leave g half-changed or out of date
		var lerr error
		if g, seat, lerr = h.load(c); lerr != nil {
			return lerr
		}
	}
	v := h.gameView(g, h.viewerOf(c, g, seat))
	v.OOB = true
	c.Response().Header().Set("X-Game-Version", strconv.Itoa(g.Version))
	status, l := http.StatusOK, h.Visit(c).L
	if ue != nil {
		status = ue.Status
		v.Error = l.T(ue.Key)
	}
	return core.Render(c, status, views.GamePanel(l, v))
}
