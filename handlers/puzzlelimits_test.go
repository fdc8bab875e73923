package handlers_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"oware/handlers"
	"oware/models"
)

// TestPuzzleAttemptLimit: a client's puzzle attempts, by the API and by
// the page's form together, are bounded: past the burst of 2 the API
// answers 429 with Retry-After and the page a localized 429 (Czech here),
// and nothing is recorded.
func TestPuzzleAttemptLimit(t *testing.T) {
	s := limitedSite(t, io.Discard, nil, func(c *handlers.Config) {
		c.PuzzleLimit = handlers.RateLimit{Burst: 2, Every: 90 * time.Second}
	})
	if _, err := s.db.LoadPuzzles(t.Context(), []models.Puzzle{handmade}); err != nil {
		t.Fatal(err)
	}
	if code, out := s.api("POST", "/api/v1/puzzles/handmade/attempt", "", map[string]any{"moves": []string{"E"}}); code != http.StatusOK {
		t.Fatalf("first attempt: %d %v", code, out)
	}
	c := s.browser()
	_, _, page := s.get(c, "/cs/puzzles/handmade")
	form := url.Values{"_csrf": {s.csrf(page)}, "pit": {"E"}}
	if code, _, _ := s.post(c, "/cs/puzzles/handmade", form, nil); code != http.StatusOK {
		t.Fatalf("second attempt (the page): %d", code)
	}
	code, out := s.api("POST", "/api/v1/puzzles/handmade/attempt", "", map[string]any{"moves": []string{"F"}})
	if code != http.StatusTooManyRequests || !strings.Contains(out["error"].(string), "Too many puzzle attempts") {
		t.Errorf("third attempt (the API): %d %v, want 429", code, out)
	}
	code, hdr, page := s.post(c, "/cs/puzzles/handmade", url.Values{"_csrf": {s.csrf(page)}, "pit": {"F"}}, nil)
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") != "90" || !strings.Contains(page, "příliš mnoho pokusů o úlohy") {
		t.Errorf("fourth attempt (the page): %d, Retry-After %q", code, hdr.Get("Retry-After"))
	}
	var players []models.PuzzlePlayer
	s.db.Gorm.Find(&players)
	if len(players) != 1 || players[0].Solved != 0 || players[0].Failed != 1 {
		t.Errorf("players %+v: want the page's visitor only, one failed attempt", players)
	}
}

// TestPuzzleRowsOfDeletedAccount: deleting an account deletes its puzzle
// rating, streak and attempts; another account's and a guest's stay,
// and the guest's key holds no session secret (a hash of 64 hex digits).
func TestPuzzleRowsOfDeletedAccount(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s := newPuzzleSite(t, db)
		solve := func(c *http.Client) {
			t.Helper()
			_, _, page := s.get(c, "/en/puzzles/handmade")
			if code, _, page := s.post(c, "/en/puzzles/handmade", url.Values{"_csrf": {s.csrf(page)}, "pit": {"F"}}, nil); code != http.StatusOK || !strings.Contains(page, "Solved!") {
				t.Fatalf("solve: %d", code)
			}
		}
		ann, bob, guest := s.account("ann"), s.account("bob"), s.browser()
		for _, c := range []*http.Client{ann, bob, guest} {
			solve(c)
		}
		count := func() (players, attempts int64) {
			s.db.Gorm.Model(&models.PuzzlePlayer{}).Count(&players)
			s.db.Gorm.Model(&models.PuzzleAttempt{}).Count(&attempts)
			return
		}
		if p, a := count(); p != 3 || a != 3 {
			t.Fatalf("before: %d players, %d attempts; want 3 and 3", p, a)
		}
		_, _, page := s.get(ann, "/en/account")
		if code, _, _ := s.post(ann, "/en/account/delete", url.Values{"_csrf": {s.csrf(page)}, "current": {testPassword}}, nil); code != http.StatusSeeOther {
			t.Fatalf("delete: %d", code)
		}
		var left []models.PuzzlePlayer
		s.db.Gorm.Order("player").Find(&left)
		if p, a := count(); p != 2 || a != 2 || len(left) != 2 {
			t.Fatalf("after: %d players, %d attempts; want 2 and 2", p, a)
		}
		var u models.User
		s.db.Gorm.Where("username = ?", "bob").Take(&u)
		if left[0].Player != models.AccountPuzzlePlayer(u.ID) || len(left[1].Player) != 65 || left[1].Player[0] != 'v' {
			t.Errorf("left %q, %q: want bob's and a guest's hashed key", left[0].Player, left[1].Player)
		}
	})
}
