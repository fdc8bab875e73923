package core_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"oware/handlers"
	"oware/handlers/handlerstest"
)

// TestRequestID: every answer (page, API, static file, error) has an
// X-Request-Id, new for each request; the id of the client is kept only
// behind a proxy and only when it is sane; the request's log line
// carries the id.
func TestRequestID(t *testing.T) {
	var log syncBuffer
	s := handlerstest.LimitedSite(t, &log, nil, nil)
	seen := map[string]bool{}
	for _, path := range []string{"/en/", "/api/v1/games/nosuchgame00", "/healthz", "/en/no-such-page", "/favicon.ico"} {
		_, hdr, _ := s.Do(nil, http.MethodGet, path, nil, map[string]string{"X-Request-Id": "client-chosen"})
		id := hdr.Get("X-Request-Id")
		if len(id) < 16 || seen[id] || id == "client-chosen" {
			t.Errorf("%s: X-Request-Id %q (seen before: %v)", path, id, seen[id])
		}
		seen[id] = true
		if !strings.Contains(log.String(), "request_id="+id) {
			t.Errorf("%s: no log line with request_id=%s:\n%s", path, id, log.String())
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if !strings.Contains(l, "request_id=") {
			t.Errorf("log line without a request id: %s", l)
		}
	}

	proxied := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) { c.BehindProxy = true })
	for give, keep := range map[string]bool{
		"4f1c2a9e-77b0-4e0e-a1d2-0c9d1e2f3a4b": true, "req:42.a_b": true,
		"a b": false, strings.Repeat("x", 65): false, "<script>": false,
	} {
		_, hdr, _ := proxied.Do(nil, http.MethodGet, "/en/", nil, map[string]string{"X-Request-Id": give})
		if got := hdr.Get("X-Request-Id"); (got == give) != keep || got == "" {
			t.Errorf("behind a proxy, X-Request-Id %q: answered %q, want it kept: %v", give, got, keep)
		}
	}
}
