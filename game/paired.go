package game

import (
	"context"
	"fmt"

	"oware/engine"
	"oware/models"
)

// PairedSettings are the settings of a game whose two players were paired
// by someone else (a tournament, package tournament): both seats are
// accounts and the game starts at once.
type PairedSettings struct {
	// ID is the game's id, chosen by the caller (models.NewGameID) so
	// that it can record the pairing first; "" for a new one.
	ID string
	// Rules, Fours and Clock are the table settings (Settings); Rated asks
	// for a rated game (it needs a clock, ErrRatedNeedsClock).
	Rules, Fours string
	Clock        TimeControl
	Rated        bool
	// South and North are the players' accounts (different, not 0).
	South, North uint
	// Tokens are the seats' bearer tokens by engine.Side (models.NewToken,
	// chosen by the caller so that it can record them first); "" for a
	// new one.
	Tokens [2]string
}

// CreatePaired stores a new game between set.South and set.North, started
// (the first moves' clocks run, clock.go), and returns it with the bearer
// tokens of its seats by engine.Side. Its clock starts as a game taken
// from the lobby does (gameOf); a rated one counts like a rated game of
// the lobby (ratings.go), except that a game of a bot and a person is
// casual (bots.go: bots are rated in a pool of their own). Errors:
// ErrBadSettings, ErrBadClock,
// ErrRatedNeedsClock, and a conflict (models.ErrConflict) when the id is
// taken.
func (s *Service) CreatePaired(ctx context.Context, set PairedSettings) (*Game, [2]string, error) {
	var tokens [2]string
	r, err := engine.NewRules(set.Rules, set.Fours)
	if err != nil {
		return nil, tokens, fmt.Errorf("%w: %w", ErrBadSettings, err)
	}
	if err := set.Clock.Check(); err != nil {
		return nil, tokens, err
	}
	switch {
	case set.South == 0 || set.North == 0 || set.South == set.North:
		return nil, tokens, fmt.Errorf("%w: players %d and %d", ErrBadSettings, set.South, set.North)
	case set.Rated && !set.Clock.On():
		return nil, tokens, ErrRatedNeedsClock
	}
	if set.Rated {
		if set.Rated, err = s.sameKind(ctx, set.South, set.North); err != nil {
			return nil, tokens, err
		}
	}
	g := newGame(r)
	g.ID, g.Status, g.Clock.TimeControl, g.Rated = set.ID, Playing, set.Clock, set.Rated
	for side, id := range [2]uint{set.South, set.North} {
		tokens[side] = set.Tokens[side]
		if tokens[side] == "" {
			tokens[side] = models.NewToken()
		}
		g.Seats[side].Token = models.HashToken(tokens[side])
		g.Seats[side].UserID = &id
	}
	g.runClock(s.Now())
	g.stored = g.turnNow()
	if g.Rated {
		s.noteRatings(ctx, g)
	}
	row := g.row()
	if err := s.db.CreateGame(ctx, row); err != nil {
		return nil, tokens, fmt.Errorf("create paired game: %w", err)
	}
	g.ID, g.SpectatorKey, g.Version, g.CreatedAt, g.UpdatedAt = row.ID, row.SpectatorKey, row.Version, row.CreatedAt, row.UpdatedAt
	s.capPair(ctx, g) // the per-pair limit of rated games (ratings.go)
	s.published(ctx, g)
	return g, tokens, nil
}
