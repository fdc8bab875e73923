package core_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"oware/handlers"
	"oware/handlers/handlerstest"
)

// TestImportRateLimit: the import page counts each record read (a new
// record, each page of a replay) per client address: past the burst a
// localized 429 page with Retry-After, and another client is not slowed.
func TestImportRateLimit(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) {
		c.BehindProxy = true
		c.ImportLimit = handlers.RateLimit{Burst: 3, Every: time.Hour}
	})
	from := func(addr string) map[string]string { return map[string]string{"X-Forwarded-For": addr} }
	c := s.Browser()
	_, _, page := s.Do(c, "GET", "/cs/import", nil, from("203.0.113.7"))
	record := "[Variant \"Abapa\"]\n\n1. C f 2. A\n"
	form := url.Values{"_csrf": {s.Csrf(page)}, "record": {record}}
	code, hdr, _ := s.Post(c, "/cs/import", form, from("203.0.113.7"))
	if code != http.StatusSeeOther {
		t.Fatalf("import: %d", code)
	}
	replay := hdr.Get("Location")
	for i := range 2 {
		if code, _, _ := s.Do(c, "GET", replay, nil, from("203.0.113.7")); code != http.StatusOK {
			t.Fatalf("replay %d: %d", i+1, code)
		}
	}
	code, hdr, page = s.Do(c, "GET", replay, nil, from("203.0.113.7"))
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") != "3600" || !strings.Contains(page, "příliš mnoho záznamů") {
		t.Errorf("4th read: %d, Retry-After %q: %.300s", code, hdr.Get("Retry-After"), page)
	}
	if code, _, _ := s.Post(c, "/cs/import", form, from("203.0.113.7")); code != http.StatusTooManyRequests {
		t.Errorf("a new record past the limit: %d, want 429", code)
	}
	// The form itself is not limited, and another address is not.
	if code, _, _ := s.Do(c, "GET", "/cs/import", nil, from("203.0.113.7")); code != http.StatusOK {
		t.Errorf("the import form: %d, want 200", code)
	}
	if code, _, _ := s.Do(c, "GET", replay, nil, from("203.0.113.8")); code != http.StatusOK {
		t.Errorf("another client's replay: %d, want 200", code)
	}
}

// TestAnalysisRateLimit: the analysis API uses the same limit, with a
// JSON refusal.
func TestAnalysisRateLimit(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) {
		c.AnalysisLimit = handlers.RateLimit{Burst: 1, Every: 90 * time.Second}
	})
	if code, _, body := s.Get(nil, "/api/v1/analysis?depth=1"); code != http.StatusOK {
		t.Fatalf("first analysis: %d %s", code, body)
	}
	code, hdr, body := s.Get(nil, "/api/v1/analysis?depth=1")
	var out map[string]string
	if err := json.Unmarshal([]byte(body), &out); err != nil || code != http.StatusTooManyRequests ||
		hdr.Get("Retry-After") != "90" || !strings.Contains(out["error"], "Too many analyses") {
		t.Errorf("second analysis: %d, Retry-After %q: %s", code, hdr.Get("Retry-After"), body)
	}
}
