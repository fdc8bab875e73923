package models_test

import (
	"errors"
	"testing"

	"oware/models"
)

func TestUsers(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		a := &models.User{Username: "Ama", PasswordHash: "h"}
		if err := db.CreateUser(ctx, a); err != nil || a.ID == 0 || a.Epoch != 1 {
			t.Fatalf("create: %v %+v", err, a)
		}
		if err := db.CreateUser(ctx, &models.User{Username: "AMA", PasswordHash: "h"}); !errors.Is(err, models.ErrConflict) {
			t.Fatalf("same name in other case: %v", err)
		}
		if u, err := db.UserByName(ctx, "ama"); err != nil || u.ID != a.ID {
			t.Fatalf("by name: %v", err)
		}
		if err := db.SetUserPassword(ctx, a.ID, "h2"); err != nil {
			t.Fatal(err)
		}
		if u, _ := db.UserByID(ctx, a.ID); u.PasswordHash != "h2" || u.Epoch != 2 {
			t.Errorf("after the password change: %+v", u)
		}
		// Seats: one account per seat, never both seats.
		g := &models.Game{Rules: "abapa", StartPosition: start, Position: start, Status: "playing"}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if ok, err := db.ClaimSeat(ctx, g.ID, "south", a.ID); !ok || err != nil {
			t.Fatalf("claim south: %v %v", ok, err)
		}
		if ok, _ := db.ClaimSeat(ctx, g.ID, "north", a.ID); ok {
			t.Error("the same account took both seats")
		}
		b := &models.User{Username: "Kofi", PasswordHash: "h"}
		db.CreateUser(ctx, b)
		if ok, _ := db.ClaimSeat(ctx, g.ID, "south", b.ID); ok {
			t.Error("a claimed seat was claimed again")
		}
		if ok, _ := db.ClaimSeat(ctx, g.ID, "north", b.ID); !ok {
			t.Error("north not claimed")
		}
		// Deletion frees the name and keeps the row.
		if err := db.DeleteUser(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.UserByName(ctx, "Ama"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("deleted user found by name: %v", err)
		}
		if u, _ := db.UserByID(ctx, a.ID); !u.Deleted() || u.Email != nil || u.PasswordHash != "" {
			t.Errorf("deleted user %+v", u)
		}
		if err := db.CreateUser(ctx, &models.User{Username: "ama", PasswordHash: "h"}); err != nil {
			t.Errorf("the name is not free: %v", err)
		}
		if err := db.SetUserLanguage(ctx, a.ID, "cs"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("update of a deleted user: %v", err)
		}
	})
}
