package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/game"
)

// Who holds which seat is the game service's (game/seats.go): the
// handlers only say who the request is (visitorOf) and keep the visitor
// id in the session cookie.

// visitorOf returns who the request is for the game service: an API
// request by its bearer token alone; a page by its visitor id and the
// account its session names (checked with the game, game.Service.LoadFor).
func (h *handler) visitorOf(c echo.Context) game.Visitor {
	if notPage(c) {
		return game.Visitor{Token: bearerToken(c)}
	}
	sess := h.visit(c).sess
	id, epoch := sess.account()
	return game.Visitor{ID: sess.visitor(), UserID: id, Epoch: epoch}
}

// guestSeat returns the token hash of the seat kept for the request's
// visitor in g, "" for none; it asks the database only when a guest holds
// a seat of g.
func (h *handler) guestSeat(c echo.Context, g *game.Head) (string, error) {
	if !g.HasGuests() || h.visit(c).minted { // a visitor named now holds no older seat
		return "", nil
	}
	return h.games.SeatHash(c.Request().Context(), h.visit(c).sess.visitor(), g.ID)
}

// keepSeat keeps the seat of game id whose bearer token hashes to
// tokenHash for the request's visitor, on the server, and, for a
// logged-in player, adds the game to their account.
func (h *handler) keepSeat(c echo.Context, id, tokenHash string) error {
	if tokenHash == "" {
		return nil
	}
	sess := h.visit(c).sess
	visitor := sess.visitor()
	if visitor == "" { // a form sent without a page first: the id is made now
		visitor = sess.newVisitor()
		if err := sess.save(); err != nil {
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
	return h.games.KeepSeat(c.Request().Context(), visitor, id, tokenHash, userID)
}

// roomForSeat refuses a new seat (409) while the visitor holds seats in
// game.MaxSeats games being played.
func (h *handler) roomForSeat(c echo.Context) error {
	return h.games.RoomForSeat(c.Request().Context(), h.visit(c).sess.visitor())
}

// nameVisitor gives a page request's session a visitor id when it has
// none, so that the forms of the page come back with it (GET only: a
// form's answer must not depend on which of two requests wrote the
// cookie last), and moves the seats an older cookie keeps to the server.
func (h *handler) nameVisitor(c echo.Context) error {
	sess := h.visit(c).sess
	old := sess.takeCookieSeats()
	if sess.visitor() != "" && len(old) == 0 {
		return nil
	}
	if sess.visitor() == "" {
		if c.Request().Method != http.MethodGet && len(old) == 0 {
			return nil
		}
		sess.newVisitor()
		h.visit(c).minted = len(old) == 0
	}
	h.games.KeepCookieSeats(c.Request().Context(), sess.visitor(), old)
	return sess.save()
}
