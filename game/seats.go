package game

import (
	"crypto/subtle"

	"oware/engine"
	"oware/models"
)

// Seats are held three ways: a guest's browser holds the seats the server
// keeps for its visitor id (the hash of each seat's bearer token, in
// models.VisitorSeat), an API client sends the seat's bearer token, and a
// registered player holds the seats of their account's games in any
// browser. handlers.seatOf is the one place that asks which way a request
// holds a seat.

// SeatByToken returns the seat whose bearer token is token (the API's
// Authorization: Bearer), or engine.Nobody.
func (g *Head) SeatByToken(token string) engine.Side {
	if token == "" {
		return engine.Nobody
	}
	return g.SeatByHash(models.HashToken(token))
}

// SeatByHash returns the seat whose bearer token hashes to hash
// (models.HashToken), or engine.Nobody.
func (g *Head) SeatByHash(hash string) engine.Side {
	if hash == "" {
		return engine.Nobody
	}
	for _, s := range []engine.Side{engine.South, engine.North} {
		if t := g.Seats[s].Token; t != "" && subtle.ConstantTimeCompare([]byte(hash), []byte(t)) == 1 {
			return s
		}
	}
	return engine.Nobody
}

// SeatOf returns the seat a browser holds: by the token hash kept for its
// visitor in g ("" for none), or through the logged-in account userID (0
// for a visitor). A seat that belongs to an account is held only through
// that account, so an old copy of a cookie loses it at logout or a
// password change.
func (g *Head) SeatOf(tokenHash string, userID uint) engine.Side {
	seat := g.SeatByHash(tokenHash)
	if seat != engine.Nobody && g.Seats[seat].UserID == nil {
		return seat
	}
	if userID == 0 {
		return engine.Nobody
	}
	for _, s := range []engine.Side{engine.South, engine.North} {
		if id := g.Seats[s].UserID; id != nil && *id == userID {
			return s
		}
	}
	return engine.Nobody
}

// FreeSeat returns the seat nobody holds while g waits for an opponent, or
// engine.Nobody.
func (g *Head) FreeSeat() engine.Side {
	if g.Status != Waiting {
		return engine.Nobody
	}
	for _, s := range []engine.Side{engine.South, engine.North} {
		if g.Seats[s].Token == "" {
			return s
		}
	}
	return engine.Nobody
}

// HasGuests reports whether a seat of g is held by a token without an
// account (a guest's, or an API client's).
func (g *Head) HasGuests() bool {
	for _, s := range g.Seats {
		if s.Token != "" && s.UserID == nil {
			return true
		}
	}
	return false
}

// HasAccounts reports whether an account holds a seat of g.
func (g *Head) HasAccounts() bool {
	return g.Seats[engine.South].UserID != nil || g.Seats[engine.North].UserID != nil
}
