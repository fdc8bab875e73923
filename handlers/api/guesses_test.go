package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
)

// TestTournamentPasswordGuesses: wrong passwords of a tournament are
// limited as failed logins are (issue 30: 41 wrong passwords in a row,
// all 403): 5 wrong ones answer 403, the 6th 429 with Retry-After 1 (the
// first wait, core.pairFirstDelay) and the reason, and the
// right password too is refused until the wait is over; another account
// from the same address still has its own 5.
func TestTournamentPasswordGuesses(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		// The limits' clock stands still: the wait never passes.
		at := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
		s := handlerstest.NewSiteWith(t, db, func(c *handlers.Config) { c.Clock = func() time.Time { return at } })
		alice, bob, carol := s.Account("alice"), s.Account("bob"), s.Account("carol")
		var created struct{ ID string }
		if code := s.ApiAs(alice, "POST", "/api/v1/tournaments", map[string]any{"kind": "arena", "name": "Locked", "rules": "abapa",
			"clock": map[string]int{"initial": 60}, "minutes": 30, "starts_in": 600, "password": "sesame"}, &created); code != http.StatusCreated {
			t.Fatalf("create: %d", code)
		}
		join := func(c *http.Client, password string) (int, http.Header, string) {
			b, _ := json.Marshal(map[string]string{"password": password})
			return s.Do(c, "POST", "/api/v1/tournaments/"+created.ID+"/join", bytes.NewReader(b),
				map[string]string{"Content-Type": "application/json"})
		}
		for i := range 5 {
			if code, _, body := join(bob, "guess"); code != http.StatusForbidden {
				t.Fatalf("wrong password %d: %d %s, want 403", i+1, code, body)
			}
		}
		code, hdr, body := join(bob, "guess")
		if code != http.StatusTooManyRequests || hdr.Get("Retry-After") != "1" || !strings.Contains(body, "Too many wrong passwords") {
			t.Errorf("6th wrong password: %d, Retry-After %q, %s; want 429, 1 and the reason", code, hdr.Get("Retry-After"), body)
		}
		if code, _, _ := join(bob, "sesame"); code != http.StatusTooManyRequests {
			t.Errorf("the right password while waiting: %d, want 429", code)
		}
		if code, _, body := join(carol, "guess"); code != http.StatusForbidden {
			t.Errorf("another account's wrong password: %d %s, want 403", code, body)
		}
		if code, _, body := join(carol, "sesame"); code != http.StatusOK {
			t.Errorf("another account's right password: %d %s, want 200", code, body)
		}
	})
}
