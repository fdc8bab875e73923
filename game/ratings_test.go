package game_test

import (
	"context"
	"math"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/game/glicko"
	"oware/models"
)

// farmGame plays one rated game of the farming script between ann
// (South, the winner) and bob: ann's challenge with tc, bob accepts,
// plies moves are played and bob resigns. It returns the game as stored.
func farmGame(t *testing.T, ctx context.Context, s *game.Service, ann, bob game.Player, tc game.TimeControl, plies int) *game.Game {
	t.Helper()
	set := game.ChallengeSettings{Settings: game.Settings{Seat: "south", Clock: tc, Rated: true}}
	ch, _, err := s.CreateChallenge(ctx, set, ann)
	if err != nil {
		t.Fatal(err)
	}
	g, _, _, err := s.Accept(ctx, ch.ID, bob)
	if err != nil {
		t.Fatal(err)
	}
	// South C, North f, South D, North e: legal from the start (every pit
	// sown has seeds; nobody's row is empty).
	for i, label := range []string{"C", "f", "D", "e"}[:plies] {
		side := engine.South
		if i%2 == 1 {
			side = engine.North
		}
		if err := s.Move(ctx, g, side, label); err != nil {
			t.Fatalf("ply %d %s: %v", i+1, label, err)
		}
	}
	if err := s.Resign(ctx, g, engine.North); err != nil {
		t.Fatal(err)
	}
	return mustLoad(t, s, g.ID)
}

// ratingOf returns account p's rating in category ("" for none) and how
// many rated games it counts.
func ratingOf(t *testing.T, db *models.DB, p game.Player, category string) (float64, int) {
	t.Helper()
	rs, err := db.UserRatings(t.Context(), p.UserID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Category == category {
			return r.Rating, r.Games
		}
	}
	return 1500, 0
}

// TestFarming: the farming script of issue 19 (two accounts, 50 rated
// games resigned after 2 plies: the winner went 1510 -> 1880). A real-time
// rated game counts once each player has moved twice, so all 50 are
// aborted and nobody's rating moves; resigned after 4 plies, only
// PairGames (3) of the 50 are rated, the others are played casual and say
// why; a resignation at ply 0 is aborted too.
func TestFarming(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		ann, bob := account(t, db, "ann"), account(t, db, "bob")
		blitz := game.TimeControl{Initial: 60}
		for range 50 {
			g := farmGame(t, ctx, s, ann, bob, blitz, 2)
			if g.Status != game.Over || g.Reason != game.ReasonAborted || g.Result != engine.NoResult || !g.Rated {
				t.Fatalf("a rated game resigned at ply 2: %s %s %v rated %v; want aborted", g.Status, g.Reason, g.Result, g.Rated)
			}
		}
		if r, n := ratingOf(t, db, ann, "abapa-realtime"); r != 1500 || n != 0 {
			t.Fatalf("after 50 games resigned at ply 2: ann %.2f in %d games, want 1500 in 0", r, n)
		}
		if g := farmGame(t, ctx, s, ann, bob, blitz, 0); g.Reason != game.ReasonAborted || g.Result != engine.NoResult {
			t.Errorf("a rated game resigned at ply 0: %s %v, want aborted", g.Reason, g.Result)
		}

		// Resigned after 4 plies: 3 rated, the other 47 casual.
		want := glicko.New()
		loser := glicko.New()
		for i := range 50 {
			g := farmGame(t, ctx, s, ann, bob, blitz, 4)
			switch {
			case i < game.PairGames:
				if !g.Rated || g.Result != engine.SouthWins || g.Reason != engine.ReasonResignation {
					t.Fatalf("game %d: rated %v, %v %s; want a rated win by resignation", i+1, g.Rated, g.Result, g.Reason)
				}
				w := glicko.Update(want, []glicko.Result{{Opponent: loser, Score: 1}}, glicko.Tau)
				loser = glicko.Update(loser, []glicko.Result{{Opponent: want, Score: 0}}, glicko.Tau)
				want = w
			case g.Rated || g.Unrated != game.UnratedPair || g.Ratings != [2]string{}:
				t.Fatalf("game %d: rated %v, unrated %q, ratings %q; want casual for the per-pair limit", i+1, g.Rated, g.Unrated, g.Ratings)
			}
		}
		r, n := ratingOf(t, db, ann, "abapa-realtime")
		if n != game.PairGames || math.Abs(r-want.Rating) > 0.01 {
			t.Fatalf("after 50 games resigned at ply 4: ann %.2f in %d games, want %.2f in %d", r, n, want.Rating, game.PairGames)
		}
		t.Logf("farming, 50 games resigned at ply 4: ann 1500 -> %.0f (%d rated)", r, n)
		// A correspondence game counts after one move each; the limit
		// holds across rule sets and speeds.
		if g := farmGame(t, ctx, s, ann, bob, game.TimeControl{Days: 1}, 2); g.Rated || g.Unrated != game.UnratedPair {
			t.Errorf("a correspondence game past the limit: rated %v, unrated %q", g.Rated, g.Unrated)
		}
		// A day later the pair plays rated again.
		if err := db.Gorm.Exec("UPDATE games SET created_at = ?", time.Now().Add(-game.PairWindow-time.Minute).UTC()).Error; err != nil {
			t.Fatal(err)
		}
		if g := farmGame(t, ctx, s, ann, bob, game.TimeControl{Days: 1}, 2); !g.Rated || g.Result != engine.SouthWins {
			t.Errorf("a day later, a correspondence game resigned after a move each: rated %v, %v; want rated", g.Rated, g.Result)
		}
		if _, n := ratingOf(t, db, ann, "abapa-correspondence"); n != 1 {
			t.Errorf("correspondence games rated: %d, want 1", n)
		}
	})
}

// TestLobbyShowsPairLimit: a rated challenge whose creator the viewer has
// played PairGames rated games against says it is casual for them.
func TestLobbyShowsPairLimit(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		ann, bob, cid := account(t, db, "ann"), account(t, db, "bob"), account(t, db, "cid")
		for range game.PairGames {
			farmGame(t, ctx, s, ann, bob, game.TimeControl{Initial: 60}, 4)
		}
		set := game.ChallengeSettings{Settings: game.Settings{Clock: game.TimeControl{Initial: 60}, Rated: true}}
		if _, _, err := s.CreateChallenge(ctx, set, ann); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			who    game.Player
			casual bool
		}{{bob, true}, {cid, false}} {
			list, err := s.Challenges(ctx, c.who)
			if err != nil || len(list) != 1 || list[0].CasualForViewer != c.casual || !list[0].Rated {
				t.Errorf("the lobby of %d: %v %+v; want casual for them %v", c.who.UserID, err, list, c.casual)
			}
		}
	})
}
