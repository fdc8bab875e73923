package handlerstest

import (
	"net/http"
	"net/url"
)

// ClockGameWith creates a game of sc (South) with the custom clock of
// minutes+increment through the forms, and lets nc join it.
func (s *Site) ClockGameWith(sc, nc *http.Client, minutes, increment string) (south, north Seated) {
	s.T.Helper()
	south.C, north.C = sc, nc
	_, _, page := s.Get(sc, "/en/games/new")
	code, hdr, _ := s.Post(sc, "/en/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {"abapa"}, "seat": {"south"},
		"clock": {"custom"}, "minutes": {minutes}, "increment": {increment}}, nil)
	if code != http.StatusSeeOther {
		s.T.Fatalf("create: %d", code)
	}
	south.Game, north.Game = hdr.Get("Location"), hdr.Get("Location")
	_, _, page = s.Get(nc, south.Game+"/join")
	if code, _, _ := s.Post(nc, south.Game+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil); code != http.StatusSeeOther {
		s.T.Fatalf("join: %d", code)
	}
	return south, north
}
