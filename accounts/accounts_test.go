package accounts_test

import (
	"errors"
	"testing"

	"oware/accounts"
	"oware/models/modelstest"
)

// TestOutcome: "did this player win" from a stored result and a side.
func TestOutcome(t *testing.T) {
	for _, c := range []struct{ result, side, want string }{
		{"south", "south", "won"},
		{"south", "north", "lost"},
		{"north", "north", "won"},
		{"north", "south", "lost"},
		{"draw", "south", "drawn"},
		{"draw", "north", "drawn"},
		{"", "south", "aborted"},
	} {
		if got := accounts.Outcome(c.result, c.side); got != c.want {
			t.Errorf("Outcome(%q, %q) = %q, want %q", c.result, c.side, got, c.want)
		}
	}
}

// TestLogInAndSessions: an account logs in by its name in any case and
// its password only; a session names the epoch it was made in, so a
// logout (a new epoch) and a deletion end it, and neither is an error.
func TestLogInAndSessions(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			ctx := t.Context()
			s := accounts.New(modelstest.Open(t, d))
			u, err := s.Register(ctx, "Kofi", "en", "", "correct horse")
			if err != nil || u.Epoch != 1 {
				t.Fatalf("register: %v, epoch %v", err, u)
			}
			if _, err := s.Register(ctx, "KOFI", "it", "", "another one"); !errors.Is(err, accounts.ErrTaken) {
				t.Errorf("the same name in capitals: %v, want ErrTaken", err)
			}
			if got, err := s.LogIn(ctx, "kofi", "correct horse"); err != nil || got == nil || got.ID != u.ID {
				t.Fatalf("log in by the name in lower case: %v, %v", got, err)
			}
			for _, c := range [][2]string{{"Kofi", "Correct horse"}, {"Ama", "correct horse"}} {
				if got, err := s.LogIn(ctx, c[0], c[1]); got != nil || err != nil {
					t.Errorf("log in %q with %q: %v, %v; want nobody and no error", c[0], c[1], got, err)
				}
			}
			if got, err := s.Session(ctx, u.ID, 1); err != nil || got == nil {
				t.Fatalf("the first session: %v, %v", got, err)
			}
			if err := s.LogOut(ctx, u.ID); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Session(ctx, u.ID, 1); got != nil || err != nil {
				t.Errorf("a session of epoch 1 after the logout: %v, %v; want none", got, err)
			}
			if got, err := s.Session(ctx, u.ID, 2); err != nil || got == nil {
				t.Errorf("a session of epoch 2: %v, %v", got, err)
			}
			if err := s.Delete(ctx, u.ID); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Session(ctx, u.ID, 2); got != nil || err != nil {
				t.Errorf("a session of a deleted account: %v, %v; want none", got, err)
			}
			if got, err := s.Session(ctx, u.ID+1000, 1); got != nil || err != nil {
				t.Errorf("a session of no account: %v, %v; want none", got, err)
			}
		})
	}
}
