package handlerstest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"oware/handlers/core"
)

// WaitFor fails the test unless cond holds within 60 s (a review runs in
// the background on a busy machine).
func WaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	WaitEvery(t, what, 50*time.Millisecond, cond)
}

// WaitEvery is WaitFor that asks cond every interval.
func WaitEvery(t *testing.T, what string, every time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); !cond(); time.Sleep(every) {
		if time.Now().After(end) {
			t.Fatalf("%s: not within 60 s", what)
		}
	}
}

// blunderRecord is a game from a small position where South's first move,
// E, loses 6 seeds against F (F captures 2 and reaches 25; after E, North
// plays d and South's only move F leaves North the last 4 seeds).
const blunderRecord = "[FEN \"0-0-0-0-1-1-1-0-0-1-0-0-23-21-S\"]\n1. E d 2. F\n"

// ReviewedImport imports blunderRecord with c, asks for its review and
// waits until the replay shows it; it returns the replay's address
// without the ply.
func (s *Site) ReviewedImport(c *http.Client) string { return s.ReviewedRecord(c, blunderRecord) }

// ReviewedRecord is reviewedImport of record, whose South blunders.
func (s *Site) ReviewedRecord(c *http.Client, record string) string {
	t := s.T
	t.Helper()
	_, _, page := s.Get(c, "/en/import")
	code, hdr, page := s.Post(c, "/en/import", url.Values{"_csrf": {s.Csrf(page)}, "record": {record}}, nil)
	if code != http.StatusSeeOther {
		t.Fatalf("import: %d\n%s", code, page)
	}
	replay := hdr.Get("Location")
	base := replay[:strings.Index(replay, "?")]
	_, _, page = s.Get(c, base+"?ply=1")
	if !strings.Contains(page, "Request computer analysis") || !strings.Contains(page, `action="`+base+`/analysis"`) {
		t.Fatalf("replay without the review form:\n%s", page)
	}
	code, hdr, _ = s.Post(c, base+"/analysis", url.Values{"_csrf": {s.Csrf(page)}, "ply": {"1"}}, nil)
	if code != http.StatusSeeOther || hdr.Get("Location") != base+"?ply=1" {
		t.Fatalf("ask: %d, to %q", code, hdr.Get("Location"))
	}
	// Each replay page counts against the import limit: asking slower
	// than it refills (core.DefaultImportLimit) leaves the caller its burst
	// however long the review takes on a busy machine.
	WaitEvery(t, "the review shown", core.DefaultImportLimit.Every+100*time.Millisecond, func() bool {
		_, _, page = s.Get(c, base+"?ply=1")
		return strings.Contains(page, "Blunders")
	})
	return base
}
