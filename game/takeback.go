package game

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"oware/engine"
)

// Takebacks: a player takes back their last move, with the opponent's
// moves since. Against the computer it happens at once; between people it
// is a request the opponent accepts or declines. Both end in popTo, which
// deletes the moves and writes the row rebuilt from the moves kept, with
// the version check: a takeback racing a move, or another takeback, wins
// or fails as a whole.

// TakebackAllowed reports whether takebacks may be asked in g: a casual
// game in play (a rated game allows none). The one place that decides it.
func (g *Game) TakebackAllowed() bool { return g.Status == Playing && !g.Rated }

// MayAskTakeback reports whether the player in seat may ask to take back
// a move of g now, as far as the page can tell cheaply: takebacks are
// allowed, no request waits, and seat has probably moved (TakeBack says
// ErrNoTakeback when not).
func (g *Game) MayAskTakeback(seat engine.Side) bool {
	if !g.TakebackAllowed() || seat == engine.Nobody {
		return false
	}
	if _, asked := g.TakebackOffer(); asked {
		return false
	}
	n := len(g.Engine.Moves)
	return n >= 2 || n == 1 && g.start.ToMove == seat
}

// TakebackOffer returns the side whose request to take back its last move
// waits for the opponent's answer.
func (g *Game) TakebackOffer() (engine.Side, bool) {
	side, version, ok := strings.Cut(g.takeback, " ")
	if !ok || version != strconv.Itoa(g.Version) {
		return engine.Nobody, false
	}
	s, err := parseSide(side)
	return s, err == nil && s != engine.Nobody
}

// TakeBack takes back the last move of the player in seat, with the
// opponent's moves since. Against the computer it is done at once (the
// player's move and the computer's reply; a reply stored meanwhile is
// taken back too); between people it asks the opponent (AnswerTakeback).
// Errors: ErrNotStarted, engine.ErrGameOver, ErrNoTakeback (seat has not
// moved), ErrOfferPending (the opponent's request waits), ErrConflict,
// ErrLate (the deadline passed first: the game ended on time).
func (s *Service) TakeBack(ctx context.Context, g *Game, seat engine.Side) error {
	if err := s.inTime(ctx, g, s.Now(), ErrLate); err != nil {
		return err
	}
	if !g.TakebackAllowed() {
		return ErrNoTakeback
	}
	if g.VsComputer() {
		return s.takeBackNow(ctx, g, seat)
	}
	if side, asked := g.TakebackOffer(); asked {
		if side == seat {
			return nil
		}
		return ErrOfferPending
	}
	if g.takebackTo(seat) < 0 {
		return ErrNoTakeback
	}
	return s.setTakeback(ctx, g, fmt.Sprintf("%s %d", seat, g.Version+1))
}

// AnswerTakeback accepts or declines the opponent's request to take back
// their last move. ErrNoOffer when there is none.
func (s *Service) AnswerTakeback(ctx context.Context, g *Game, seat engine.Side, accept bool) error {
	if err := s.inTime(ctx, g, s.Now(), ErrLate); err != nil {
		return err
	}
	side, asked := g.TakebackOffer()
	if !asked || side != seat.Opponent() {
		return ErrNoOffer
	}
	if !accept {
		return s.setTakeback(ctx, g, "")
	}
	keep := g.takebackTo(side)
	if keep < 0 || !g.TakebackAllowed() {
		return ErrNoTakeback
	}
	return s.popTo(ctx, g, keep)
}

// takeBackNow takes back seat's last move and the computer's replies at
// once, again on the game as stored when a reply came in meanwhile. When
// the game read again no longer has that move of seat last (another
// takeback, a double click's twin, took it back first), it is ErrStale:
// one request takes back one move pair.
func (s *Service) takeBackNow(ctx context.Context, g *Game, seat engine.Side) error {
	keep := g.takebackTo(seat)
	if keep < 0 {
		return ErrNoTakeback
	}
	for try := 0; ; try++ {
		err := s.popTo(ctx, g, keep)
		if !errors.Is(err, ErrConflict) || try == 2 {
			return err
		}
		fresh, lerr := s.Load(ctx, g.ID)
		if lerr != nil {
			return lerr
		}
		*g = *fresh
		if err := g.checkPlaying(); err != nil {
			return err
		}
		if g.takebackTo(seat) != keep {
			return ErrStale
		}
	}
}

// setTakeback stores the takeback request offer ("" for none) and
// publishes it.
func (s *Service) setTakeback(ctx context.Context, g *Game, offer string) error {
	g.takeback = offer
	row := g.row()
	return s.wrote(ctx, g, row, s.db.SetTakebackOffer(ctx, row))
}

// takebackTo returns how many moves g keeps when seat takes back its last
// move: those before it. -1 when seat has not moved.
func (g *Game) takebackTo(seat engine.Side) int {
	var movers []engine.Side
	_, err := engine.ReplayMatch(g.Rules, g.start, g.Engine.Moves, g.agreements, func(_ *engine.Game, mv engine.Move, agreement bool) {
		if !agreement {
			movers = append(movers, mv.Mover)
		}
	})
	if err != nil {
		return -1
	}
	for i := len(movers) - 1; i >= 0; i-- {
		if movers[i] == seat {
			return i
		}
	}
	return -1
}

// popTo takes g back to its first keep moves (and the agreements among
// them): the later moves are deleted and the row is rebuilt from those
// kept, in one versioned write, then published.
func (s *Service) popTo(ctx context.Context, g *Game, keep int) error {
	var agreed []int
	list := ""
	for _, n := range g.agreements {
		if n <= keep {
			agreed = append(agreed, n)
			list = addAgreement(list, n)
		}
	}
	g.agreements, g.agreementList = agreed, list
	if err := g.replay(slices.Clone(g.Engine.Moves[:keep])); err != nil {
		return err
	}
	g.settle()
	g.EndOffer, g.takeback = engine.Nobody, ""
	for i := range g.RoundSeen {
		g.RoundSeen[i] = min(g.RoundSeen[i], g.Engine.Round)
	}
	return s.write(ctx, g, s.Now(), nil, keep+1, nil)
}
