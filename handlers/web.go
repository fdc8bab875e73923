package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/models"
	"oware/views"
)

// newGameForm shows the table settings of a new game.
func (h *handler) newGameForm(c echo.Context) error {
	return render(c, http.StatusOK, views.NewGamePage(h.page(c, "title_new_game", "/games/new"), csrfToken(c), c.QueryParam("rules")))
}

// createGameForm sets up the table, keeps the creator's seat in the
// session and shows the game page (with the invitation link).
func (h *handler) createGameForm(c echo.Context) error {
	rules, fours := c.FormValue("rules"), ""
	if rules == "namnam" { // the form sends the fours setting with every rule set
		fours = c.FormValue("fours")
	}
	if err := h.roomForSeat(c); err != nil {
		return err
	}
	g, token, err := h.createGame(c.Request().Context(), rules, fours, c.FormValue("seat"))
	if err != nil {
		return err
	}
	if err := h.keepSeat(c, g.ID, token); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, gamePath(langOf(c), g.ID))
}

// gamePath is the URL path of a game's page.
func gamePath(lang, id string) string { return "/" + lang + "/games/" + id }

// viewer loads the game of the request's :id and the visitor's seat.
func (h *handler) viewer(c echo.Context) (*models.Game, engine.Side, error) {
	g, err := h.loadGame(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, engine.Nobody, err
	}
	return g, h.browserSeat(c, g, h.seatToken(c, g.ID)), nil
}

// gameView builds one viewer's view of g.
func (h *handler) gameView(c echo.Context, g *models.Game, seat engine.Side) (views.GameView, error) {
	lang := langOf(c)
	r, err := rulesOf(g)
	if err != nil {
		return views.GameView{}, err
	}
	pos, err := r.ParsePosition(g.Position)
	if err != nil {
		return views.GameView{}, err
	}
	v := views.GameView{
		ID: g.ID, Rules: g.Rules, Fours: g.Fours, Status: g.Status, Result: g.Result, Reason: g.Reason,
		Position: pos, Seat: seat, LastPit: -1,
		EndOffer: g.EndOffer, RematchOffer: g.RematchOffer,
		CSRF: csrfToken(c), Base: gamePath(lang, g.ID),
		EventsURL: gamePath(lang, g.ID) + "/events?v=" + strconv.Itoa(g.Version),
	}
	for _, m := range g.Moves {
		v.Moves = append(v.Moves, m.Label)
		v.LastPit = m.Pit
	}
	if seat == engine.South || seat == engine.North {
		v.InviteURL = h.base + "/join/" + g.ID
		v.WatchURL = "/" + lang + "/watch/" + g.SpectatorKey
		if g.Status == "playing" && pos.ToMove == seat {
			v.Playable = r.LegalMoves(pos)
		}
		if g.RematchID != "" {
			v.RematchURL = gamePath(lang, g.ID) + "/rematch"
		}
	}
	if err := h.addMatch(&v, g, seat); err != nil {
		return v, err
	}
	if v.Match != nil && !liveUpdate(c) {
		v.Match.Sown = nil // a page load shows the board still; moves animate as they come
	}
	if err := h.addPlayerNames(c, &v, g); err != nil {
		return v, err
	}
	return v, nil
}

// liveUpdate reports whether the request brings a change to a page already
// shown: an htmx swap or the event stream.
func liveUpdate(c echo.Context) bool {
	return c.Request().Header.Get("HX-Request") != "" || strings.HasSuffix(c.Request().URL.Path, "/events")
}

// gamePage is the game page of a seated player. A visitor without a seat
// goes to the join page while a seat is free, else sees the game as a
// spectator.
func (h *handler) gamePage(c echo.Context) error {
	g, seat, err := h.viewer(c)
	if err != nil {
		return err
	}
	if seat == engine.Nobody && freeSeat(g) != engine.Nobody {
		return c.Redirect(http.StatusSeeOther, gamePath(langOf(c), g.ID)+"/join")
	}
	v, err := h.gameView(c, g, seat)
	if err != nil {
		return err
	}
	p := h.page(c, titleKey(g, "title_game"), "/games/"+g.ID)
	if key := h.takeFlash(c); key != "" {
		v.Error = p.L.T(key)
	}
	return render(c, http.StatusOK, views.GamePage(p, v))
}

// watchPage is the spectator view of the game with the key.
func (h *handler) watchPage(c echo.Context) error {
	g, err := h.gameByKey(c)
	if err != nil {
		return err
	}
	v, err := h.spectatorView(c, g)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.GamePage(h.page(c, titleKey(g, "title_watch"), "/watch/"+g.SpectatorKey), v))
}

// gameByKey loads the game of the request's spectator :key.
func (h *handler) gameByKey(c echo.Context) (*models.Game, error) {
	g, err := h.db.GameBySpectatorKey(c.Request().Context(), c.Param("key"))
	if errors.Is(err, models.ErrNotFound) {
		return nil, errNotFound
	}
	return g, err
}

// spectatorView is the view of a spectator: no seat, no forms; after a
// rematch, a link to watch the new game.
func (h *handler) spectatorView(c echo.Context, g *models.Game) (views.GameView, error) {
	v, err := h.gameView(c, g, engine.Nobody)
	if err != nil {
		return v, err
	}
	lang := langOf(c)
	v.EventsURL = "/" + lang + "/watch/" + g.SpectatorKey + "/events?v=" + strconv.Itoa(g.Version)
	if g.RematchID != "" {
		if ng, err := h.db.LoadGame(c.Request().Context(), g.RematchID); err == nil {
			v.RematchURL = "/" + lang + "/watch/" + ng.SpectatorKey
		}
	}
	return v, nil
}

// joinPage is where the invitation link leads: the table settings and the
// free seat to take.
func (h *handler) joinPage(c echo.Context) error {
	g, seat, err := h.viewer(c)
	if err != nil {
		return err
	}
	if seat != engine.Nobody {
		return c.Redirect(http.StatusSeeOther, gamePath(langOf(c), g.ID))
	}
	v := views.JoinView{Rules: g.Rules, Fours: g.Fours, Base: gamePath(langOf(c), g.ID), CSRF: csrfToken(c)}
	switch s := freeSeat(g); {
	case s != engine.Nobody:
		v.Seat = s.String()
	case g.Status == "over":
		v.Replay = v.Base + "/replay"
	default:
		v.Watch = "/" + langOf(c) + "/watch/" + g.SpectatorKey
	}
	return render(c, http.StatusOK, views.JoinPage(h.page(c, titleKey(g, "title_join"), "/games/"+g.ID+"/join"), v))
}

// joinForm takes the free seat: the game starts.
func (h *handler) joinForm(c echo.Context) error {
	g, seat, err := h.viewer(c)
	if err != nil {
		return err
	}
	if seat == engine.Nobody {
		if err := h.roomForSeat(c); err != nil {
			return err
		}
		token, _, err := h.join(c.Request().Context(), g)
		if err != nil {
			return err
		}
		if err := h.keepSeat(c, g.ID, token); err != nil {
			return err
		}
	}
	return c.Redirect(http.StatusSeeOther, gamePath(langOf(c), g.ID))
}

// seated loads the game of the request's :id and the visitor's seat; a
// visitor without a seat is refused (403).
func (h *handler) seated(c echo.Context) (*models.Game, engine.Side, error) {
	g, seat, err := h.viewer(c)
	if err == nil && seat == engine.Nobody {
		err = errNoSeat
	}
	return g, seat, err
}

// moveForm plays the posted pit (form field "pit", a label).
func (h *handler) moveForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	return h.answer(c, g, seat, h.playMove(c.Request().Context(), g, seat, c.FormValue("pit")))
}

// answer ends a game action on g (as the action left it, for seat): with
// htmx, the game panel (after a refusal, of the game as stored, with the
// localized refusal and its status); without JavaScript, a 303
// redirect back to the game page (Post/Redirect/Get), the refusal kept in
// the session for that page.
func (h *handler) answer(c echo.Context, g *models.Game, seat engine.Side, err error) error {
	var ue *userError
	if err != nil && !errors.As(err, &ue) {
		return err
	}
	if ue != nil && (ue.status == http.StatusForbidden || ue.status == http.StatusNotFound || ue.status == http.StatusBadRequest) {
		return ue
	}
	if c.Request().Header.Get("HX-Request") == "" {
		if ue != nil {
			if err := h.flash(c, ue.key); err != nil {
				return err
			}
		}
		return c.Redirect(http.StatusSeeOther, gamePath(langOf(c), g.ID))
	}
	if ue != nil { // a refusal may leave g half-changed or out of date
		var lerr error
		if g, seat, lerr = h.viewer(c); lerr != nil {
			return lerr
		}
	}
	v, verr := h.gameView(c, g, seat)
	if verr != nil {
		return verr
	}
	v.OOB = true
	status, l := http.StatusOK, newLocalizer(h.bundle, langOf(c), h.log)
	if ue != nil {
		status = ue.status
		v.Error = l.T(ue.key)
	}
	return render(c, status, views.GamePanel(l, v))
}

// resignPage asks the player to confirm the resignation.
func (h *handler) resignPage(c echo.Context) error {
	g, _, err := h.seated(c)
	if err != nil {
		return err
	}
	base := gamePath(langOf(c), g.ID)
	if g.Status != "playing" {
		return c.Redirect(http.StatusSeeOther, base)
	}
	return render(c, http.StatusOK, views.ResignPage(h.page(c, "title_resign", "/games/"+g.ID+"/resign"), base, csrfToken(c)))
}

// resignForm resigns the game: the player loses.
func (h *handler) resignForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	return h.answer(c, g, seat, h.resign(c.Request().Context(), g, seat))
}

// endForm returns the handler that proposes ending the game by agreement
// ("offer") or answers the opponent's proposal ("accept", "decline").
func (h *handler) endForm(action string) echo.HandlerFunc {
	return func(c echo.Context) error {
		g, seat, err := h.seated(c)
		if err != nil {
			return err
		}
		ctx := c.Request().Context()
		if action == "offer" {
			err = h.offerEnd(ctx, g, seat)
		} else {
			err = h.answerEnd(ctx, g, seat, action == "accept")
		}
		return h.answer(c, g, seat, err)
	}
}

// rematchForm asks for a rematch; when both agreed, the player goes to the
// new game (htmx: HX-Redirect).
func (h *handler) rematchForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	if err := h.rematch(c.Request().Context(), g, seat); err != nil || g.RematchID == "" {
		return h.answer(c, g, seat, err)
	}
	return h.toRematch(c, g)
}

// followRematch takes a player of a finished game to its rematch, keeping
// their seat token for the new game.
func (h *handler) followRematch(c echo.Context) error {
	g, seat, err := h.viewer(c)
	if err != nil {
		return err
	}
	if g.RematchID == "" || seat == engine.Nobody {
		return c.Redirect(http.StatusSeeOther, gamePath(langOf(c), g.ID))
	}
	return h.toRematch(c, g)
}

// toRematch keeps the visitor's token for the rematch of g and redirects
// there.
func (h *handler) toRematch(c echo.Context, g *models.Game) error {
	if err := h.keepSeat(c, g.RematchID, h.seatToken(c, g.ID)); err != nil {
		return err
	}
	to := gamePath(langOf(c), g.RematchID)
	if c.Request().Header.Get("HX-Request") != "" {
		c.Response().Header().Set("HX-Redirect", to)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, to)
}
