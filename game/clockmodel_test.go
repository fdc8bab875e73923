package game_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// The clock follows from the game's state in one function (runClock)
// that every action goes through (issue 19, item 2). These tests take
// each action under each kind of clock, the times worked out by hand.

// The three kinds of clock: 60 s without increment, a day a move, none.
var (
	realTime       = game.TimeControl{Initial: 60}
	correspondence = game.TimeControl{Days: 1}
	noClock        = game.TimeControl{}
)

// kinds names the three kinds of clock for the subtests.
var kinds = []struct {
	name string
	tc   game.TimeControl
	step time.Duration // how long a player thinks in the tests: a second, or an hour a move
}{
	{"real time", realTime, time.Second},
	{"correspondence", correspondence, time.Hour},
	{"none", noClock, time.Hour},
}

// load returns game id as stored.
func load(t *testing.T, s *game.Service, id string) *game.Game {
	t.Helper()
	g, err := s.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// wantClock checks game id's stored clock: each side's time left at the
// start of the turn, when the turn began and the deadline (zero: none).
func wantClock(t *testing.T, s *game.Service, id string, left [2]time.Duration, since, deadline time.Time) {
	t.Helper()
	c := load(t, s, id).Clock
	if c.Left != left || !c.TurnSince.Equal(since) || !c.Deadline.Equal(deadline) {
		t.Errorf("clock: left %v since %v deadline %v; want %v since %v deadline %v",
			c.Left, c.TurnSince, c.Deadline, left, since, deadline)
	}
}

// opening starts a game of rules with tc at the clock's time T (returned)
// and plays South's C at T+step, North's d at T+2*step: South is then to
// move, past the first moves.
func opening(t *testing.T, ctx context.Context, s *game.Service, clock *fakeClock, tc game.TimeControl, step time.Duration) (string, time.Time) {
	t.Helper()
	t0 := clock.Now()
	id := timedGame(t, ctx, s, tc)
	for _, m := range []string{"C", "d"} {
		clock.Advance(step)
		if err := move(t, ctx, s, id, m); err != nil {
			t.Fatal(err)
		}
	}
	return id, t0
}

// TestClockJoin: a game starts when the second player joins: each side
// has its allowance, the turn begins then, and the first move has 30 s
// (real time) or the days a move (correspondence).
func TestClockJoin(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		t0 := clock.Now()
		wantClock(t, s, timedGame(t, ctx, s, realTime), [2]time.Duration{time.Minute, time.Minute}, t0, t0.Add(30*time.Second))
		wantClock(t, s, timedGame(t, ctx, s, correspondence), [2]time.Duration{24 * time.Hour, 24 * time.Hour}, t0, t0.Add(24*time.Hour))
		wantClock(t, s, timedGame(t, ctx, s, noClock), [2]time.Duration{}, t0, time.Time{})
	})
}

// TestClockTakeback: South, 52 s left after the move A, asks to take it
// back; North accepts 3 s later. North is charged those 3 s (57 s left);
// South's clock runs from the takeback with South's 52 s, so the flag
// falls 52 s after it and not a moment before (issue 19, item 2: the
// turn start and deadline stayed North's, and South lost on time 9 s
// after a takeback). In correspondence South has the full day again from
// the takeback; without a clock only the turn's start moves.
func TestClockTakeback(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
				ctx := t.Context()
				id, t0 := opening(t, ctx, s, clock, k.tc, k.step)
				clock.Advance(8 * k.step)
				if err := move(t, ctx, s, id, "A"); err != nil { // South: 60 - 8 = 52 s
					t.Fatal(err)
				}
				clock.Advance(k.step)
				if err := s.TakeBack(ctx, load(t, s, id), engine.South); err != nil {
					t.Fatal(err)
				}
				clock.Advance(2 * k.step)
				if err := s.AnswerTakeback(ctx, load(t, s, id), engine.North, true); err != nil {
					t.Fatal(err)
				}
				at := t0.Add(13 * k.step)
				g := load(t, s, id)
				if g.Position.ToMove != engine.South || len(g.Engine.Moves) != 2 {
					t.Fatalf("after the takeback: %v to move after %d moves, want South after 2", g.Position.ToMove, len(g.Engine.Moves))
				}
				switch k.tc {
				case realTime:
					wantClock(t, s, id, [2]time.Duration{52 * time.Second, 57 * time.Second}, at, at.Add(52*time.Second))
					if left, running := g.ClockAt(at.Add(10 * time.Second)); left != [2]time.Duration{42 * time.Second, 57 * time.Second} || running != engine.South {
						t.Errorf("10 s after the takeback: %v, %v running; want 42 s and 57 s, South's", left, running)
					}
					clock.Advance(52*time.Second - time.Millisecond)
					if n, err := s.Sweep(ctx); n != 0 || err != nil {
						t.Fatalf("sweep 1 ms before South's flag: %d, %v; want 0", n, err)
					}
					clock.Advance(time.Millisecond)
					if n, err := s.Sweep(ctx); n != 1 || err != nil {
						t.Fatalf("sweep at South's flag: %d, %v; want 1", n, err)
					}
					if g := load(t, s, id); g.Result != engine.NorthWins || g.Reason != game.ReasonTimeout || g.Clock.Left[engine.South] != 0 {
						t.Errorf("after the flag: %v %q, South %v; want North wins on time, South 0", g.Result, g.Reason, g.Clock.Left[engine.South])
					}
				case correspondence:
					wantClock(t, s, id, [2]time.Duration{24 * time.Hour, 24 * time.Hour}, at, at.Add(24*time.Hour))
				default:
					wantClock(t, s, id, [2]time.Duration{}, at, time.Time{})
				}
			})
		})
	}
}

// TestClockNamNamAgreement: South's first move at T+1, North's at T+2,
// South's third move at T+12 (South 60 - 10 = 50 s); North, to move,
// offers to end the round at T+15 and South accepts at T+20: North is
// charged 8 s (52 s), and the next round's first player (RULES.md 4.6)
// has their own time from the agreement on (issue 19, item 2: the
// deadline stayed the previous turn's). Seeing the new round's start
// changes nothing of the clock.
func TestClockNamNamAgreement(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
				ctx := t.Context()
				t0 := clock.Now()
				g, _, err := s.Create(ctx, game.Settings{Rules: "namnam", Clock: k.tc})
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := s.Join(ctx, g); err != nil {
					t.Fatal(err)
				}
				for _, d := range []time.Duration{1, 1, 10} {
					clock.Advance(d * k.step)
					g := load(t, s, g.ID)
					pits := g.Playable(g.Position.ToMove).Pits()
					if err := s.Move(ctx, g, g.Position.ToMove, engine.Label(pits[0])); err != nil {
						t.Fatal(err)
					}
				}
				if g := load(t, s, g.ID); g.Position.ToMove != engine.North || g.Engine.Round != 1 {
					t.Fatalf("after three moves: round %d, %v to move; want round 1, North", g.Engine.Round, g.Position.ToMove)
				}
				clock.Advance(3 * k.step)
				if err := s.OfferEnd(ctx, load(t, s, g.ID), engine.North); err != nil {
					t.Fatal(err)
				}
				clock.Advance(5 * k.step)
				if err := s.AnswerEnd(ctx, load(t, s, g.ID), engine.South, true); err != nil {
					t.Fatal(err)
				}
				after := load(t, s, g.ID)
				if after.Engine.Round != 2 || after.Status != game.Playing {
					t.Fatalf("after the agreement: round %d, %s; want round 2 in play", after.Engine.Round, after.Status)
				}
				at, next := t0.Add(20*k.step), after.Position.ToMove
				switch k.tc {
				case realTime:
					left := [2]time.Duration{50 * time.Second, 52 * time.Second}
					wantClock(t, s, g.ID, left, at, at.Add(left[next]))
				case correspondence:
					wantClock(t, s, g.ID, [2]time.Duration{24 * time.Hour, 24 * time.Hour}, at, at.Add(24*time.Hour))
				default:
					wantClock(t, s, g.ID, [2]time.Duration{}, at, time.Time{})
				}
				before := load(t, s, g.ID).Clock
				clock.Advance(2 * k.step)
				for _, seat := range []engine.Side{engine.South, engine.North} {
					if err := s.StartRound(ctx, load(t, s, g.ID), seat); err != nil {
						t.Fatal(err)
					}
				}
				if c := load(t, s, g.ID).Clock; c != before {
					t.Errorf("seeing the round's start changed the clock: %+v, was %+v", c, before)
				}
			})
		})
	}
}

// TestClockEnds: South is to move from T+2 (60 s); a resignation at
// T+12 charges South 10 s, a claim by North at T+37 charges 35 s, the
// flag at T+62 leaves 0; every end stops the clock (no deadline). In the
// first moves of real time the clock does not run: an abort at T+30
// leaves both 60 s. In correspondence a resignation after 10 hours leaves
// 14 of the 24; without a clock nothing is counted, and a claim after 3
// days without a move ends the turn then.
func TestClockEnds(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
				ctx := t.Context()
				full := [2]time.Duration{time.Minute, time.Minute}
				if k.tc == correspondence {
					full = [2]time.Duration{24 * time.Hour, 24 * time.Hour}
				} else if k.tc == noClock {
					full = [2]time.Duration{}
				}
				// Resignation.
				id, t0 := opening(t, ctx, s, clock, k.tc, k.step)
				clock.Advance(10 * k.step)
				if err := s.Resign(ctx, load(t, s, id), engine.South); err != nil {
					t.Fatal(err)
				}
				left := full
				if k.tc.On() {
					left[engine.South] -= 10 * k.step
				}
				wantClock(t, s, id, left, t0.Add(12*k.step), time.Time{})

				if k.tc == noClock {
					// Claim: South has not moved for more than 3 days.
					id, t0 = opening(t, ctx, s, clock, k.tc, k.step)
					clock.Advance(game.IdleLimit + time.Hour)
					if err := s.Claim(ctx, load(t, s, id), engine.North, true); err != nil {
						t.Fatal(err)
					}
					wantClock(t, s, id, full, t0.Add(2*k.step+game.IdleLimit+time.Hour), time.Time{})
				}
				if k.tc != realTime {
					return
				}
				// Claim: South away for 35 s.
				id, t0 = opening(t, ctx, s, clock, k.tc, k.step)
				clock.Advance(35 * time.Second)
				if err := s.Claim(ctx, load(t, s, id), engine.North, false); err != nil {
					t.Fatal(err)
				}
				wantClock(t, s, id, [2]time.Duration{25 * time.Second, time.Minute}, t0.Add(37*time.Second), time.Time{})

				// Flag.
				id, t0 = opening(t, ctx, s, clock, k.tc, k.step)
				clock.Advance(time.Minute)
				if n, err := s.Sweep(ctx); n != 1 || err != nil {
					t.Fatalf("sweep at the flag: %d, %v", n, err)
				}
				wantClock(t, s, id, [2]time.Duration{0, time.Minute}, t0.Add(62*time.Second), time.Time{})

				// Abort: no first move in 30 s.
				t0 = clock.Now()
				id = timedGame(t, ctx, s, k.tc)
				clock.Advance(30 * time.Second)
				if n, err := s.Sweep(ctx); n != 1 || err != nil {
					t.Fatalf("sweep after 30 s: %d, %v", n, err)
				}
				if g := load(t, s, id); g.Reason != game.ReasonAborted {
					t.Errorf("no first move: %q, want aborted", g.Reason)
				}
				wantClock(t, s, id, full, t0.Add(30*time.Second), time.Time{})
			})
		})
	}
}

// TestClockMove: after the first moves (T+1, T+2), South moves at T+10:
// in real time South is charged 8 s (52 s left) and North's 60 s run from
// T+10; in correspondence North has the day from T+10; without a clock
// only the turn's start moves.
func TestClockMove(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
				ctx := t.Context()
				id, t0 := opening(t, ctx, s, clock, k.tc, k.step)
				clock.Advance(8 * k.step)
				if err := move(t, ctx, s, id, "A"); err != nil {
					t.Fatal(err)
				}
				at := t0.Add(10 * k.step)
				switch k.tc {
				case realTime:
					wantClock(t, s, id, [2]time.Duration{52 * time.Second, time.Minute}, at, at.Add(time.Minute))
				case correspondence:
					wantClock(t, s, id, [2]time.Duration{24 * time.Hour, 24 * time.Hour}, at, at.Add(24*time.Hour))
				default:
					wantClock(t, s, id, [2]time.Duration{}, at, time.Time{})
				}
			})
		})
	}
}

// TestClockRematch: a rematch starts its clock when both asked for it,
// with each side's allowance and the first move's limit (30 s in real
// time, the day in correspondence).
func TestClockRematch(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
				ctx := t.Context()
				id, _ := opening(t, ctx, s, clock, k.tc, k.step)
				clock.Advance(5 * k.step)
				if err := s.Resign(ctx, load(t, s, id), engine.South); err != nil {
					t.Fatal(err)
				}
				clock.Advance(5 * k.step)
				if err := s.Rematch(ctx, load(t, s, id), engine.South); err != nil {
					t.Fatal(err)
				}
				clock.Advance(5 * k.step)
				if err := s.Rematch(ctx, load(t, s, id), engine.North); err != nil {
					t.Fatal(err)
				}
				at := clock.Now()
				next := load(t, s, id).RematchID
				switch k.tc {
				case realTime:
					wantClock(t, s, next, [2]time.Duration{time.Minute, time.Minute}, at, at.Add(30*time.Second))
				case correspondence:
					wantClock(t, s, next, [2]time.Duration{24 * time.Hour, 24 * time.Hour}, at, at.Add(24*time.Hour))
				default:
					wantClock(t, s, next, [2]time.Duration{}, at, time.Time{})
				}
			})
		})
	}
}

// TestLateActions: South's flag falls at T+62. A resignation, a claim, a
// takeback or its answer, or an offer to end that comes 50 ms later is
// refused with ErrLate, and the game ends on time: North wins (issue 19,
// item 8: North resigning just after South's flag gave South the win).
func TestLateActions(t *testing.T) {
	for _, c := range []struct {
		name string
		act  func(ctx context.Context, s *game.Service, g *game.Game) error
	}{
		{"North resigns", func(ctx context.Context, s *game.Service, g *game.Game) error { return s.Resign(ctx, g, engine.North) }},
		{"South resigns", func(ctx context.Context, s *game.Service, g *game.Game) error { return s.Resign(ctx, g, engine.South) }},
		{"North claims", func(ctx context.Context, s *game.Service, g *game.Game) error {
			return s.Claim(ctx, g, engine.North, false)
		}},
		{"North takes back", func(ctx context.Context, s *game.Service, g *game.Game) error {
			return s.TakeBack(ctx, g, engine.North)
		}},
		{"North offers to end", func(ctx context.Context, s *game.Service, g *game.Game) error {
			return s.OfferEnd(ctx, g, engine.North)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
				ctx := t.Context()
				id, _ := opening(t, ctx, s, clock, realTime, time.Second)
				clock.Advance(time.Minute + 50*time.Millisecond)
				if err := c.act(ctx, s, load(t, s, id)); !errors.Is(err, game.ErrLate) {
					t.Fatalf("50 ms after South's flag: %v, want ErrLate", err)
				}
				if g := load(t, s, id); g.Status != game.Over || g.Result != engine.NorthWins || g.Reason != game.ReasonTimeout {
					t.Errorf("game %s %v %q; want North wins on time", g.Status, g.Result, g.Reason)
				}
			})
		})
	}
	// Answering a takeback request after the flag.
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		id, _ := opening(t, ctx, s, clock, realTime, time.Second)
		if err := s.TakeBack(ctx, load(t, s, id), engine.North); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute + 50*time.Millisecond)
		if err := s.AnswerTakeback(ctx, load(t, s, id), engine.South, true); !errors.Is(err, game.ErrLate) {
			t.Fatalf("accepting a takeback 50 ms after the flag: %v, want ErrLate", err)
		}
		if g := load(t, s, id); g.Result != engine.NorthWins || g.Reason != game.ReasonTimeout || len(g.Engine.Moves) != 2 {
			t.Errorf("game %v %q after %d moves; want North wins on time after 2", g.Result, g.Reason, len(g.Engine.Moves))
		}
	})
}

// TestLateResignationRace: North resigns 50 ms after South's flag fell
// while the sweeper ends the game at the same moment, 10 times: whichever
// is stored first, North wins on time; the resignation is refused
// (ErrLate, or ErrConflict when the sweeper's end came first).
func TestLateResignationRace(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		for range 10 {
			id, _ := opening(t, ctx, s, clock, realTime, time.Second)
			clock.Advance(time.Minute + 50*time.Millisecond)
			g := load(t, s, id)
			var wg sync.WaitGroup
			var resignErr error
			wg.Go(func() { resignErr = s.Resign(ctx, g, engine.North) })
			wg.Go(func() { s.Sweep(ctx) })
			wg.Wait()
			if !errors.Is(resignErr, game.ErrLate) && !errors.Is(resignErr, game.ErrConflict) {
				t.Errorf("the late resignation: %v, want ErrLate or ErrConflict", resignErr)
			}
			if g := load(t, s, id); g.Result != engine.NorthWins || g.Reason != game.ReasonTimeout {
				t.Fatalf("game %v %q; want North wins on time", g.Result, g.Reason)
			}
		}
	})
}
