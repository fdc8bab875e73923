package game_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// TestTakebackComputer: against the computer a takeback removes the
// person's last move and the computer's reply at once.
func TestTakebackComputer(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, _ *game.Service) {
		s, pool := withComputer(t, db, 1)
		ctx := t.Context()
		g, _ := vsComputer(t, s, "abapa", "south", 1)
		if err := s.TakeBack(ctx, g, engine.South); !errors.Is(err, game.ErrNoTakeback) {
			t.Errorf("takeback before any move: %v, want ErrNoTakeback", err)
		}
		for _, label := range []string{"C", "D"} {
			g = mustLoad(t, s, g.ID)
			if err := s.Move(ctx, g, engine.South, label); err != nil {
				t.Fatal(err)
			}
			pool.Await(ctx, g.ID)
		}
		g = mustLoad(t, s, g.ID)
		if len(g.Engine.Moves) != 4 || g.Position.ToMove != engine.South {
			t.Fatalf("after two replies: %v", g.Labels())
		}
		// Taking back D and the reply to it leaves the game after C and
		// the first reply: the stored moves, the row and the engine agree.
		first := g.Labels()[:2]
		afterReply := movesOf(t, db, g.ID)[1].Position
		version := g.Version
		if err := s.TakeBack(ctx, g, engine.South); err != nil {
			t.Fatal(err)
		}
		g = mustLoad(t, s, g.ID)
		if got := g.Labels(); len(got) != 2 || got[0] != first[0] || got[1] != first[1] ||
			g.Rules.FormatPosition(g.Position) != afterReply || g.Version != version+1 || g.Position.ToMove != engine.South {
			t.Fatalf("after the takeback: moves %v, position %s, version %d; want %v, %s, %d",
				got, g.Rules.FormatPosition(g.Position), g.Version, first, afterReply, version+1)
		}
		if n := len(movesOf(t, db, g.ID)); n != 2 {
			t.Errorf("%d stored moves after the takeback, want 2", n)
		}
		// While the computer thinks, a takeback removes the person's move;
		// the reply then searched is dropped, not stored.
		if err := s.Move(ctx, g, engine.South, "A"); err != nil {
			t.Fatal(err)
		}
		if err := s.TakeBack(ctx, g, engine.South); err != nil {
			t.Fatal(err)
		}
		pool.Await(ctx, g.ID)
		g = mustLoad(t, s, g.ID)
		if len(g.Engine.Moves) != 2 {
			t.Errorf("after a takeback while the computer thought: %v", g.Labels())
		}
		if rep, err := game.Verify(ctx, db); err != nil || len(rep.Mismatches) != 0 {
			t.Fatalf("Verify: %+v %v", rep, err)
		}
	})
}

// TestTakebackRequest: between people a takeback is a request the
// opponent accepts or declines; it lapses with the next move.
func TestTakebackRequest(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		id := newGame(t, ctx, s, "abapa", "")
		play := func(side engine.Side, label string) {
			t.Helper()
			if err := s.Move(ctx, mustLoad(t, s, id), side, label); err != nil {
				t.Fatal(err)
			}
		}
		play(engine.South, "C")
		play(engine.North, "f")
		// South asks to take back C: North's f goes too.
		if err := s.TakeBack(ctx, mustLoad(t, s, id), engine.South); err != nil {
			t.Fatal(err)
		}
		g := mustLoad(t, s, id)
		if side, ok := g.TakebackOffer(); !ok || side != engine.South {
			t.Fatalf("offer = %v %v", side, ok)
		}
		if err := s.TakeBack(ctx, g, engine.North); !errors.Is(err, game.ErrOfferPending) {
			t.Errorf("a request over the opponent's: %v", err)
		}
		if err := s.AnswerTakeback(ctx, g, engine.South, true); !errors.Is(err, game.ErrNoOffer) {
			t.Errorf("accepting one's own request: %v", err)
		}
		if err := s.AnswerTakeback(ctx, g, engine.North, false); err != nil {
			t.Fatal(err)
		}
		g = mustLoad(t, s, id)
		if _, ok := g.TakebackOffer(); ok || len(g.Engine.Moves) != 2 {
			t.Fatalf("after declining: offer %v, moves %v", ok, g.Labels())
		}
		// Asked again, accepted: the start.
		if err := s.TakeBack(ctx, g, engine.South); err != nil {
			t.Fatal(err)
		}
		if err := s.AnswerTakeback(ctx, mustLoad(t, s, id), engine.North, true); err != nil {
			t.Fatal(err)
		}
		g = mustLoad(t, s, id)
		if len(g.Engine.Moves) != 0 || g.Position != g.Rules.Start() || len(movesOf(t, db, id)) != 0 {
			t.Fatalf("accepted: moves %v, position %s", g.Labels(), g.Rules.FormatPosition(g.Position))
		}
		// A request lapses when the opponent moves instead.
		play(engine.South, "B")
		if err := s.TakeBack(ctx, mustLoad(t, s, id), engine.South); err != nil {
			t.Fatal(err)
		}
		play(engine.North, "a")
		if _, ok := mustLoad(t, s, id).TakebackOffer(); ok {
			t.Error("the request outlived the next move")
		}
		// North has not moved... now it has: its request takes back only a.
		if err := s.TakeBack(ctx, mustLoad(t, s, id), engine.North); err != nil {
			t.Fatal(err)
		}
		if err := s.AnswerTakeback(ctx, mustLoad(t, s, id), engine.South, true); err != nil {
			t.Fatal(err)
		}
		if got := mustLoad(t, s, id).MoveLabels(); got != "B" {
			t.Errorf("after North's takeback: %q, want B", got)
		}
	})
}

// TestTakebackRace: an accepted takeback and a move on the same version
// race; one wins and the other changes nothing.
func TestTakebackRace(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		for i := range 10 {
			id := newGame(t, ctx, s, "abapa", "")
			for _, m := range []struct {
				side  engine.Side
				label string
			}{{engine.South, "C"}, {engine.North, "f"}} {
				if err := s.Move(ctx, mustLoad(t, s, id), m.side, m.label); err != nil {
					t.Fatal(err)
				}
			}
			// North asks to take back f; South is to move. South's move
			// and South's acceptance race (two tabs).
			if err := s.TakeBack(ctx, mustLoad(t, s, id), engine.North); err != nil {
				t.Fatal(err)
			}
			a, b := mustLoad(t, s, id), mustLoad(t, s, id)
			var moveErr, backErr error
			var wg sync.WaitGroup
			wg.Go(func() { moveErr = s.Move(ctx, a, engine.South, "A") })
			wg.Go(func() { backErr = s.AnswerTakeback(ctx, b, engine.South, true) })
			wg.Wait()
			if (moveErr == nil) == (backErr == nil) {
				t.Fatalf("round %d: move %v, takeback %v: want exactly one to win", i, moveErr, backErr)
			}
			for _, err := range []error{moveErr, backErr} {
				if err != nil && !errors.Is(err, game.ErrConflict) {
					t.Fatalf("the loser: %v, want ErrConflict", err)
				}
			}
			want := "CfA"
			if backErr == nil {
				want = "C"
			}
			g := mustLoad(t, s, id)
			stored := ""
			for _, m := range movesOf(t, db, id) {
				stored += m.Label
			}
			if g.MoveLabels() != want || stored != want {
				t.Fatalf("round %d: row %q, stored moves %q; want %q", i, g.MoveLabels(), stored, want)
			}
		}
		if rep, err := game.Verify(ctx, db); err != nil || len(rep.Mismatches) != 0 {
			t.Fatalf("Verify: %+v %v", rep, err)
		}
	})
}

// TestHints: three hints a game against levels 1 to 4, none against 5.
func TestHints(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, _ *game.Service) {
		s, pool := withComputer(t, db, 1)
		ctx := t.Context()
		g, _ := vsComputer(t, s, "abapa", "south", 4)
		if n := g.HintsLeft(engine.South); n != 3 {
			t.Fatalf("hints left at the start: %d", n)
		}
		for i := range 3 {
			g = mustLoad(t, s, g.ID)
			h, err := s.Hint(ctx, g, engine.South)
			if err != nil {
				t.Fatal(err)
			}
			pit, err := engine.ParseLabel(h.Label)
			if err != nil || !g.Engine.LegalMoves().Has(pit) || h.Reason == "" {
				t.Fatalf("hint %d: %+v (%v)", i+1, h, err)
			}
			// Asked again on the same position: the same hint, not counted.
			again, err := s.Hint(ctx, mustLoad(t, s, g.ID), engine.South)
			if err != nil || again != h {
				t.Fatalf("the hint again: %+v %v, want %+v", again, err, h)
			}
			if n := mustLoad(t, s, g.ID).HintsLeft(engine.South); n != 2-i {
				t.Fatalf("after hint %d: %d left", i+1, n)
			}
			if err := s.Move(ctx, g, engine.South, h.Label); err != nil {
				t.Fatal(err)
			}
			pool.Await(ctx, g.ID)
		}
		if _, err := s.Hint(ctx, mustLoad(t, s, g.ID), engine.South); !errors.Is(err, game.ErrNoHint) {
			t.Errorf("a fourth hint: %v, want ErrNoHint", err)
		}
		strong, _ := vsComputer(t, s, "abapa", "south", 5)
		if _, err := s.Hint(ctx, strong, engine.South); !errors.Is(err, game.ErrNoHint) || strong.HintsLeft(engine.South) != -1 {
			t.Errorf("a hint against level 5: %v", err)
		}
	})
}

// TestTakebackNamNam: takebacks across the rounds of a Nam-nam match,
// agreements included, leave a game whose row equals the replay of its
// moves.
func TestTakebackNamNam(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		rng := rand.New(rand.NewPCG(5, 6))
		for _, fours := range []string{"last", "owner"} {
			var id string
			for try := 0; try == 0 || mustLoad(t, s, id).Status != game.Playing || mustLoad(t, s, id).Engine.Agreements == nil; try++ {
				if try == 20 {
					t.Fatal("no random match in play with an agreement")
				}
				id = newGame(t, ctx, s, "namnam", fours)
				playRandom(t, ctx, s, id, 200, true, rng)
			}
			done := 0
			for range 6 {
				g := mustLoad(t, s, id)
				if g.Status != game.Playing || len(g.Engine.Moves) == 0 {
					break
				}
				asker := g.Position.ToMove.Opponent()
				before := len(g.Engine.Moves)
				if err := s.TakeBack(ctx, g, asker); errors.Is(err, game.ErrNoTakeback) {
					asker = asker.Opponent()
					err = s.TakeBack(ctx, g, asker)
				} else if err != nil {
					t.Fatal(err)
				}
				if err := s.AnswerTakeback(ctx, mustLoad(t, s, id), asker.Opponent(), true); err != nil {
					t.Fatal(err)
				}
				g = mustLoad(t, s, id)
				if n := len(g.Engine.Moves); n >= before || len(movesOf(t, db, id)) != n {
					t.Fatalf("a takeback from %d moves left %d (%d stored)", before, n, len(movesOf(t, db, id)))
				}
				done++
			}
			if done < 3 {
				t.Errorf("fours=%s: %d takebacks", fours, done)
			}
			if rep, err := game.Verify(ctx, db); err != nil || len(rep.Mismatches) != 0 {
				t.Fatalf("Verify: %+v %v", rep, err)
			}
		}
	})
}

// TestTakebackTwins: ten takebacks against the computer sent at once at
// ply 4, each on the game as it read it, take back one move pair: one
// succeeds, the others find the move they meant gone (ErrStale) or lose
// the versioned write (ErrConflict). Before issue 19 the losers read the
// game again and each took back the pair before (0 plies left).
func TestTakebackTwins(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, _ *game.Service) {
		s, pool := withComputer(t, db, 1)
		ctx := t.Context()
		g, _ := vsComputer(t, s, "abapa", "south", 1)
		for _, label := range []string{"C", "D"} {
			g = mustLoad(t, s, g.ID)
			if err := s.Move(ctx, g, engine.South, label); err != nil {
				t.Fatal(err)
			}
			pool.Await(ctx, g.ID)
		}
		g = mustLoad(t, s, g.ID)
		want, before := g.Labels()[:2], g.Version
		var twins []*game.Game
		for range 10 {
			twins = append(twins, mustLoad(t, s, g.ID))
		}
		errs := make([]error, len(twins))
		var wg sync.WaitGroup
		for i, tw := range twins {
			wg.Go(func() { errs[i] = s.TakeBack(ctx, tw, engine.South) })
		}
		wg.Wait()
		done := 0
		for _, err := range errs {
			switch {
			case err == nil:
				done++
			case !errors.Is(err, game.ErrStale) && !errors.Is(err, game.ErrConflict):
				t.Errorf("a twin takeback: %v", err)
			}
		}
		g = mustLoad(t, s, g.ID)
		if got := g.Labels(); done != 1 || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("%d takebacks done, moves %v; want 1 and %v", done, got, want)
		}
		if n := len(movesOf(t, db, g.ID)); n != 2 {
			t.Errorf("%d stored moves, want 2", n)
		}
		// A takeback on the version before it is stale: nothing is done.
		if err := g.CheckVersion(before); !errors.Is(err, game.ErrStale) {
			t.Errorf("CheckVersion of the version before: %v, want ErrStale", err)
		}
		if err := g.CheckVersion(g.Version); err != nil {
			t.Errorf("CheckVersion of the current version: %v", err)
		}
		if err := g.CheckVersion(0); err != nil {
			t.Errorf("CheckVersion without a version: %v", err)
		}
	})
}
