package models_test

import (
	"testing"
	"time"

	"oware/models"
)

// TestVisitorSeats: a visitor's seats are kept per game (a second seat in
// the same game replaces the first), listed oldest first, counted while
// their games are played, and deleted with the visitor once neither it
// nor its games changed for the lifetime. A seat of a game still to be
// made (a lobby challenge's) is kept too.
func TestVisitorSeats(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		waiting, playing := newGame(t, db), newGame(t, db)
		if err := db.Gorm.Model(&models.Game{}).Where("id = ?", playing.ID).UpdateColumn("status", "playing").Error; err != nil {
			t.Fatal(err)
		}
		for _, s := range []struct{ visitor, game, hash string }{
			{"alice", waiting.ID, "h1"}, {"alice", playing.ID, "h2"}, {"alice", waiting.ID, "h3"},
			{"bob", "to-be-made", "h4"},
		} {
			if err := db.KeepVisitorSeat(ctx, s.visitor, s.game, s.hash); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond) // distinct created_at, for the order
		}
		seats, err := db.VisitorSeats(ctx, "alice")
		if err != nil || len(seats) != 2 || seats[0].GameID != waiting.ID || seats[0].TokenHash != "h3" ||
			seats[1].GameID != playing.ID || seats[1].TokenHash != "h2" {
			t.Fatalf("alice's seats: %+v, %v; want %s (h3) then %s (h2)", seats, err, waiting.ID, playing.ID)
		}
		if h, err := db.VisitorSeatHash(ctx, "alice", playing.ID); h != "h2" || err != nil {
			t.Errorf("alice in the game played: %q, %v", h, err)
		}
		if h, err := db.VisitorSeatHash(ctx, "bob", playing.ID); h != "" || err != nil {
			t.Errorf("bob in alice's game: %q, %v", h, err)
		}
		if n, err := db.VisitorGamesPlaying(ctx, "alice"); n != 1 || err != nil {
			t.Errorf("alice plays %d games (%v), want 1", n, err)
		}

		if h, err := db.VisitorSeatHash(ctx, "bob", "to-be-made"); h != "h4" || err != nil {
			t.Errorf("bob's seat in a game to be made: %q, %v", h, err)
		}

		// An hour from now, alice's game played changed later: she stays;
		// bob, without games, goes.
		later := time.Now().Add(time.Hour)
		if err := db.Gorm.Model(&models.Game{}).Where("id = ?", playing.ID).
			UpdateColumn("updated_at", later.Add(time.Minute).UTC()).Error; err != nil {
			t.Fatal(err)
		}
		if n, err := db.DeleteExpiredVisitors(ctx, later); n != 1 || err != nil {
			t.Fatalf("deleted %d visitors (%v), want 1 (bob)", n, err)
		}
		if seats, _ := db.VisitorSeats(ctx, "alice"); len(seats) != 2 {
			t.Errorf("alice holds %d seats after the clean-up, want 2", len(seats))
		}
		// Once her game too is older, alice and her seats go.
		if n, err := db.DeleteExpiredVisitors(ctx, later.Add(2*time.Minute)); n != 1 || err != nil {
			t.Fatalf("deleted %d visitors (%v), want 1 (alice)", n, err)
		}
		var left int64
		db.Gorm.Model(&models.VisitorSeat{}).Count(&left)
		if left != 0 {
			t.Errorf("%d seats left without their visitor", left)
		}
	})
}

// TestVisitorOpenSeats: the seats of games waiting or being played are
// listed, oldest first; not those of finished games nor of games not made
// yet.
func TestVisitorOpenSeats(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		waiting, playing, over := newGame(t, db), newGame(t, db), newGame(t, db)
		for id, status := range map[string]string{playing.ID: "playing", over.ID: "over"} {
			if err := db.Gorm.Model(&models.Game{}).Where("id = ?", id).UpdateColumn("status", status).Error; err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range []struct{ game, hash string }{
			{playing.ID, "h1"}, {over.ID, "h2"}, {"to-be-made", "h3"}, {waiting.ID, "h4"},
		} {
			if err := db.KeepVisitorSeat(ctx, "carol", s.game, s.hash); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond) // distinct created_at, for the order
		}
		seats, err := db.VisitorOpenSeats(ctx, "carol")
		if err != nil || len(seats) != 2 || seats[0].GameID != playing.ID || seats[0].TokenHash != "h1" ||
			seats[1].GameID != waiting.ID || seats[1].TokenHash != "h4" {
			t.Fatalf("carol's open seats: %+v, %v; want %s (h1) then %s (h4)", seats, err, playing.ID, waiting.ID)
		}
		if seats, err := db.VisitorOpenSeats(ctx, "dan"); len(seats) != 0 || err != nil {
			t.Errorf("a visitor without seats: %+v, %v", seats, err)
		}
	})
}
