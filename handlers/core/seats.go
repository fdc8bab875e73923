package core

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/game"
)

// Who holds which seat is the game service's (game/seats.go): the
// handlers only say who the request is (visitorOf) and keep the visitor
// id in the session cookie.

// VisitorOf returns who the request is for the game service: an API
// request by its bearer token alone; a page by its visitor id and the
// account its session names (checked with the game, game.Service.LoadFor).
func (h *Handlers) VisitorOf(c echo.Context) game.Visitor {
	if notPage(c) {
		return game.Visitor{Token: BearerToken(c)}
	}
	sess := h.Visit(c).Sess
	id, epoch := sess.account()
	return game.Visitor{ID: sess.Visitor(), UserID: id, Epoch: epoch}
}

// GuestSeat returns the token hash of the seat kept for the request's
// visitor in g, "" for none; it asks the database only when a guest holds
// a seat of g.
func (h *Handlers) GuestSeat(c echo.Context, g *game.Head) (string, error) {
	if !g.HasGuests() || h.Visit(c).minted { // a visitor named now holds no older seat
		return "", nil
	}
	return h.Games.SeatHash(c.Request().Context(), h.Visit(c).Sess.Visitor(), g.ID)
}

// KeepSeat keeps the seat of game id whose bearer token hashes to
// tokenHash for the request's visitor, on the server, and, for a
// logged-in player, adds the game to their account.
func (h *Handlers) KeepSeat(c echo.Context, id, tokenHash string) error {
	if tokenHash == "" {
		return nil
	}
	sess := h.Visit(c).Sess
	visitor := sess.Visitor()
	if visitor == "" { // a form sent without a page first: the id is made now
		visitor = sess.newVisitor()
		if err := sess.Save(); err != nil {
			return err
		}
	}
	u, err := h.account(c)
	if err != nil {
		return err
	}
	var userID uint
	if u != nil {
		userID = u.ID
	}
	return h.Games.KeepSeat(c.Request().Context(), visitor, id, tokenHash, userID)
}

// RoomForSeat refuses a new seat (409) while the visitor holds seats in
// game.MaxSeats games being played.
func (h *Handlers) RoomForSeat(c echo.Context) error {
	return h.Games.RoomForSeat(c.Request().Context(), h.Visit(c).Sess.Visitor())
}

// nameVisitor gives a page request's session a visitor id when it has
// none, so that the forms of the page come back with it (GET only: a
// form's answer must not depend on which of two requests wrote the
// cookie last; and not an event stream's, which has no forms: a
// spectator's stream opened without a cookie makes no session, issue 37),
// and moves the seats an older cookie keeps to the server.
func (h *Handlers) nameVisitor(c echo.Context) error {
	sess := h.Visit(c).Sess
	old := sess.takeCookieSeats()
	if sess.Visitor() != "" && len(old) == 0 {
		return nil
	}
	if sess.Visitor() == "" {
		if (c.Request().Method != http.MethodGet || isEventStream(c)) && len(old) == 0 {
			return nil
		}
		sess.newVisitor()
		h.Visit(c).minted = len(old) == 0
	}
	h.Games.KeepCookieSeats(c.Request().Context(), sess.Visitor(), old)
	return sess.Save()
}
