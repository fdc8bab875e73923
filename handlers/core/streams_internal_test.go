package core

import (
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestStreamCounts: the three bounds of the event streams, and every
// closed stream gives its room back.
func TestStreamCounts(t *testing.T) {
	s := NewStreams(StreamLimits{PerGame: 2, PerClient: 3, Total: 4})
	var closers []func()
	for _, tc := range []struct {
		client, game string
		ok           bool
	}{
		{"a", "g1", true}, {"a", "g1", true},
		{"a", "g1", false}, // 2 on g1
		{"a", "g2", true},
		{"a", "g3", false}, // 3 in all
		{"b", "g1", true},
		{"b", "g2", false}, // 4 on the instance
	} {
		ok, closed := s.OpenStream(tc.client, tc.game)
		if ok != tc.ok || (closed != nil) != ok {
			t.Fatalf("%s on %s: %v, want %v", tc.client, tc.game, ok, tc.ok)
		}
		if ok {
			closers = append(closers, closed)
		}
	}
	closers[0]() // one of a's on g1
	if ok, closed := s.OpenStream("b", "g2"); !ok {
		t.Fatal("no room after a stream closed")
	} else {
		closers[0] = closed
	}
	for _, c := range closers {
		c()
	}
	if n := s.Open(); n != 0 || len(s.byClient) != 0 || len(s.byGame) != 0 {
		t.Errorf("after closing all: %d open, %v, %v", n, s.byClient, s.byGame)
	}
	if d := NewStreams(StreamLimits{}); d.StreamLimits != (StreamLimits{PerGame: 6, PerClient: 40, Total: 20000}) {
		t.Errorf("default limits %+v", d.StreamLimits)
	}
}

// TestClientKey: a client is its address, an IPv6 one by its /64.
func TestClientKey(t *testing.T) {
	e := echo.New()
	for addr, want := range map[string]string{
		"192.0.2.7:4000":              "192.0.2.7",
		"[2001:db8:1:2:aaaa::1]:4000": "2001:db8:1:2::/64",
		"[2001:db8:1:2:bbbb::9]:5000": "2001:db8:1:2::/64",
		"[::ffff:192.0.2.9]:4000":     "::ffff:192.0.2.9",
		"[2001:db8:1:3::1]:4000":      "2001:db8:1:3::/64",
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = addr
		if got := ClientKey(e.NewContext(req, httptest.NewRecorder())); got != want {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
}
