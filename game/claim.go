package game

import (
	"context"
	"time"

	"oware/engine"
)

// Abandonment: the opponent of a player who left may claim the game. A
// player is present while a page of the game is open (its event stream
// and its poll refresh the presence row, models.DB.SeePlayer) or their
// program acts through the API.

// The grace periods of abandonment.
const (
	// AwayGrace: in a real-time game, the player to move may be claimed
	// against once neither their page nor a move of theirs has been seen
	// for this long.
	AwayGrace = 30 * time.Second
	// IdleLimit: in a game without a clock, once the player to move has
	// not moved for this long.
	IdleLimit = 3 * 24 * time.Hour
	// Connected is how recently a player must have been seen to count as
	// connected (their page refreshes its presence every 10 s).
	Connected = 25 * time.Second
)

// Seen records that the player in seat has game id open now.
func (s *Service) Seen(ctx context.Context, id string, seat engine.Side) error {
	if seat == engine.Nobody {
		return nil
	}
	return s.db.SeePlayer(ctx, id, seat.String(), s.Now())
}

// Presence returns when each side of game id was last seen, by
// engine.Side (the zero time for never).
func (s *Service) Presence(ctx context.Context, id string) ([2]time.Time, error) {
	var out [2]time.Time
	seen, err := s.db.LastSeen(ctx, id)
	if err != nil {
		return out, err
	}
	out[engine.South], out[engine.North] = seen["south"], seen["north"]
	return out, nil
}

// Claimable reports whether, at now, the opponent of the player to move
// may claim g, given when each side was last seen: in a real-time game
// past its first moves, the player to move has been away (no page, no
// move) for longer than AwayGrace; in a game without a clock, they have
// not moved for longer than IdleLimit. A correspondence clock ends such a
// game by itself; the first moves of a real-time game abort it. The
// computer never leaves: its side is never claimable.
func (g *Game) Claimable(seen [2]time.Time, now time.Time) bool {
	if g.Status != Playing || g.Clock.TurnSince.IsZero() || g.Seats[g.Position.ToMove].Computer != 0 {
		return false
	}
	since := now.Sub(g.Clock.TurnSince)
	switch c := g.Clock; {
	case c.Days > 0:
		return false
	case c.Initial > 0:
		last := seen[g.Position.ToMove]
		return !g.firstMoves() && since > AwayGrace && now.Sub(last) > AwayGrace
	}
	return since > IdleLimit
}

// Claim ends g on the claim of seat, whose opponent is to move and has
// left (Claimable): seat wins, or with draw the game is drawn; the reason
// is "abandoned". ErrCannotClaim when seat is to move or the opponent has
// not left for long enough; ErrLate when the deadline of the player to
// move passed first (the game ended on time).
func (s *Service) Claim(ctx context.Context, g *Game, seat engine.Side, draw bool) error {
	if err := s.inTime(ctx, g, s.Now(), ErrLate); err != nil {
		return err
	}
	if seat == g.Position.ToMove {
		return ErrCannotClaim
	}
	seen, err := s.Presence(ctx, g.ID)
	if err != nil {
		return err
	}
	if !g.Claimable(seen, s.Now()) {
		return ErrCannotClaim
	}
	result := winner(seat)
	if draw {
		result = engine.Draw
	}
	g.finish(result, ReasonAbandoned)
	return s.store(ctx, g, nil)
}
