package handlerstest

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"oware/engine"
)

const TestPassword = "correct horse battery"

// Register creates an account through the form in client c.
func (s *Site) Register(c *http.Client, lang, name, password string) (int, http.Header, string) {
	s.T.Helper()
	_, _, page := s.Get(c, "/"+lang+"/register")
	return s.Post(c, "/"+lang+"/register", url.Values{"_csrf": {s.Csrf(page)}, "username": {name}, "password": {password}}, nil)
}

// Login logs in through the form in client c.
func (s *Site) Login(c *http.Client, lang, name, password string) (int, http.Header, string) {
	s.T.Helper()
	_, _, page := s.Get(c, "/"+lang+"/login")
	return s.Post(c, "/"+lang+"/login", url.Values{"_csrf": {s.Csrf(page)}, "username": {name}, "password": {password}}, nil)
}

// Account registers name and returns its logged-in client.
func (s *Site) Account(name string) *http.Client {
	s.T.Helper()
	c := s.Browser()
	if code, hdr, body := s.Register(c, "en", name, TestPassword); code != http.StatusSeeOther || hdr.Get("Location") != "/en/players/"+name {
		s.T.Fatalf("register %s: %d %q\n%s", name, code, hdr.Get("Location"), body)
	}
	return c
}

// LoggedInAs returns the name in the header of the home page, or "".
func (s *Site) LoggedInAs(c *http.Client) string {
	s.T.Helper()
	_, _, page := s.Get(c, "/en/")
	if m := regexp.MustCompile(`class="me">([^<]+)<`).FindStringSubmatch(page); m != nil {
		return m[1]
	}
	return ""
}

// PlayAndResign plays up to n greedy moves through the forms, then the
// player to move resigns if the game is not over; it returns the game id.
func (s *Site) PlayAndResign(south, north Seated, n int) string {
	s.T.Helper()
	id := s.PlayGreedy(south, north, n)
	g, _ := s.Db.LoadGame(s.T.Context(), id)
	if g.Status != "over" {
		_, _, page := s.Get(south.C, south.Game+"/resign")
		s.Post(south.C, south.Game+"/resign", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	}
	return id
}

// PlayGreedy plays up to n greedy moves of an abapa game through the
// forms, fewer if the game ends; it returns the game id.
func (s *Site) PlayGreedy(south, north Seated, n int) string {
	s.T.Helper()
	id := south.Game[strings.LastIndex(south.Game, "/")+1:]
	r, _ := engine.RulesByName("abapa")
	for i := 0; i < n; i++ {
		g, err := s.Db.LoadGame(s.T.Context(), id)
		if err != nil {
			s.T.Fatal(err)
		}
		if g.Status == "over" {
			return id
		}
		p, _ := r.ParsePosition(g.Position)
		who := south
		if p.ToMove == engine.North {
			who = north
		}
		if code, _, _ := s.Move(who, Greedy(s.T, r, p), nil); code != http.StatusSeeOther {
			s.T.Fatalf("move %d: %d", i+1, code)
		}
	}
	return id
}

// FormGameWith is formGame with given clients (logged in or not).
func (s *Site) FormGameWith(sc, nc *http.Client, lang, rules string) (south, north Seated) {
	s.T.Helper()
	south.C, north.C = sc, nc
	_, _, page := s.Get(sc, "/"+lang+"/games/new")
	code, hdr, _ := s.Post(sc, "/"+lang+"/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {rules}, "seat": {"south"}}, nil)
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

// BotAccount registers name, makes it a bot through the API and returns
// its logged-in client and an account token with the scope bot:play.
func (s *Site) BotAccount(name string) (*http.Client, string) {
	s.T.Helper()
	c := s.Account(name)
	var tok struct{ Token string }
	if code := s.ApiAs(c, http.MethodPost, "/api/v1/account/tokens", map[string]any{"name": "bridge", "scopes": []string{"bot:play"}}, &tok); code != http.StatusCreated {
		s.T.Fatalf("%s: token: %d", name, code)
	}
	if code, out := s.Api(http.MethodPost, "/api/v1/bot/account/upgrade", tok.Token, nil); code != http.StatusOK || out["bot"] != true {
		s.T.Fatalf("%s: upgrade: %d %v", name, code, out)
	}
	return c, tok.Token
}
