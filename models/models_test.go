package models_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/models"
	"oware/models/modelstest"
)

const start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"

// each runs test once per dialect as a subtest.
func each(t *testing.T, test func(t *testing.T, db *models.DB)) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			test(t, modelstest.Open(t, d))
		})
	}
}

func newGame(t *testing.T, db *models.DB) *models.Game {
	t.Helper()
	g := &models.Game{Rules: "abapa", StartPosition: start, Position: start, Status: "waiting",
		SouthToken: models.HashToken("south")}
	if err := db.CreateGame(t.Context(), g); err != nil {
		t.Fatalf("CreateGame: %v", err)
	}
	return g
}

func load(t *testing.T, db *models.DB, id string) *models.Game {
	t.Helper()
	g, err := db.LoadGame(t.Context(), id)
	if err != nil {
		t.Fatalf("LoadGame(%q): %v", id, err)
	}
	return g
}

// play stores move number ply of g (any pit) and returns the error.
func play(ctx context.Context, db *models.DB, g *models.Game, ply int) error {
	g.Status = "playing"
	g.Position = "after " + string(rune('0'+ply))
	return db.UpdateGame(ctx, g, &models.Move{Ply: ply, Pit: ply % 6, Label: "A", Position: g.Position})
}

func TestCreateLoad(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		g := newGame(t, db)
		if len(g.ID) != 12 || strings.Trim(g.ID, "abcdefghijklmnopqrstuvwxyz234567") != "" {
			t.Errorf("ID = %q, want 12 chars of lowercase base32", g.ID)
		}
		if g.SpectatorKey == "" || g.SpectatorKey == g.ID {
			t.Errorf("SpectatorKey = %q", g.SpectatorKey)
		}
		if g.Version != 1 || g.CreatedAt.IsZero() {
			t.Errorf("Version = %d, CreatedAt = %v", g.Version, g.CreatedAt)
		}
		for ply := 1; ply <= 3; ply++ {
			if err := play(t.Context(), db, g, ply); err != nil {
				t.Fatal(err)
			}
		}
		got := load(t, db, g.ID)
		if got.Version != 4 || got.Status != "playing" || got.Position != g.Position ||
			got.SouthToken != g.SouthToken || got.Rules != "abapa" || !got.CreatedAt.Equal(g.CreatedAt) {
			t.Errorf("LoadGame = %+v, want %+v", got, g)
		}
		if len(got.Moves) != 3 {
			t.Fatalf("%d moves, want 3", len(got.Moves))
		}
		for i, m := range got.Moves {
			if m.Ply != i+1 || m.GameID != g.ID || m.ID == 0 || m.Position != "after "+string(rune('1'+i)) {
				t.Errorf("move %d = %+v", i, m)
			}
		}
		byKey, err := db.GameBySpectatorKey(t.Context(), g.SpectatorKey)
		if err != nil || byKey.ID != g.ID || len(byKey.Moves) != 3 {
			t.Errorf("GameBySpectatorKey = %+v, %v", byKey, err)
		}
		if _, err := db.LoadGame(t.Context(), "nosuchgame00"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("LoadGame(missing) error = %v, want ErrNotFound", err)
		}
		for _, bad := range []string{"\x00aaaaaaaaaaa", "\xff\xfeaaaaaaaaaa", "aaaaaaaaaaa'", "AAAAAAAAAAAA", "aaaaaaaaaaaaa"} {
			if _, err := db.LoadGame(t.Context(), bad); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("LoadGame(%q) error = %v, want ErrNotFound", bad, err)
			}
		}
		if _, err := db.GameBySpectatorKey(t.Context(), "nosuchkey"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("GameBySpectatorKey(missing) error = %v, want ErrNotFound", err)
		}
		dup := &models.Game{ID: g.ID, Rules: "abapa", StartPosition: start, Position: start, Status: "waiting"}
		if err := db.CreateGame(t.Context(), dup); !errors.Is(err, models.ErrConflict) {
			t.Errorf("CreateGame(same id) error = %v, want ErrConflict", err)
		}
	})
}

func TestUpdateGameConflict(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		for round := range 10 {
			g := newGame(t, db)
			a, b := *g, *g
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i, c := range []*models.Game{&a, &b} {
				wg.Go(func() { errs[i] = play(t.Context(), db, c, 1) })
			}
			wg.Wait()
			won := 0
			for _, err := range errs {
				switch {
				case err == nil:
					won++
				case !errors.Is(err, models.ErrConflict):
					t.Fatalf("round %d: UpdateGame error = %v, want nil or ErrConflict", round, err)
				}
			}
			if won != 1 {
				t.Fatalf("round %d: %d updates won (errors %v), want exactly 1", round, won, errs)
			}
			got := load(t, db, g.ID)
			if got.Version != 2 || len(got.Moves) != 1 {
				t.Fatalf("round %d: version %d with %d moves, want 2 with 1", round, got.Version, len(got.Moves))
			}
		}
	})
}

func TestUpdateGameStaleVersion(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		g := newGame(t, db)
		stale := *g
		if err := play(t.Context(), db, g, 1); err != nil {
			t.Fatal(err)
		}
		stale.Status = "over"
		if err := db.UpdateGame(t.Context(), &stale, nil); !errors.Is(err, models.ErrConflict) {
			t.Fatalf("stale UpdateGame error = %v, want ErrConflict", err)
		}
		if stale.Version != 1 {
			t.Errorf("failed UpdateGame changed Version to %d", stale.Version)
		}
		if got := load(t, db, g.ID); got.Status != "playing" || got.Version != 2 {
			t.Errorf("after a stale update: status %q version %d", got.Status, got.Version)
		}
		missing := models.Game{ID: "nosuchgame00", Version: 1}
		if err := db.UpdateGame(t.Context(), &missing, nil); !errors.Is(err, models.ErrConflict) {
			t.Errorf("UpdateGame(missing) error = %v, want ErrConflict", err)
		}
	})
}

func TestDuplicatePlyRefused(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		g := newGame(t, db)
		if err := play(t.Context(), db, g, 1); err != nil {
			t.Fatal(err)
		}
		before := g.Position
		if err := play(t.Context(), db, g, 1); !errors.Is(err, models.ErrConflict) {
			t.Fatalf("second move with ply 1: error = %v, want ErrConflict", err)
		}
		got := load(t, db, g.ID)
		if got.Version != 2 || len(got.Moves) != 1 || got.Position != before {
			t.Errorf("after the refused move: version %d, %d moves, position %q; want 2, 1, %q",
				got.Version, len(got.Moves), got.Position, before)
		}
	})
}

func TestRestart(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		g := newGame(t, db)
		if err := play(t.Context(), db, g, 1); err != nil {
			t.Fatal(err)
		}
		secret, err := db.Secret(t.Context())
		if err != nil || len(secret) != 32 {
			t.Fatalf("Secret = %x, %v; want 32 bytes", secret, err)
		}
		if err := db.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		db2 := modelstest.Reopen(t, db)
		got := load(t, db2, g.ID)
		if got.Version != 2 || got.Position != g.Position || len(got.Moves) != 1 || got.Moves[0].Ply != 1 {
			t.Errorf("after restart: %+v", got)
		}
		again, err := db2.Secret(t.Context())
		if err != nil || string(again) != string(secret) {
			t.Errorf("Secret after restart = %x, %v; want %x", again, err, secret)
		}
		if err := db2.Ping(t.Context()); err != nil {
			t.Errorf("Ping: %v", err)
		}
	})
}

func TestBroker(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		// On PostgreSQL the subscriber is a second instance: another handle.
		other := db
		if db.Dialect == models.Postgres {
			other = modelstest.Reopen(t, db)
		}
		pub, sub := db.Broker(t.Context()), other.Broker(t.Context())
		ch, stop := sub.Subscribe("game1")
		defer stop()
		quiet, stopQuiet := sub.Subscribe("game2")
		defer stopQuiet()
		if err := pub.Publish(t.Context(), "game1", 7); err != nil {
			t.Fatal(err)
		}
		select {
		case v := <-ch:
			if v != 7 {
				t.Errorf("got version %d, want 7", v)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10 s")
		}
		select {
		case v := <-quiet:
			t.Errorf("subscriber of another game got %d", v)
		case <-time.After(200 * time.Millisecond):
		}
		stop()
		stop()
		if _, ok := <-ch; ok {
			t.Error("channel still open after unsubscribe")
		}
		other.Close()
		select {
		case _, ok := <-quiet:
			if ok {
				t.Error("got an event, want the channel closed")
			}
		case <-time.After(5 * time.Second):
			t.Error("channel not closed after Close")
		}
	})
}

func TestTokens(t *testing.T) {
	a, b := models.NewToken(), models.NewToken()
	if len(a) != 43 || a == b {
		t.Errorf("NewToken = %q, %q", a, b)
	}
	h := models.HashToken("secret")
	if h != "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b" {
		t.Errorf("HashToken(secret) = %s", h)
	}
}

// TestBrokerReconnect cuts the PostgreSQL listener's connection: the
// broker reconnects, tells the subscribers to reload (0) and delivers later
// events.
func TestBrokerReconnect(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	b := db.Broker(t.Context())
	ch, stop := b.Subscribe("game1")
	defer stop()
	err := db.Gorm.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`).Error
	if err != nil {
		t.Fatal(err)
	}
	want := func(version int) {
		t.Helper()
		select {
		case v := <-ch:
			if v != version {
				t.Fatalf("got version %d, want %d", v, version)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no event %d within 10 s", version)
		}
	}
	want(0)
	if err := b.Publish(t.Context(), "game1", 8); err != nil {
		t.Fatal(err)
	}
	want(8)
}

// TestPublishCancelled: an event is sent even when the publishing request
// was cancelled after its change was stored.
func TestPublishCancelled(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		b := db.Broker(t.Context())
		ch, stop := b.Subscribe("game1")
		defer stop()
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := b.Publish(ctx, "game1", 3); err != nil {
			t.Fatalf("Publish with a cancelled context: %v", err)
		}
		select {
		case v := <-ch:
			if v != 3 {
				t.Errorf("got %d, want 3", v)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10 s")
		}
	})
}

// TestUpdateGamePublishes: a stored change reaches the subscribers of
// every instance with its new version, with no Publish of its own; a
// refused one sends nothing.
func TestUpdateGamePublishes(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		other := db
		if db.Dialect == models.Postgres {
			other = modelstest.Reopen(t, db)
		}
		g := newGame(t, db)
		ch, stop := other.Broker(t.Context()).Subscribe(g.ID)
		defer stop()
		stale := *g
		if err := play(t.Context(), db, g, 1); err != nil {
			t.Fatal(err)
		}
		select {
		case v := <-ch:
			if v != 2 {
				t.Errorf("got version %d, want 2", v)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10 s")
		}
		if err := play(t.Context(), db, &stale, 1); !errors.Is(err, models.ErrConflict) {
			t.Fatalf("stale move: %v", err)
		}
		select {
		case v := <-ch:
			t.Errorf("a refused change sent version %d", v)
		case <-time.After(300 * time.Millisecond):
		}
	})
}

// TestLostEventRepaired: a change whose event is lost (the instance died
// between its commit and its batch) is stored all the same, and the
// subscribers of another instance get its version within the repair's
// period: Known says it too.
func TestLostEventRepaired(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	other := modelstest.Reopen(t, db)
	g := newGame(t, db)
	b := other.Broker(t.Context())
	ch, stop := b.Subscribe(g.ID)
	defer stop()
	models.DropEvents(db, true)
	start := time.Now()
	if err := play(t.Context(), db, g, 1); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-ch:
		if v != 2 {
			t.Errorf("got version %d, want 2", v)
		}
		t.Logf("repaired after %s", time.Since(start).Round(time.Millisecond))
	case <-time.After(15 * time.Second):
		t.Fatal("the lost event was not repaired within 15 s")
	}
	if v, ok := b.Known(g.ID); !ok || v != 2 {
		t.Errorf("Known = %d, %v; want 2, true", v, ok)
	}
}

// TestFindGameForKeptSettings: a game read with the settings a reader
// kept (FindGameFor's settings) is the game read whole, field for field,
// while its state changed between the reads (a move, a clock); the
// settings are the 11 columns that do not change in play.
func TestFindGameForKeptSettings(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		g := &models.Game{Rules: "abapa", StartPosition: start, Position: start, Status: "playing",
			SouthToken: models.HashToken("south"), NorthToken: models.HashToken("north"),
			ClockInitial: 300, ClockIncrement: 2, NorthComputer: 3, ComputerInstant: true, SouthMS: 300000, NorthMS: 300000}
		if err := db.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		first, _, err := db.FindGameFor(t.Context(), g.ID, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		settings := first.Settings()
		if settings.Rules != "abapa" || settings.StartPosition != start || settings.ClockInitial != 300 ||
			settings.ClockIncrement != 2 || settings.NorthComputer != 3 || !settings.ComputerInstant || settings.SpectatorKey == "" {
			t.Fatalf("settings %+v", settings)
		}
		first.Position, first.SouthMS = "0-5-5-5-5-4-4-4-4-4-4-4-0-0-N", 298000
		if err := db.UpdateGame(t.Context(), first, &models.Move{Ply: 1, Pit: 0, Label: "A", Position: first.Position}); err != nil {
			t.Fatal(err)
		}
		whole, _, err := db.FindGameFor(t.Context(), g.ID, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		part, _, err := db.FindGameFor(t.Context(), g.ID, "", &settings)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(whole, part) {
			t.Errorf("read with the kept settings:\n%+v\nread whole:\n%+v", part, whole)
		}
		if part.Position != "0-5-5-5-5-4-4-4-4-4-4-4-0-0-N" || part.SouthMS != 298000 || part.Version != g.Version+1 {
			t.Errorf("the state read with the kept settings: %s, %d ms, version %d", part.Position, part.SouthMS, part.Version)
		}
	})
}
