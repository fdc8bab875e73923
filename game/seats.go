package game

import (
	"context"
	"crypto/subtle"
	"errors"

	"oware/engine"
	"oware/models"
)

// Seats are held three ways: a guest's browser holds the seats the server
// keeps for its visitor id (the hash of each seat's bearer token, in
// models.VisitorSeat), an API client sends the seat's bearer token, and a
// registered player holds the seats of their account's games in any
// browser. Visitor names who asks; Head.seatFor is the one place that
// decides which seat they hold, from what LoadFor read with the game in
// one query.

// MaxSeats is how many games being played a browser may hold seats in at
// once; games waiting for an opponent and finished games do not count
// (RoomForSeat).
const MaxSeats = 24

// Visitor is who asks for a game: a browser (its visitor id and the
// account its session names) or an API client (its bearer token).
type Visitor struct {
	// ID is the browser's visitor id (the session cookie's, NewToken's
	// form), "" for none.
	ID string
	// UserID and Epoch are the account the browser's session names and
	// the session epoch it was made in (models.User.Epoch); 0 for none.
	// The account holds its seats only while the epoch is the account's
	// and the account exists, checked in the same query as the game.
	UserID uint
	Epoch  int
	// Token is an API client's bearer token, "" for a browser: an API
	// request holds a seat by its token alone.
	Token string
	// Account is the account an API client acts for by its account
	// token (accounts.Service.ByToken, checked by the caller), 0 for
	// none: it holds the seats of that account's games, as a bot does
	// through the Bot API (issue 35).
	Account uint
}

// LoadFor returns the game with the given id and the seat v holds in it
// (engine.Nobody for none), read in one query with the game (Load's
// errors). A browser holds no seat of a bot's (issue 35: a bot plays
// through the Bot API only); LoadSeated refuses it with ErrBotWeb. A storage failure is an error, never "no seat".
func (s *Service) LoadFor(ctx context.Context, id string, v Visitor) (*Game, engine.Side, error) {
	return s.loadFor(ctx, id, v, false)
}

// LoadSeated is LoadFor for an action of a seated player: ErrNoSeat when v
// holds no seat in the game, found before any work on the game (its
// engine is not rebuilt, nothing is scheduled).
func (s *Service) LoadSeated(ctx context.Context, id string, v Visitor) (*Game, engine.Side, error) {
	return s.loadFor(ctx, id, v, true)
}

// loadFor reads the game's row with what decides v's seat (one query;
// without the settings this instance keeps for the game), after an
// outage once the clocks moved on (caughtUp), and builds the game;
// seated: ErrNoSeat without a seat, before building.
func (s *Service) loadFor(ctx context.Context, id string, v Visitor, seated bool) (*Game, engine.Side, error) {
	if err := s.caughtUp(ctx); err != nil {
		return nil, engine.Nobody, s.asked(id, err)
	}
	visitor := v.ID
	if v.Token != "" || v.Account != 0 {
		visitor = "" // an API request holds no guest seat
	}
	kept := s.settings.get(id)
	row, gv, err := s.db.FindGameFor(ctx, id, visitor, kept)
	if errors.Is(err, models.ErrNotFound) {
		return nil, engine.Nobody, ErrNotFound
	}
	if err != nil {
		return nil, engine.Nobody, s.asked(id, err)
	}
	if kept == nil {
		s.settings.keep(row)
	}
	h := headOf(row)
	seat := h.seatFor(v, gv)
	if h.botInBrowser(seat, v) {
		// A bot's seat in a browser: it watches, and its actions are
		// refused (the bot flag came with the row: no query more).
		if seated {
			return nil, engine.Nobody, ErrBotWeb
		}
		seat = engine.Nobody
	}
	if seated && seat == engine.Nobody {
		return nil, seat, ErrNoSeat
	}
	g, err := s.build(ctx, row, nil)
	if err == nil {
		hash := ""
		if visitor != "" {
			hash = models.HashToken(visitor)
		}
		s.keep(g, &gv, hash)
	}
	return g, seat, err
}

// seatFor returns the seat v holds in g, gv being what was read with g:
// an API client's by its seat token alone, or by its account token the
// seat of its account (which still exists); a browser's by the seat kept for its
// visitor id or through its account, while the session's epoch is the
// account's and the account exists (SeatOf).
func (g *Head) seatFor(v Visitor, gv models.GameVisitor) engine.Side {
	if v.Token != "" {
		return g.SeatByToken(v.Token)
	}
	if v.Account != 0 {
		for side, seat := range g.Seats {
			if seat.UserID != nil && *seat.UserID == v.Account && !seat.Deleted {
				return engine.Side(side)
			}
		}
		return engine.Nobody
	}
	var account uint
	for side, epoch := range [2]int{gv.SouthEpoch, gv.NorthEpoch} {
		seat := g.Seats[side]
		if v.UserID != 0 && seat.UserID != nil && *seat.UserID == v.UserID && epoch == v.Epoch && !seat.Deleted {
			account = v.UserID
		}
	}
	return g.SeatOf(gv.SeatHash, account)
}

// botInBrowser reports whether seat is a bot's and v a browser: a bot
// plays through the Bot API only (issue 35), so its browser holds no seat.
func (g *Head) botInBrowser(seat engine.Side, v Visitor) bool {
	return seat != engine.Nobody && g.Seats[seat].Bot && v.Token == "" && v.Account == 0
}

// VisitorSeat is a seat a browser's visitor id holds (the game's id and
// the hash of the seat's token).
type VisitorSeat = models.VisitorSeat

// SeatHash returns the token hash of the seat kept for visitor in game
// gameID, "" for none (a light query, for the pages that ask before
// loading the game).
func (s *Service) SeatHash(ctx context.Context, visitor, gameID string) (string, error) {
	if visitor == "" {
		return "", nil
	}
	return s.db.VisitorSeatHash(ctx, visitor, gameID)
}

// KeepSeat keeps the seat of game gameID whose bearer token hashes to
// tokenHash for the browser's visitor id (on the server: the cookie only
// names the visitor, so two requests of one browser at once cannot lose a
// seat), and adds the game to the account userID (0 for none; the caller
// checked the session).
func (s *Service) KeepSeat(ctx context.Context, visitor, gameID, tokenHash string, userID uint) error {
	if err := s.db.KeepVisitorSeat(ctx, visitor, gameID, tokenHash); err != nil {
		return err
	}
	if userID != 0 {
		s.ClaimSeats(ctx, map[string]string{gameID: tokenHash}, userID)
	}
	return nil
}

// RoomForSeat returns ErrTooManyGames while visitor holds seats in
// MaxSeats games being played.
func (s *Service) RoomForSeat(ctx context.Context, visitor string) error {
	if visitor == "" {
		return nil
	}
	n, err := s.db.VisitorGamesPlaying(ctx, visitor)
	if err != nil {
		return err
	}
	if n >= MaxSeats {
		return ErrTooManyGames
	}
	return nil
}

// VisitorSeats returns the seats kept for visitor, oldest first.
func (s *Service) VisitorSeats(ctx context.Context, visitor string) ([]VisitorSeat, error) {
	if visitor == "" {
		return nil, nil
	}
	return s.db.VisitorSeats(ctx, visitor)
}

// OpenSeats returns the seats kept for visitor in games not over.
func (s *Service) OpenSeats(ctx context.Context, visitor string) ([]VisitorSeat, error) {
	if visitor == "" {
		return nil, nil
	}
	return s.db.VisitorOpenSeats(ctx, visitor)
}

// ClaimVisitorSeats adds the games visitor holds seats in to the account
// userID (at login or registration in that browser).
func (s *Service) ClaimVisitorSeats(ctx context.Context, visitor string, userID uint) error {
	seats, err := s.VisitorSeats(ctx, visitor)
	if err != nil {
		return err
	}
	hashes := make(map[string]string, len(seats))
	for _, seat := range seats {
		hashes[seat.GameID] = seat.TokenHash
	}
	s.ClaimSeats(ctx, hashes, userID)
	return nil
}

// KeepCookieSeats moves the seats an older cookie kept (bearer tokens by
// game id, before issue 14) to the server for visitor. A seat that cannot
// be kept is logged and skipped: the page goes on.
func (s *Service) KeepCookieSeats(ctx context.Context, visitor string, tokens map[string]string) {
	for id, token := range tokens {
		if id == "" || token == "" {
			continue
		}
		if err := s.db.KeepVisitorSeat(ctx, visitor, id, models.HashToken(token)); err != nil {
			s.log.ErrorContext(ctx, "seat of an older cookie not kept", "game", id, "err", err)
		}
	}
}

// HashToken returns the hash of a seat's bearer token as a game keeps it
// (Seat.Token, VisitorSeat.TokenHash).
func HashToken(token string) string { return models.HashToken(token) }

// NewToken returns a new random token (256 bits, URL-safe): a seat's bearer
// token, a visitor id.
func NewToken() string { return models.NewToken() }

// ValidID reports whether id has the shape of a game's id.
func ValidID(id string) bool { return models.ValidKey(id, 12) }

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
