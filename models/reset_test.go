package models_test

import (
	"errors"
	"testing"
	"time"

	"oware/models"
)

func TestPasswordReset(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		mail := "Ama@Example.org"
		u := &models.User{Username: "ama", PasswordHash: "old", Email: &mail}
		other := &models.User{Username: "kofi", PasswordHash: "k"}
		for _, x := range []*models.User{u, other} {
			if err := db.CreateUser(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		if us, err := db.UsersByEmail(ctx, "ama@example.ORG"); err != nil || len(us) != 1 || us[0].ID != u.ID {
			t.Fatalf("UsersByEmail: %v %v", us, err)
		}
		if us, err := db.UsersByEmail(ctx, "nobody@example.org"); err != nil || len(us) != 0 {
			t.Fatalf("UsersByEmail(unknown): %v %v", us, err)
		}
		now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
		for _, h := range []string{"a1", "b2", "c3"} {
			if err := db.CreatePasswordReset(ctx, &models.PasswordReset{TokenHash: h, UserID: u.ID, ExpiresAt: now.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.PasswordResetUser(ctx, "c3", now.Add(time.Hour)); !errors.Is(err, models.ErrTokenExpired) {
			t.Errorf("at the expiry: %v, want ErrTokenExpired", err)
		}
		if _, err := db.PasswordResetUser(ctx, "zz", now); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("unknown: %v, want ErrNotFound", err)
		}
		if got, err := db.PasswordResetUser(ctx, "a1", now); err != nil || got.ID != u.ID {
			t.Fatalf("PasswordResetUser: %v %v", got, err)
		}
		got, err := db.ResetPassword(ctx, "a1", "new", now.Add(time.Minute))
		if err != nil || got.PasswordHash != "new" || got.Epoch != 2 {
			t.Fatalf("ResetPassword: %+v %v", got, err)
		}
		// Spent, and the account's other link with it.
		for _, h := range []string{"a1", "b2"} {
			if _, err := db.ResetPassword(ctx, h, "again", now.Add(2*time.Minute)); !errors.Is(err, models.ErrTokenUsed) {
				t.Errorf("%s after the reset: %v, want ErrTokenUsed", h, err)
			}
		}
		if x, _ := db.UserByID(ctx, u.ID); x.PasswordHash != "new" {
			t.Errorf("password hash %q after refused resets, want new", x.PasswordHash)
		}
		if x, _ := db.UserByID(ctx, other.ID); x.PasswordHash != "k" || x.Epoch != 1 {
			t.Errorf("the other account changed: %+v", x)
		}
	})
}
