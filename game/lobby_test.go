package game_test

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"sync"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/models"
	"oware/models/modelstest"
)

// visitor returns the lobby identity of the n-th browser without an
// account.
func visitor(n int) game.Player {
	return game.Player{Owner: game.OwnerOf(0, string(rune('a'+n)))}
}

// account registers a player and returns their lobby identity.
func account(t *testing.T, db *models.DB, name string) game.Player {
	t.Helper()
	u := &models.User{Username: name, PasswordHash: "x"}
	if err := db.CreateUser(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	return game.Player{UserID: u.ID, Owner: game.OwnerOf(u.ID, "")}
}

// quickPairs presses the 3+2 quick-pairing button for each player at
// once and returns the games started and the challenges opened.
func quickPairs(t *testing.T, ctx context.Context, s *game.Service, players []game.Player, rated bool) ([]*game.Game, int) {
	t.Helper()
	var mu sync.Mutex
	var games []*game.Game
	opened := 0
	var wg sync.WaitGroup
	for _, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, ch, _, _, err := s.QuickPair(ctx, "abapa", game.TimeControl{Initial: 180, Increment: 2}, rated, p)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Error(err)
			case g != nil:
				games = append(games, g)
			case ch != nil:
				opened++
			}
		}()
	}
	wg.Wait()
	return games, opened
}

// TestQuickPairing: two visitors pressing the same button at once play
// each other; three give one game and one open challenge; a visitor never
// meets their own challenge.
func TestQuickPairing(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		games, opened := quickPairs(t, ctx, s, []game.Player{visitor(0), visitor(1)}, false)
		if len(games) != 1 || opened != 1 {
			t.Fatalf("two visitors: %d games, %d challenges opened; want 1 and 1", len(games), opened)
		}
		g := games[0]
		if g.Status != game.Playing || g.Clock.Initial != 180 || g.Clock.Increment != 2 || g.Rated {
			t.Errorf("the game: %s, clock %+v, rated %v; want playing 3+2 casual", g.Status, g.Clock.TimeControl, g.Rated)
		}
		if open, _ := s.Challenges(ctx, game.Player{}); len(open) != 0 {
			t.Errorf("%d challenges left open, want 0", len(open))
		}
		games, opened = quickPairs(t, ctx, s, []game.Player{visitor(2), visitor(3), visitor(4)}, false)
		open, _ := s.Challenges(ctx, game.Player{})
		if len(games) != 1 || opened != 2 || len(open) != 1 {
			t.Errorf("three visitors: %d games, %d opened, %d open now; want 1, 2, 1", len(games), opened, len(open))
		}
		// The one left waiting presses again: no game with themselves.
		waiting := visitor(2)
		for _, p := range []game.Player{visitor(3), visitor(4)} {
			if open[0].Owner == p.Owner {
				waiting = p
			}
		}
		if g, _, _, _, err := s.QuickPair(ctx, "abapa", game.TimeControl{Initial: 180, Increment: 2}, false, waiting); g != nil || err != nil {
			t.Errorf("the waiting visitor pressed again: game %v, %v; want a second challenge of theirs", g, err)
		}
		// Their creators left: past PageWait the challenges are gone.
		clock.Advance(game.PageWait)
		if open, _ := s.Challenges(ctx, game.Player{}); len(open) != 0 {
			t.Errorf("%d challenges open after their creators left, want 0", len(open))
		}
		if g, ch, _, _, _ := s.QuickPair(ctx, "abapa", game.TimeControl{Initial: 180, Increment: 2}, false, visitor(5)); g != nil || ch == nil {
			t.Errorf("a visitor after they left got game %v, want a challenge of their own", g)
		}
	})
}

// TestChallengeTakenOnce: two players accept the same challenge at once:
// one gets the game, the other ErrChallengeTaken; the creator's token
// holds the creator's seat.
func TestChallengeTakenOnce(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		set := game.ChallengeSettings{Settings: game.Settings{Rules: "wari", Seat: "north", Clock: game.TimeControl{Initial: 600, Increment: 5}}}
		ch, token, err := s.CreateChallenge(ctx, set, visitor(0))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := s.Accept(ctx, ch.ID, visitor(0)); !errors.Is(err, game.ErrOwnChallenge) {
			t.Errorf("the creator accepts: %v, want ErrOwnChallenge", err)
		}
		var mu sync.Mutex
		var got []*game.Game
		var refused int
		var wg sync.WaitGroup
		for i := 1; i <= 2; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				g, _, seat, err := s.Accept(ctx, ch.ID, visitor(i))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case errors.Is(err, game.ErrChallengeTaken):
					refused++
				case err != nil:
					t.Error(err)
				case seat != engine.South:
					t.Errorf("the taker sits %v, want South (the creator chose North)", seat)
				default:
					got = append(got, g)
				}
			}()
		}
		wg.Wait()
		if len(got) != 1 || refused != 1 {
			t.Fatalf("%d games, %d refusals; want 1 and 1", len(got), refused)
		}
		g, err := s.Load(ctx, got[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.SeatByToken(token) != engine.North || g.Rules.Name() != "wari" || g.Clock.Initial != 600 {
			t.Errorf("the game: creator's token sits %v, rules %s, clock %+v", g.SeatByToken(token), g.Rules.Name(), g.Clock.TimeControl)
		}
		if c, _ := s.FindChallenge(ctx, ch.ID); c.Status != "taken" || c.GameID != g.ID {
			t.Errorf("challenge %s, game %q; want taken, %s", c.Status, c.GameID, g.ID)
		}
	})
}

// TestChallengeRules: rated challenges need an account and a clock; a
// challenge for one player is theirs alone; a rating range keeps others
// out.
func TestChallengeRules(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		ann, bob, cid := account(t, db, "ann"), account(t, db, "bob"), account(t, db, "cid")
		rt := game.TimeControl{Initial: 300, Increment: 3}
		rated := func(tc game.TimeControl) game.ChallengeSettings {
			return game.ChallengeSettings{Settings: game.Settings{Clock: tc, Rated: true}}
		}
		if _, _, err := s.CreateChallenge(ctx, rated(rt), visitor(0)); !errors.Is(err, game.ErrRatedNeedsAccount) {
			t.Errorf("a visitor's rated challenge: %v", err)
		}
		if _, _, err := s.CreateChallenge(ctx, rated(game.TimeControl{}), ann); !errors.Is(err, game.ErrRatedNeedsClock) {
			t.Errorf("a rated challenge without a clock: %v", err)
		}
		ch, _, err := s.CreateChallenge(ctx, rated(rt), ann)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := s.Accept(ctx, ch.ID, visitor(1)); !errors.Is(err, game.ErrRatedNeedsAccount) {
			t.Errorf("a visitor accepts a rated challenge: %v", err)
		}
		set := rated(rt)
		set.For = "Bob"
		mine, _, err := s.CreateChallenge(ctx, set, ann)
		if err != nil {
			t.Fatal(err)
		}
		if list, _ := s.Challenges(ctx, cid); len(list) != 1 {
			t.Errorf("cid sees %d challenges, want 1 (not bob's)", len(list))
		}
		if list, _ := s.Challenges(ctx, bob); len(list) != 2 {
			t.Errorf("bob sees %d challenges, want 2", len(list))
		}
		if _, _, _, err := s.Accept(ctx, mine.ID, cid); !errors.Is(err, game.ErrNotForYou) {
			t.Errorf("cid accepts bob's challenge: %v", err)
		}
		set = rated(rt)
		set.MinRating, set.MaxRating = 1600, 2000
		ranged, _, err := s.CreateChallenge(ctx, set, ann)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := s.Accept(ctx, ranged.ID, cid); !errors.Is(err, game.ErrNotForYou) {
			t.Errorf("cid (1500) accepts a 1600-2000 challenge: %v", err)
		}
		g, _, _, err := s.Accept(ctx, mine.ID, bob)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Rated || g.Ratings != [2]string{"1500?", "1500?"} {
			t.Errorf("bob's game: rated %v, ratings %q; want rated, 1500? each", g.Rated, g.Ratings)
		}
	})
}

// TestRatingsOnce: a rated game won by South changes two new players'
// ratings as Glicko-2 says (worked by hand below), once, however often
// its end is applied; an aborted rated game changes nothing.
//
// Both players start at 1500, deviation 350, volatility 0.06: on the
// Glicko-2 scale μ = 0, φ = 350/173.7178 = 2.014761. g(φ) =
// 1/√(1+3φ²/π²) = 0.669071, E = 0.5, v = 1/(g²·E·(1-E)) = 8.935494,
// Δ = v·g·0.5 = 2.989248; σ' stays 0.06 (to 5 decimals); φ* = √(φ²+σ²) =
// 2.015655, φ' = 1/√(1/φ*²+1/v) = 1.671215, μ' = ±φ'²·g·0.5 = ±0.934339:
// the winner 1500 + 173.7178·0.934339 = 1662.31, the loser 1337.69, both
// with deviation 173.7178·1.671215 = 290.32.
func TestRatingsOnce(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		ann, bob := account(t, db, "ann"), account(t, db, "bob")
		set := game.ChallengeSettings{Settings: game.Settings{Seat: "south", Clock: game.TimeControl{Initial: 300}, Rated: true}}
		ch, _, err := s.CreateChallenge(ctx, set, ann)
		if err != nil {
			t.Fatal(err)
		}
		g, _, _, err := s.Accept(ctx, ch.ID, bob)
		if err != nil {
			t.Fatal(err)
		}
		// Two moves each: a real-time game counts from then on (issue 19).
		for i, label := range []string{"C", "f", "D", "e"} {
			if err := s.Move(ctx, g, []engine.Side{engine.South, engine.North}[i%2], label); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Resign(ctx, g, engine.North); err != nil {
			t.Fatal(err)
		}
		check := func(when string) {
			t.Helper()
			for _, c := range []struct {
				p    game.Player
				want float64
			}{{ann, 1662.31}, {bob, 1337.69}} {
				rs, _ := db.UserRatings(ctx, c.p.UserID)
				if len(rs) != 1 || rs[0].Category != "abapa-realtime" || rs[0].Games != 1 ||
					math.Abs(rs[0].Rating-c.want) > 0.01 || math.Abs(rs[0].Deviation-290.32) > 0.01 {
					t.Errorf("%s: ratings of %d: %+v; want abapa-realtime %.2f, deviation 290.32, 1 game", when, c.p.UserID, rs, c.want)
				}
			}
		}
		check("after the game")
		// Applied again: by the sweeper's catch-up, or by another instance.
		if err := s.RateMissed(ctx, clock.Now().Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		again, _ := s.Load(ctx, g.ID)
		if err := s.Rematch(ctx, again, engine.South); err != nil { // a change of the finished game, stored again
			t.Fatal(err)
		}
		check("after applying it again")
		var n int64
		db.Gorm.Model(&models.RatingChange{}).Where("game_id = ?", g.ID).Count(&n)
		if n != 2 {
			t.Errorf("%d rating changes of the game, want 2", n)
		}

		// An aborted rated game: no first move in time.
		ch, _, _ = s.CreateChallenge(ctx, set, ann)
		if _, _, _, err := s.Accept(ctx, ch.ID, bob); err != nil {
			t.Fatal(err)
		}
		clock.Advance(game.FirstMove)
		if n, _ := s.Sweep(ctx); n != 1 {
			t.Fatalf("sweep: %d, want the aborted game", n)
		}
		check("after an aborted game")
	})
}

// TestClaims: in real time, once the player to move has been away for
// AwayGrace, the opponent may claim the win or a draw; not before, and
// not the player to move. In a game without a clock, after IdleLimit
// without a move.
func TestClaims(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		id := timedGame(t, ctx, s, game.TimeControl{Initial: 600})
		for _, m := range []string{"C", "d", "A"} {
			if err := move(t, ctx, s, id, m); err != nil {
				t.Fatal(err)
			}
		}
		claim := func(seat engine.Side, draw bool) error {
			g, _ := s.Load(ctx, id)
			return s.Claim(ctx, g, seat, draw)
		}
		if err := s.Seen(ctx, id, engine.North); err != nil {
			t.Fatal(err)
		}
		clock.Advance(20 * time.Second)
		if err := s.Seen(ctx, id, engine.North); err != nil { // North's page is still open
			t.Fatal(err)
		}
		clock.Advance(game.AwayGrace)
		if err := claim(engine.South, false); !errors.Is(err, game.ErrCannotClaim) {
			t.Errorf("claim when North was seen %v ago: %v, want ErrCannotClaim", game.AwayGrace, err)
		}
		if err := claim(engine.North, false); !errors.Is(err, game.ErrCannotClaim) {
			t.Errorf("North, to move, claims: %v, want ErrCannotClaim", err)
		}
		clock.Advance(time.Millisecond)
		if err := claim(engine.South, false); err != nil {
			t.Fatalf("claim when North left %v ago: %v", game.AwayGrace, err)
		}
		if g, _ := s.Load(ctx, id); g.Result != engine.SouthWins || g.Reason != game.ReasonAbandoned {
			t.Errorf("game %v %q, want South wins, abandoned", g.Result, g.Reason)
		}

		untimed := newGame(t, ctx, s, "abapa", "")
		if err := move(t, ctx, s, untimed, "C"); err != nil {
			t.Fatal(err)
		}
		clock.Advance(game.IdleLimit)
		g, _ := s.Load(ctx, untimed)
		if err := s.Claim(ctx, g, engine.South, true); !errors.Is(err, game.ErrCannotClaim) {
			t.Errorf("claim after exactly %v: %v, want ErrCannotClaim", game.IdleLimit, err)
		}
		clock.Advance(time.Second)
		g, _ = s.Load(ctx, untimed)
		if err := s.Claim(ctx, g, engine.South, true); err != nil {
			t.Fatal(err)
		}
		if g, _ := s.Load(ctx, untimed); g.Result != engine.Draw || g.Reason != game.ReasonAbandoned {
			t.Errorf("untimed game %v %q, want a draw, abandoned", g.Result, g.Reason)
		}
	})
}

// TestRatedGameRefusesTakeback: two accounts meet for a rated game; a
// player who moved may not take the move back (casual games only).
func TestRatedGameRefusesTakeback(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		games, _ := quickPairs(t, ctx, s, []game.Player{account(t, db, "ann"), account(t, db, "ben")}, true)
		if len(games) != 1 || !games[0].Rated {
			t.Fatalf("%d games, want one rated game", len(games))
		}
		id := games[0].ID
		if err := move(t, ctx, s, id, "C"); err != nil {
			t.Fatal(err)
		}
		g := mustLoad(t, s, id)
		if err := s.TakeBack(ctx, g, engine.South); !errors.Is(err, game.ErrNoTakeback) {
			t.Errorf("takeback in a rated game: %v, want ErrNoTakeback", err)
		}
		if g := mustLoad(t, s, id); len(g.Engine.Moves) != 1 {
			t.Errorf("%d moves after the refused takeback, want 1", len(g.Engine.Moves))
		}
	})
}

// TestComputerCannotBeClaimed: the computer never leaves. With no worker
// to answer, the computer stays to move past IdleLimit, and still its
// opponent has nothing to claim.
func TestComputerCannotBeClaimed(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		g, _ := vsComputer(t, s, "abapa", "south", 1)
		if err := move(t, ctx, s, g.ID, "C"); err != nil {
			t.Fatal(err)
		}
		clock.Advance(game.IdleLimit + time.Hour)
		if err := s.Claim(ctx, mustLoad(t, s, g.ID), engine.South, false); !errors.Is(err, game.ErrCannotClaim) {
			t.Errorf("claim against the computer: %v, want ErrCannotClaim", err)
		}
	})
}

// TestChallengeCapAtOnce: one account opens 8 challenges at once, 4
// through each of two instances (two database handles, two services):
// exactly MaxOpenChallenges (3) open, the 5 others are refused with
// ErrTooManyChallenges; a quick-pairing press past the cap opens none
// either.
func TestChallengeCapAtOnce(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		other := game.New(modelstest.Reopen(t, db), slog.New(slog.DiscardHandler))
		ann := account(t, db, "ann")
		var mu sync.Mutex
		opened, refused := 0, 0
		var wg sync.WaitGroup
		for i := range 8 {
			svc := []*game.Service{s, other}[i%2]
			wg.Go(func() {
				_, _, err := svc.CreateChallenge(ctx, game.ChallengeSettings{Settings: game.Settings{Rules: "abapa"}}, ann)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					opened++
				case errors.Is(err, game.ErrTooManyChallenges):
					refused++
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if opened != game.MaxOpenChallenges || refused != 8-game.MaxOpenChallenges {
			t.Errorf("%d opened, %d refused, want %d and %d", opened, refused, game.MaxOpenChallenges, 8-game.MaxOpenChallenges)
		}
		if _, _, _, _, err := s.QuickPair(ctx, "abapa", game.TimeControl{Initial: 180, Increment: 2}, false, ann); !errors.Is(err, game.ErrTooManyChallenges) {
			t.Errorf("quick pairing past the cap: %v, want ErrTooManyChallenges", err)
		}
		mine, err := s.Challenges(ctx, ann)
		if err != nil || len(mine) != game.MaxOpenChallenges {
			t.Errorf("%d challenges open (%v), want %d", len(mine), err, game.MaxOpenChallenges)
		}
	})
}
