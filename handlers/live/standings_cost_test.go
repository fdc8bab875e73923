//go:build slow

package live_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"oware/game"
	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
	"oware/tournament"
)

// TestStandingsUpdateCost measures the cost of one update of the live
// standings of an arena of 200 players after 1,500 games: from the
// change's event to the new standings in every open stream of the
// tournament, with 1 stream and with 20 streams, alternated (1, 20, 1,
// 20, ...). The streams share one count per change, so 20 streams cost
// one count and 20 renders, not 20 counts. It logs the runs, each with
// the time of one count alone just before.
func TestStandingsUpdateCost(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		log := slog.New(slog.DiscardHandler)
		ts := tournament.New(db, game.New(db, log), log)
		s := handlerstest.NewSiteWith(t, db, func(c *handlers.Config) {
			c.Streams = handlers.StreamLimits{PerGame: 50, PerClient: 50}
			c.Tournaments = ts
		})
		ctx := t.Context()
		id := seedArena(t, db, 200, 1500)
		events := db.Broker(context.Background())
		var runs []string
		for run := range 6 {
			streams := []int{1, 20}[run%2]
			var got []<-chan string
			var stops []func()
			for range streams {
				ch, stop := s.StandingsStream(id)
				got, stops = append(got, ch), append(stops, stop)
			}
			for _, ch := range got {
				waitStandings(t, ch, "")
			}
			u := &models.User{Username: fmt.Sprintf("late%d", run), PasswordHash: "x"}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			if err := db.JoinTournament(ctx, id, u.ID, 0, time.Now(), tournament.MaxPlayers); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if _, err := ts.ViewOf(ctx, id); err != nil {
				t.Fatal(err)
			}
			count := time.Since(start)
			start = time.Now()
			if err := events.Publish(ctx, "t"+id, run+1); err != nil {
				t.Fatal(err)
			}
			for _, ch := range got {
				waitStandings(t, ch, u.Username)
			}
			runs = append(runs, fmt.Sprintf("count %v, update to %d streams %v", count.Round(time.Millisecond),
				streams, time.Since(start).Round(time.Millisecond)))
			for _, stop := range stops {
				stop()
			}
		}
		t.Logf("one update, 200 players, 1,500 games: %s", strings.Join(runs, "; "))
	})
}

// seedArena stores an arena (not started) of n players and the given
// number of finished games between random pairs of them, and returns its
// id.
func seedArena(t *testing.T, db *models.DB, n, games int) string {
	t.Helper()
	ctx := t.Context()
	now := time.Now().UTC()
	tr := &models.Tournament{Kind: "arena", Name: "Cost", Rules: "abapa", ClockInitial: 60, Minutes: 60,
		StartsAt: now.Add(time.Hour), EndsAt: now.Add(2 * time.Hour)}
	if err := db.CreateTournament(ctx, tr, now); err != nil {
		t.Fatal(err)
	}
	ids := make([]uint, n)
	for i := range ids {
		u := &models.User{Username: fmt.Sprintf("c%03d", i), PasswordHash: "x"}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		ids[i] = u.ID
		if err := db.JoinTournament(ctx, tr.ID, u.ID, 0, now, tournament.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	rows := make([]models.TournamentGame, games)
	for i := range rows {
		a, b := rnd.IntN(n), rnd.IntN(n-1)
		if b >= a {
			b++
		}
		gid := models.NewGameID()
		g := &models.Game{ID: gid, Rules: "abapa", Status: "over", Result: []string{"south", "north", "draw"}[rnd.IntN(3)],
			SouthUserID: &ids[a], NorthUserID: &ids[b], MoveLabels: "CdBa"}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		rows[i] = models.TournamentGame{TournamentID: tr.ID, GameID: &gid, SouthID: ids[a], NorthID: &ids[b], CreatedAt: now}
	}
	if err := db.Gorm.WithContext(ctx).CreateInBatches(rows, 200).Error; err != nil {
		t.Fatal(err)
	}
	return tr.ID
}

// waitStandings waits for standings from ch that name player ("": any).
func waitStandings(t *testing.T, ch <-chan string, player string) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatalf("the stream ended before standings naming %q", player)
			}
			if strings.Contains(ev, player+"</a>") {
				return
			}
		case <-deadline:
			t.Fatalf("no standings naming %q", player)
		}
	}
}
