package models_test

import (
	"testing"
	"time"

	"oware/models"
)

// TestFollows: Ama follows Kofi and Esi (not herself, not a fourth past a
// limit of 2, twice is once); the list is by name; unfollowing takes one
// off; the games in play of the players Ama follows are Kofi's against
// Esi only (not Ama's own against Yaw's guest seat, not a finished one);
// a deleted account leaves the lists.
func TestFollows(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		user := func(name string) uint {
			u := &models.User{Username: name, PasswordHash: "h"}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		ama, kofi, esi, yaw := user("Ama"), user("kofi"), user("Esi"), user("Yaw")
		if _, err := db.Follow(ctx, ama, ama, 2, now); err == nil {
			t.Error("Ama follows herself")
		}
		for _, f := range []struct {
			who  uint
			ok   bool
			what string
		}{{kofi, true, "kofi"}, {esi, true, "Esi"}, {kofi, true, "kofi again"}, {yaw, false, "a third past the limit of 2"}} {
			if ok, err := db.Follow(ctx, ama, f.who, 2, now); err != nil || ok != f.ok {
				t.Errorf("follow %s: %v %v, want %v", f.what, ok, err, f.ok)
			}
		}
		list := func() string {
			users, err := db.Followed(ctx, ama, 10)
			if err != nil {
				t.Fatal(err)
			}
			s := ""
			for _, u := range users {
				s += u.Username + " "
			}
			return s
		}
		if got := list(); got != "Esi kofi " {
			t.Errorf("followed: %q, want Esi kofi", got)
		}
		if ok, _ := db.Follows(ctx, ama, esi); !ok {
			t.Error("Ama does not follow Esi")
		}
		game := func(south, north *uint, status string) string {
			g := &models.Game{Rules: "abapa", StartPosition: start, Position: start, Status: status, SouthUserID: south, NorthUserID: north}
			if err := db.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			return g.ID
		}
		ke := game(&kofi, &esi, "playing")
		game(&ama, nil, "playing")
		game(&kofi, &yaw, "over")
		ay := game(&ama, &yaw, "playing")
		ids := func(games []*models.Game, err error) string {
			if err != nil {
				t.Fatal(err)
			}
			s := ""
			for _, g := range games {
				s += g.ID + " "
			}
			return s
		}
		if got := ids(db.PlayingGamesFollowed(ctx, ama, 10)); got != ke+" " {
			t.Errorf("games of the followed: %q, want %q", got, ke)
		}
		if got := ids(db.PlayingGamesOf(ctx, yaw, 10)); got != ay+" " {
			t.Errorf("Yaw's games in play: %q, want %q", got, ay)
		}
		if err := db.Unfollow(ctx, ama, kofi); err != nil {
			t.Fatal(err)
		}
		if ok, err := db.Follow(ctx, ama, yaw, 2, now); !ok || err != nil {
			t.Errorf("follow Yaw once kofi is off: %v %v", ok, err)
		}
		if err := db.DeleteUser(ctx, esi); err != nil {
			t.Fatal(err)
		}
		if got := list(); got != "Yaw " {
			t.Errorf("followed after unfollowing kofi and Esi's deletion: %q, want Yaw", got)
		}
		if err := db.SetBoard(ctx, ama, "hover.fast.slate", false); err != nil {
			t.Fatal(err)
		}
		if u, _ := db.UserByID(ctx, ama); u.Board != "hover.fast.slate" || u.MoveSound {
			t.Errorf("board %q, sound %v", u.Board, u.MoveSound)
		}
	})
}
