package core_test

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/handlers"
	"oware/handlers/handlerstest"
)

// TestStrangerCannotLockOutTheOwner (issue 14, item 7): failed logins
// count per account and address. A stranger's 50 wrong passwords for
// alice from address A do not stop alice logging in from address B; from
// A, after 5 failures, each further attempt waits 1 s after the last
// failure, then 2 s, 4 s, 8 s (the time is moved by hand), and the refusal
// says how long in the visitor's language, with Retry-After.
func TestStrangerCannotLockOutTheOwner(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	pass := func(d time.Duration) {
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
	}
	s := handlerstest.NewSiteWith(t, handlerstest.ModelsOpenSQLite(t), func(cfg *handlers.Config) {
		cfg.BehindProxy = true // the address comes from X-Forwarded-For (the test's proxy)
		cfg.Clock = func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return now
		}
	})
	s.Account("alice")
	stranger, owner := s.Browser(), s.Browser()
	const addrA, addrB = "203.0.113.7", "198.51.100.20"
	login := func(c *http.Client, lang, addr, pw string) (int, string, string) {
		t.Helper()
		_, _, page := s.Get(c, "/"+lang+"/login")
		code, hdr, body := s.Post(c, "/"+lang+"/login", url.Values{"_csrf": {s.Csrf(page)}, "username": {"alice"}, "password": {pw}},
			map[string]string{"X-Forwarded-For": addr})
		return code, hdr.Get("Retry-After"), body
	}

	for i := range 50 {
		code, _, _ := login(stranger, "en", addrA, "wrong password")
		switch {
		case i < 5 && code != http.StatusUnauthorized:
			t.Fatalf("stranger's failure %d: %d, want 401", i+1, code)
		case i >= 5 && code != http.StatusTooManyRequests:
			t.Fatalf("stranger's attempt %d: %d, want 429", i+1, code)
		}
	}
	if code, _, _ := login(owner, "en", addrB, handlerstest.TestPassword); code != http.StatusSeeOther {
		t.Fatalf("the owner from another address after the stranger's 50 attempts: %d, want 303", code)
	}

	// From A the delay grows: 1 s, 2 s, 4 s, 8 s after the last failure.
	for _, step := range []struct {
		lang, wait, text string
	}{
		{"en", "1", "Please wait 1 second and try again."},
		{"cs", "2", "Počkejte prosím 2 sekundy a zkuste to znovu."},
		{"it", "4", "Attendi 4 secondi e riprova."},
		{"en", "8", "Please wait 8 seconds and try again."},
	} {
		code, retry, page := login(stranger, step.lang, addrA, handlerstest.TestPassword)
		if code != http.StatusTooManyRequests || retry != step.wait || !strings.Contains(page, step.text) {
			t.Fatalf("from A (right password) before %s s: %d, Retry-After %q, want 429 %s and %q", step.wait, code, retry, step.wait, step.text)
		}
		d, _ := time.ParseDuration(step.wait + "s")
		pass(d - time.Millisecond)
		if code, retry, _ := login(stranger, "en", addrA, "wrong password"); code != http.StatusTooManyRequests || retry != "1" {
			t.Fatalf("from A 1 ms before the %s s are over: %d, Retry-After %q, want 429 and 1", step.wait, code, retry)
		}
		pass(time.Millisecond)
		if code, _, _ := login(stranger, "en", addrA, "wrong password"); code != http.StatusUnauthorized {
			t.Fatalf("from A once %s s are over: %d, want 401 (checked)", step.wait, code)
		}
	}
	// The owner from B still logs in; at A, after the delay, so does she.
	if code, _, _ := login(owner, "en", addrB, handlerstest.TestPassword); code != http.StatusSeeOther {
		t.Errorf("the owner from B at the end: %d, want 303", code)
	}
	pass(16 * time.Second)
	if code, _, _ := login(s.Browser(), "en", addrA, handlerstest.TestPassword); code != http.StatusSeeOther {
		t.Errorf("the owner from A once the delay is over: %d, want 303", code)
	}
}
