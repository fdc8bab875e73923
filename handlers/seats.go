package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
)

// maxSeats is how many games' seat tokens a session keeps, so the cookie
// stays well under 4 KB; seats of finished and waiting games make room for
// new ones.
const maxSeats = 24

// seatOf returns the seat the visitor of the request holds in g: by the
// token their session keeps, or through their account.
func (h *handler) seatOf(c echo.Context, g *game.Head) engine.Side {
	v := h.visit(c)
	return g.SeatOf(v.sess.seatToken(g.ID), v.userID())
}

// keepSeat stores the seat token of game id in the visitor's session and,
// for a logged-in player, adds the game to their account. When the session
// is full it forgets the seats of finished games, then of games still
// waiting for an opponent, oldest first; the seat of a game being played
// is never forgotten (roomForSeat refuses a new seat instead).
func (h *handler) keepSeat(c echo.Context, id, token string) error {
	v := h.visit(c)
	var others []seat
	for _, e := range v.sess.seats() {
		if e.game != id {
			others = append(others, e)
		}
	}
	v.sess.setSeats(append(h.makeRoom(c, others), seat{id, token}))
	if u := v.user; u != nil {
		h.games.ClaimSeats(c.Request().Context(), map[string]string{id: token}, u.ID)
	}
	return v.sess.save()
}

// roomForSeat refuses a new seat (409) while the session holds maxSeats
// seats of games being played.
func (h *handler) roomForSeat(c echo.Context) error {
	if len(h.makeRoom(c, h.visit(c).sess.seats())) >= maxSeats {
		return &userError{http.StatusConflict, "err_too_many_games"}
	}
	return nil
}

// makeRoom drops seats from a full list until one more fits: first those
// of finished (or missing) games, then those of waiting games, oldest
// first. Seats of games being played stay, so the list may stay full.
func (h *handler) makeRoom(c echo.Context, seats []seat) []seat {
	if len(seats) < maxSeats {
		return seats
	}
	ids := make([]string, len(seats))
	for i, e := range seats {
		ids[i] = e.game
	}
	status, err := h.games.Statuses(c.Request().Context(), ids)
	if err != nil {
		h.log.ErrorContext(c.Request().Context(), "session seats", "err", err)
		return seats[len(seats)-maxSeats+1:]
	}
	for _, drop := range []game.Status{game.Over, game.Waiting} {
		var kept []seat
		for i, e := range seats {
			st, ok := status[e.game]
			if len(seats)-(i-len(kept)) >= maxSeats && (!ok || st == drop) {
				continue // dropped: the list is still full
			}
			kept = append(kept, e)
		}
		seats = kept
	}
	return seats
}
