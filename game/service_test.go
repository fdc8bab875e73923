package game_test

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"testing"

	"oware/engine"
	"oware/game"
	"oware/models"
	"oware/models/modelstest"
)

// eachDialect runs f on a fresh database of every dialect.
func eachDialect(t *testing.T, f func(t *testing.T, db *models.DB, s *game.Service)) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			db := modelstest.Open(t, d)
			f(t, db, game.New(db, slog.New(slog.DiscardHandler)))
		})
	}
}

// newGame creates and joins a game of rules (and fours) through the
// service and returns its id.
func newGame(t *testing.T, ctx context.Context, s *game.Service, rules, fours string) string {
	t.Helper()
	g, _, err := s.Create(ctx, game.Settings{Rules: rules, Fours: fours})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Join(ctx, g); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// playRandom plays up to n random steps of game id through the service,
// each on the game loaded again: moves and, when agree, in Nam-nam now and
// then an end of the round by agreement; at the end, when agree, a
// resignation of some games.
func playRandom(t *testing.T, ctx context.Context, s *game.Service, id string, n int, agree bool, rng *rand.Rand) {
	t.Helper()
	for range n {
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != game.Playing {
			return
		}
		to := g.Position.ToMove
		if legal := g.Engine.LegalMoves().Pits(); agree && g.NamNam() && rng.IntN(30) == 0 || len(legal) == 0 {
			if err := s.OfferEnd(ctx, g, to); err != nil {
				t.Fatal(err)
			}
			if err := s.AnswerEnd(ctx, g, to.Opponent(), true); err != nil {
				t.Fatal(err)
			}
			continue
		}
		legal := g.Engine.LegalMoves().Pits()
		if err := s.Move(ctx, g, to, engine.Label(legal[rng.IntN(len(legal))])); err != nil {
			t.Fatal(err)
		}
	}
	if g, err := s.Load(ctx, id); err == nil && agree && g.Status == game.Playing && rng.IntN(2) == 0 {
		if err := s.Resign(ctx, g, g.Position.ToMove); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVerifyStoredGames plays random games of every rule set through the
// service, each step on the game as loaded from its row, then checks that
// every row's cache equals the replay of its moves (game.Verify). A row
// without a cache is rebuilt from its moves and gets its cache back with
// the next change; a wrong cache is reported.
func TestVerifyStoredGames(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		rng := rand.New(rand.NewPCG(1, 2))
		var ids []string
		for i, r := range []struct{ rules, fours string }{{"abapa", ""}, {"wari", ""}, {"warri", ""}, {"namnam", "last"}, {"namnam", "owner"}} {
			ids = append(ids, newGame(t, ctx, s, r.rules, r.fours))
			playRandom(t, ctx, s, ids[i], 150, true, rng)
		}
		rep, err := game.Verify(ctx, db)
		if err != nil || rep.Games != 5 || rep.Uncached != 0 || len(rep.Mismatches) != 0 {
			t.Fatalf("Verify = %+v, %v; want 5 games, all cached and equal", rep, err)
		}

		// A row written before the cache existed.
		before, err := s.Load(ctx, ids[3])
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Gorm.Model(&models.Game{}).Where("id = ?", ids[3]).Updates(map[string]any{"resume": "", "rounds": ""}).Error; err != nil {
			t.Fatal(err)
		}
		after, err := s.Load(ctx, ids[3])
		if err != nil {
			t.Fatal(err)
		}
		if after.Rules.FormatPosition(after.Engine.Position) != before.Rules.FormatPosition(before.Engine.Position) ||
			len(after.Rounds) != len(before.Rounds) || len(after.Engine.Moves) != len(before.Engine.Moves) {
			t.Errorf("without its cache the match loads as %d moves, %d rounds; want %d, %d",
				len(after.Engine.Moves), len(after.Rounds), len(before.Engine.Moves), len(before.Rounds))
		}
		if rep, _ := game.Verify(ctx, db); rep.Uncached != 1 || len(rep.Mismatches) != 0 {
			t.Errorf("Verify without a cache = %+v, want 1 uncached", rep)
		}
		id := newGame(t, ctx, s, "abapa", "")
		if err := db.Gorm.Model(&models.Game{}).Where("id = ?", id).Update("resume", "").Error; err != nil {
			t.Fatal(err)
		}
		playRandom(t, ctx, s, id, 3, false, rng)
		if rep, _ := game.Verify(ctx, db); rep.Games != 6 || rep.Uncached != 1 || len(rep.Mismatches) != 0 {
			t.Errorf("after a move the cache is written again: Verify = %+v, want 6 games, 1 uncached", rep)
		}

		// A cache that lies about the moves: a resume point after the
		// first move, as if the game had started over from its start.
		g, _ := db.LoadGame(ctx, ids[0])
		lie := g.StartPosition + " 1 S 0 @1,0"
		if err := db.Gorm.Model(&models.Game{}).Where("id = ?", ids[0]).Update("resume", lie).Error; err != nil {
			t.Fatal(err)
		}
		if rep, _ := game.Verify(ctx, db); len(rep.Mismatches) != 1 {
			t.Errorf("Verify with a wrong resume point = %+v, want 1 mismatch", rep)
		}
	})
}

// TestMoveRoundTrips: on PostgreSQL a move of a game whose row holds its
// cache costs two round trips, the read of the row and one write (update,
// insert, notify): in a new game as after 300 steps of a Nam-nam match.
func TestMoveRoundTrips(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	s := game.New(db, slog.New(slog.DiscardHandler))
	ctx := t.Context()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		rules string
		steps int
	}{{"abapa", 0}, {"namnam", 300}} {
		id := newGame(t, ctx, s, c.rules, "")
		playRandom(t, ctx, s, id, c.steps, false, rng)
		before := db.PoolAcquires()
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != game.Playing {
			t.Fatalf("%s: the random match ended within %d steps", c.rules, c.steps)
		}
		pit := g.Engine.LegalMoves().Pits()[0]
		if err := s.Move(ctx, g, g.Position.ToMove, engine.Label(pit)); err != nil {
			t.Fatal(err)
		}
		if n := db.PoolAcquires() - before; n != 2 {
			t.Errorf("a move after %d plies took %d round trips, want 2", len(g.Engine.Moves)-1, n)
		}
	}
	// A conflict is refused, and stores nothing.
	id := newGame(t, ctx, s, "abapa", "")
	a, _ := s.Load(ctx, id)
	b, _ := s.Load(ctx, id)
	if err := s.Move(ctx, a, engine.South, "C"); err != nil {
		t.Fatal(err)
	}
	if err := s.Move(ctx, b, engine.South, "D"); !errors.Is(err, game.ErrConflict) {
		t.Errorf("the second move on the same version: %v, want ErrConflict", err)
	}
}
