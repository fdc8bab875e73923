package game_test

import (
	"errors"
	"fmt"
	"testing"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// bot registers an account and makes it a bot.
func bot(t *testing.T, db *models.DB, name string) game.Player {
	t.Helper()
	p := account(t, db, name)
	if err := db.UpgradeToBot(t.Context(), p.UserID); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBotsNeverMeetPeopleByPairing: quick pairing and the lobby's open
// challenges never seat a bot; a bot challenges bots only; a person may
// challenge a bot, casually; the bot then plays through its account's
// seat.
func TestBotsNeverMeetPeopleByPairing(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		aalina, kwame, ama := bot(t, db, "aalina"), bot(t, db, "kwame"), account(t, db, "ama")
		tc := game.TimeControl{Initial: 180, Increment: 2}
		// Ama waits in quick pairing; the bot pressing the same button is
		// refused, and her challenge stays open.
		if g, ch, _, _, err := s.QuickPair(ctx, "abapa", tc, false, ama); err != nil || g != nil || ch == nil {
			t.Fatalf("Ama's quick pairing: %v %v %v", g, ch, err)
		}
		if g, _, _, _, err := s.QuickPair(ctx, "abapa", tc, false, aalina); !errors.Is(err, game.ErrBotLobby) || g != nil {
			t.Errorf("the bot's quick pairing: %v, %v; want ErrBotLobby", g, err)
		}
		open, _ := s.Challenges(ctx, game.Player{})
		if len(open) != 1 {
			t.Fatalf("%d open challenges, want Ama's", len(open))
		}
		if _, _, _, err := s.Accept(ctx, open[0].ID, aalina); !errors.Is(err, game.ErrBotLobby) {
			t.Errorf("a bot accepting an open challenge: %v, want ErrBotLobby", err)
		}
		for _, c := range []struct {
			by    game.Player
			for_  string
			rated bool
			want  error
		}{
			{aalina, "", false, game.ErrBotLobby},
			{aalina, "ama", false, game.ErrBotsChallengeBots},
			{ama, "aalina", true, game.ErrBotRated},
			{aalina, "kwame", true, nil},
			{ama, "aalina", false, nil},
		} {
			set := game.ChallengeSettings{Settings: game.Settings{Rules: "abapa", Clock: tc, Rated: c.rated}, For: c.for_, API: true}
			if _, _, err := s.CreateChallenge(ctx, set, c.by); !errors.Is(err, c.want) {
				t.Errorf("challenge by %d for %q rated %v: %v, want %v", c.by.UserID, c.for_, c.rated, err, c.want)
			}
		}
		// The bot's: ama's to it, its own to kwame.
		mine, err := s.ChallengesFor(ctx, aalina.UserID)
		if len(mine) == 2 && mine[0].Sent(aalina.UserID) {
			mine[0], mine[1] = mine[1], mine[0]
		}
		if err != nil || len(mine) != 2 || mine[0].By != "ama" || mine[0].Rated || mine[0].ByBot || mine[0].Sent(aalina.UserID) ||
			mine[1].By != "aalina" || !mine[1].ByBot || !mine[1].Sent(aalina.UserID) {
			t.Fatalf("challenges for the bot: %+v %v", mine, err)
		}
		if err := s.DeclineChallenge(ctx, mine[0].ID, kwame.UserID, ""); !errors.Is(err, game.ErrNotForYou) {
			t.Errorf("declined by another bot: %v, want ErrNotForYou", err)
		}
		if err := s.DeclineChallenge(ctx, mine[1].ID, kwame.UserID, "because"); !errors.Is(err, game.ErrBadSettings) {
			t.Errorf("declined for no such reason: %v, want ErrBadSettings", err)
		}
		if err := s.DeclineChallenge(ctx, mine[0].ID, kwame.UserID, ""); !errors.Is(err, game.ErrNotForYou) {
			t.Errorf("declined by another bot: %v, want ErrNotForYou", err)
		}
		g, _, side, err := s.Accept(ctx, mine[0].ID, aalina)
		if err != nil {
			t.Fatal(err)
		}
		// The bot's account token holds its seat, and only its own.
		_, seat, err := s.LoadSeated(ctx, g.ID, game.Visitor{Account: aalina.UserID})
		if err != nil || seat != side {
			t.Errorf("the bot's seat by its account: %v %v, want %v", seat, err, side)
		}
		if _, _, err := s.LoadSeated(ctx, g.ID, game.Visitor{Account: kwame.UserID}); !errors.Is(err, game.ErrNoSeat) {
			t.Errorf("another bot's account: %v, want ErrNoSeat", err)
		}
		// Kwame declines Aalina's challenge; it is no longer open.
		theirs, _ := s.ChallengesFor(ctx, kwame.UserID)
		if len(theirs) != 1 {
			t.Fatalf("challenges for kwame: %d", len(theirs))
		}
		if err := s.DeclineChallenge(ctx, theirs[0].ID, kwame.UserID, "tooFast"); err != nil {
			t.Fatal(err)
		}
		if c, err := s.FindChallenge(ctx, theirs[0].ID); err != nil || c.Status != "cancelled" || c.Declined != "tooFast" {
			t.Errorf("the declined challenge: %+v %v", c, err)
		}
		if err := s.DeclineChallenge(ctx, theirs[0].ID, kwame.UserID, ""); !errors.Is(err, game.ErrChallengeTaken) {
			t.Errorf("declined twice: %v, want ErrChallengeTaken", err)
		}
		if left, _ := s.ChallengesFor(ctx, kwame.UserID); len(left) != 0 {
			t.Errorf("%d challenges for kwame after declining", len(left))
		}
	})
}

// TestBotGamesAtOnce: a bot plays at most MaxBotGames games at once; the
// next challenge it accepts is refused until one ends.
func TestBotGamesAtOnce(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		b := bot(t, db, "aalina")
		challenge := func(n int) string {
			p := account(t, db, fmt.Sprint("player", n))
			ch, _, err := s.CreateChallenge(ctx, game.ChallengeSettings{Settings: game.Settings{Rules: "abapa"}, For: "aalina", API: true}, p)
			if err != nil {
				t.Fatal(err)
			}
			return ch.ID
		}
		var first *game.Game
		for i := range game.MaxBotGames {
			g, _, _, err := s.Accept(ctx, challenge(i), b)
			if err != nil {
				t.Fatalf("game %d: %v", i+1, err)
			}
			if first == nil {
				first = g
			}
		}
		last := challenge(game.MaxBotGames)
		if _, _, _, err := s.Accept(ctx, last, b); !errors.Is(err, game.ErrBotBusy) {
			t.Fatalf("game %d: %v, want ErrBotBusy", game.MaxBotGames+1, err)
		}
		g, seat, err := s.LoadSeated(ctx, first.ID, game.Visitor{Account: b.UserID})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Resign(ctx, g, seat); err != nil {
			t.Fatal(err)
		}
		if _, _, side, err := s.Accept(ctx, last, b); err != nil || side == engine.Nobody {
			t.Errorf("after a game ended: %v", err)
		}
	})
}

// TestPairedBotAndPersonCasual: a game paired by someone else (a
// tournament that admits bots and people) is casual between a bot and a
// person even when asked rated, and rated between two bots.
func TestPairedBotAndPersonCasual(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		aalina, kwame, ama := bot(t, db, "aalina"), bot(t, db, "kwame"), account(t, db, "ama")
		for _, c := range []struct {
			south, north game.Player
			rated        bool
		}{{aalina, ama, false}, {ama, kwame, false}, {aalina, kwame, true}} {
			g, _, err := s.CreatePaired(t.Context(), game.PairedSettings{Rules: "abapa", Clock: game.TimeControl{Initial: 60},
				Rated: true, South: c.south.UserID, North: c.north.UserID})
			if err != nil {
				t.Fatal(err)
			}
			if g.Rated != c.rated {
				t.Errorf("%d against %d: rated %v, want %v", c.south.UserID, c.north.UserID, g.Rated, c.rated)
			}
		}
	})
}
