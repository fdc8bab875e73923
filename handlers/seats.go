package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// Guest seats live on the server (models.VisitorSeat), keyed by the random
// visitor id of the browser's session cookie: the cookie only names the
// visitor, so two requests of one browser at once, each writing the
// cookie, cannot lose a seat (issue 14).

// maxSeats is how many games being played a browser may hold seats in at
// once; games waiting for an opponent and finished games do not count.
const maxSeats = 24

// seatOf returns the seat the request holds in g, the one place that
// decides it: an API request by its bearer token alone; a page request by
// the seat kept for its visitor id or through its account (game.Head.SeatOf).
func (h *handler) seatOf(c echo.Context, g *game.Head) engine.Side {
	if notPage(c) {
		return g.SeatByToken(bearerToken(c))
	}
	return g.SeatOf(h.guestSeat(c, g), h.visit(c).userID())
}

// guestSeat returns the token hash of the seat kept for the request's
// visitor in g, or "" when there is none (or the database fails, which
// is logged). It asks the database only when a guest holds a seat of g
// and the visitor was not named in this request, and once a request.
func (h *handler) guestSeat(c echo.Context, g *game.Head) string {
	v := h.visit(c)
	visitor := v.sess.visitor()
	if visitor == "" || !g.HasGuests() {
		return ""
	}
	if hash, ok := v.seats[g.ID]; ok {
		return hash
	}
	if v.minted { // a visitor named in this request holds no seat but those it took since
		return ""
	}
	hash, err := h.db.VisitorSeatHash(c.Request().Context(), visitor, g.ID)
	if err != nil {
		h.log.ErrorContext(c.Request().Context(), "guest seat", "game", g.ID, "err", err)
		return ""
	}
	v.rememberSeat(g.ID, hash)
	return hash
}

// rememberSeat notes the token hash of the visitor's seat in game id for
// the rest of the request.
func (v *visit) rememberSeat(id, tokenHash string) {
	if v.seats == nil {
		v.seats = map[string]string{}
	}
	v.seats[id] = tokenHash
}

// keepSeat keeps the seat of game id whose bearer token hashes to
// tokenHash for the request's visitor, on the server, and, for a
// logged-in player, adds the game to their account.
func (h *handler) keepSeat(c echo.Context, id, tokenHash string) error {
	if tokenHash == "" {
		return nil
	}
	ctx := c.Request().Context()
	v := h.visit(c)
	visitor := v.sess.visitor()
	if visitor == "" { // a form sent without a page first: the id is made now
		visitor = v.sess.newVisitor()
		if err := v.sess.save(); err != nil {
			return err
		}
	}
	if err := h.db.KeepVisitorSeat(ctx, visitor, id, tokenHash); err != nil {
		return err
	}
	v.rememberSeat(id, tokenHash)
	if v.user != nil {
		h.games.ClaimSeats(ctx, map[string]string{id: tokenHash}, v.user.ID)
	}
	return nil
}

// roomForSeat refuses a new seat (409) while the visitor holds seats in
// maxSeats games being played.
func (h *handler) roomForSeat(c echo.Context) error {
	visitor := h.visit(c).sess.visitor()
	if visitor == "" {
		return nil
	}
	n, err := h.db.VisitorGamesPlaying(c.Request().Context(), visitor)
	if err != nil {
		return err
	}
	if n >= maxSeats {
		return &userError{http.StatusConflict, "err_too_many_games"}
	}
	return nil
}

// guestSeats returns the seats kept for the request's visitor, oldest
// first.
func (h *handler) guestSeats(c echo.Context) ([]models.VisitorSeat, error) {
	visitor := h.visit(c).sess.visitor()
	if visitor == "" {
		return nil, nil
	}
	return h.db.VisitorSeats(c.Request().Context(), visitor)
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
		h.visit(c).minted = true
	}
	for _, s := range old {
		if s.game == "" || s.token == "" {
			continue
		}
		hash := models.HashToken(s.token)
		err := h.db.KeepVisitorSeat(c.Request().Context(), sess.visitor(), s.game, hash)
		if err != nil { // the page goes on; only that seat is not kept
			h.log.Error("seat of an older cookie not kept", "game", s.game, "err", err)
			continue
		}
		h.visit(c).rememberSeat(s.game, hash)
	}
	return sess.save()
}
