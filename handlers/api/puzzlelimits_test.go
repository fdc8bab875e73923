package api_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
)

// TestPuzzleAttemptLimit: a client's puzzle attempts, by the API and by
// the page's form together, are bounded: past the burst of 2 the API
// answers 429 with Retry-After and the page a localized 429 (Czech here),
// and nothing is recorded.
func TestPuzzleAttemptLimit(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) {
		c.PuzzleLimit = handlers.RateLimit{Burst: 2, Every: 90 * time.Second}
	})
	if _, err := s.Db.LoadPuzzles(t.Context(), []models.Puzzle{handlerstest.Handmade}); err != nil {
		t.Fatal(err)
	}
	if code, out := s.Api("POST", "/api/v1/puzzles/handmade/attempt", "", map[string]any{"moves": []string{"E"}}); code != http.StatusOK {
		t.Fatalf("first attempt: %d %v", code, out)
	}
	c := s.Browser()
	_, _, page := s.Get(c, "/cs/puzzles/handmade")
	form := url.Values{"_csrf": {s.Csrf(page)}, "pit": {"E"}}
	if code, _, _ := s.Post(c, "/cs/puzzles/handmade", form, nil); code != http.StatusOK {
		t.Fatalf("second attempt (the page): %d", code)
	}
	code, out := s.Api("POST", "/api/v1/puzzles/handmade/attempt", "", map[string]any{"moves": []string{"F"}})
	if code != http.StatusTooManyRequests || !strings.Contains(out["error"].(string), "Too many puzzle attempts") {
		t.Errorf("third attempt (the API): %d %v, want 429", code, out)
	}
	code, hdr, page := s.Post(c, "/cs/puzzles/handmade", url.Values{"_csrf": {s.Csrf(page)}, "pit": {"F"}}, nil)
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") != "90" || !strings.Contains(page, "příliš mnoho pokusů o úlohy") {
		t.Errorf("fourth attempt (the page): %d, Retry-After %q", code, hdr.Get("Retry-After"))
	}
	var players []models.PuzzlePlayer
	s.Db.Gorm.Find(&players)
	if len(players) != 1 || players[0].Solved != 0 || players[0].Failed != 1 {
		t.Errorf("players %+v: want the page's visitor only, one failed attempt", players)
	}
}

// TestPuzzleRowsOfDeletedAccount: deleting an account deletes its puzzle
// rating, streak and attempts; another account's and a guest's stay,
// and the guest's key holds no session secret (a hash of 64 hex digits).
func TestPuzzleRowsOfDeletedAccount(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewPuzzleSite(t, db)
		solve := func(c *http.Client) {
			t.Helper()
			_, _, page := s.Get(c, "/en/puzzles/handmade")
			if code, _, page := s.Post(c, "/en/puzzles/handmade", url.Values{"_csrf": {s.Csrf(page)}, "pit": {"F"}}, nil); code != http.StatusOK || !strings.Contains(page, "Solved!") {
				t.Fatalf("solve: %d", code)
			}
		}
		ann, bob, guest := s.Account("ann"), s.Account("bob"), s.Browser()
		for _, c := range []*http.Client{ann, bob, guest} {
			solve(c)
		}
		count := func() (players, attempts int64) {
			s.Db.Gorm.Model(&models.PuzzlePlayer{}).Count(&players)
			s.Db.Gorm.Model(&models.PuzzleAttempt{}).Count(&attempts)
			return
		}
		if p, a := count(); p != 3 || a != 3 {
			t.Fatalf("before: %d players, %d attempts; want 3 and 3", p, a)
		}
		_, _, page := s.Get(ann, "/en/account")
		if code, _, _ := s.Post(ann, "/en/account/delete", url.Values{"_csrf": {s.Csrf(page)}, "current": {handlerstest.TestPassword}}, nil); code != http.StatusSeeOther {
			t.Fatalf("delete: %d", code)
		}
		var left []models.PuzzlePlayer
		s.Db.Gorm.Order("player").Find(&left)
		if p, a := count(); p != 2 || a != 2 || len(left) != 2 {
			t.Fatalf("after: %d players, %d attempts; want 2 and 2", p, a)
		}
		var u models.User
		s.Db.Gorm.Where("username = ?", "bob").Take(&u)
		if left[0].Player != models.AccountPuzzlePlayer(u.ID) || len(left[1].Player) != 65 || left[1].Player[0] != 'v' {
			t.Errorf("left %q, %q: want bob's and a guest's hashed key", left[0].Player, left[1].Player)
		}
	})
}

// TestPuzzleAttemptLimitPerAccount: an account's puzzle attempts count
// against the limit wherever they come from (issue 30: a farming account
// behind many addresses): burst 2, two attempts from one address, the
// third from another address is refused (429); a visitor without an
// account at that other address still has its own.
func TestPuzzleAttemptLimitPerAccount(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) {
		c.BehindProxy = true
		c.PuzzleLimit = handlers.RateLimit{Burst: 2, Every: 90 * time.Second}
	})
	if _, err := s.Db.LoadPuzzles(t.Context(), []models.Puzzle{handlerstest.Handmade}); err != nil {
		t.Fatal(err)
	}
	acct := s.Account("ann")
	attempt := func(c *http.Client, addr string) int {
		code, _, _ := s.Do(c, "POST", "/api/v1/puzzles/handmade/attempt", strings.NewReader(`{"moves":["E"]}`),
			map[string]string{"Content-Type": "application/json", "X-Forwarded-For": addr})
		return code
	}
	for _, addr := range []string{"203.0.113.7", "203.0.113.7"} {
		if code := attempt(acct, addr); code != http.StatusOK {
			t.Fatalf("attempt from %s: %d", addr, code)
		}
	}
	if code := attempt(acct, "198.51.100.9"); code != http.StatusTooManyRequests {
		t.Errorf("the account's third attempt, from another address: %d, want 429", code)
	}
	if code := attempt(s.Browser(), "198.51.100.10"); code != http.StatusOK {
		t.Errorf("a visitor at a third address: %d, want 200", code)
	}
}
