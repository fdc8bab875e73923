package handlerstest

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// Seated is a browser that created or joined a game through the forms.
type Seated struct {
	C    *http.Client
	Game string // the game page's path
}

// FormGame creates a game through the forms in lang (creator South) and
// lets a second browser join it over the invitation link.
func (s *Site) FormGame(lang, rules string) (south, north Seated) {
	s.T.Helper()
	south.C, north.C = s.Browser(), s.Browser()
	_, _, page := s.Get(south.C, "/"+lang+"/games/new")
	code, hdr, _ := s.Post(south.C, "/"+lang+"/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {rules}, "seat": {"south"}}, nil)
	if code != http.StatusSeeOther {
		s.T.Fatalf("create: %d", code)
	}
	south.Game = hdr.Get("Location")
	north.Game = south.Game
	id := south.Game[strings.LastIndex(south.Game, "/")+1:]
	code, hdr, _ = s.Do(north.C, "GET", "/join/"+id, nil, map[string]string{"Accept-Language": langHeader[lang]})
	if code != http.StatusFound || hdr.Get("Location") != south.Game+"/join" {
		s.T.Fatalf("invitation link: %d %q", code, hdr.Get("Location"))
	}
	_, _, page = s.Get(north.C, south.Game+"/join")
	code, hdr, _ = s.Post(north.C, south.Game+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	if code != http.StatusSeeOther || hdr.Get("Location") != south.Game {
		s.T.Fatalf("join: %d %q", code, hdr.Get("Location"))
	}
	return south, north
}

var langHeader = map[string]string{"cs": "cs-CZ,cs;q=0.9,en;q=0.5", "it": "it-IT,it;q=0.8", "en": "en-GB"}

// Move posts a pit through the no-JavaScript form flow.
func (s *Site) Move(p Seated, pit string, hdr map[string]string) (int, http.Header, string) {
	s.T.Helper()
	_, _, page := s.Get(p.C, p.Game)
	return s.Post(p.C, p.Game+"/moves", url.Values{"_csrf": {s.Csrf(page)}, "pit": {pit}}, hdr)
}

// OpenStream opens the event stream of a game page as p's browser and
// returns a channel of its "game" events.
func (s *Site) OpenStream(p Seated, page string) <-chan string {
	s.T.Helper()
	ev := regexp.MustCompile(`sse-connect="([^"]+)"`).FindStringSubmatch(page)
	if ev == nil {
		s.T.Fatal("no sse-connect")
	}
	req, _ := http.NewRequestWithContext(s.T.Context(), "GET", s.Srv.URL+strings.ReplaceAll(ev[1], "&amp;", "&"), nil)
	res, err := p.C.Do(req)
	if err != nil {
		s.T.Fatal(err)
	}
	s.T.Cleanup(func() { res.Body.Close() })
	return Events(res.Body, Named("game"))
}
