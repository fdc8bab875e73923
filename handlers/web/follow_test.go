package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestFollowPlayers: alice follows bob from his page (a form, without
// JavaScript); while bob plays carol, alice's home page, her list of the
// followed and the list's refresh show that game with its watch link
// (not dave's game against erin); bob's page shows it to anyone; alice
// challenges bob from his page and bob finds the challenge on his own
// page; she unfollows him. A visitor without an account is sent to log
// in, following oneself, a bad form and an unknown player are refused
// with a clear message, and change nothing.
func TestFollowPlayers(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice, bob, carol := s.Account("alice"), s.Account("bob"), s.Account("carol")
		dave, erin := s.Account("dave"), s.Account("erin")
		follow := func(c *http.Client, name, on string) (int, http.Header, string) {
			_, _, page := s.Get(c, "/en/players/"+name)
			return s.Post(c, "/en/players/"+name+"/follow", url.Values{"_csrf": {s.Csrf(page)}, "follow": {on}, "back": {"/en/players/" + name}}, nil)
		}
		guest := s.Browser()
		if code, hdr, _ := follow(guest, "bob", "on"); code != http.StatusSeeOther || !strings.HasPrefix(hdr.Get("Location"), "/en/login?next=") {
			t.Errorf("a visitor follows: %d %s, want 303 to the login", code, hdr.Get("Location"))
		}
		for _, tc := range []struct {
			name, on string
			code     int
			want     string
		}{
			{"alice", "on", http.StatusUnprocessableEntity, "You cannot follow yourself."},
			{"bob", "yes", http.StatusBadRequest, ""},
			{"nobody", "on", http.StatusNotFound, ""},
		} {
			if code, _, page := follow(alice, tc.name, tc.on); code != tc.code || !strings.Contains(page, tc.want) {
				t.Errorf("follow %s %s: %d, want %d %q", tc.name, tc.on, code, tc.code, tc.want)
			}
		}
		_, _, page := s.Get(alice, "/en/following")
		if !strings.Contains(page, "You follow nobody yet.") {
			t.Error("alice follows someone after the refusals")
		}
		if code, hdr, _ := follow(alice, "bob", "on"); code != http.StatusSeeOther || hdr.Get("Location") != "/en/players/bob" {
			t.Fatalf("follow bob: %d %s", code, hdr.Get("Location"))
		}
		if _, _, page := s.Get(alice, "/en/players/bob"); !strings.Contains(page, ">Unfollow<") || strings.Contains(page, ">Follow<") {
			t.Error("bob's page does not offer alice to unfollow him")
		}
		bc, bcN := s.FormGameWith(bob, carol, "en", "abapa")
		s.Move(bc, "C", nil)
		s.Move(bcN, "f", nil)
		s.FormGameWith(dave, erin, "en", "wari")
		g, err := db.LoadGame(t.Context(), bc.Game[strings.LastIndex(bc.Game, "/")+1:])
		if err != nil {
			t.Fatal(err)
		}
		watch := `href="/en/watch/` + g.SpectatorKey + `"`
		watchLinks := regexp.MustCompile(`href="/en/watch/[a-z2-7]+"`)
		_, _, home := s.Get(alice, "/en/")
		i := strings.Index(home, "Players you follow, playing now")
		if i < 0 || !strings.Contains(home[i:], watch) {
			t.Errorf("alice's home page does not show bob's game under the followed players")
		}
		_, _, page = s.Get(alice, "/en/following")
		listed := regexp.MustCompile(`>bob</a>\s*</span>\s*<a class="pill turn-mine" ` + regexp.QuoteMeta(watch))
		if !listed.MatchString(page) || len(watchLinks.FindAllString(page, -1)) != 2 {
			t.Errorf("the list of the followed: bob's game not linked once in the list and once in the games (%d links)", len(watchLinks.FindAllString(page, -1)))
		}
		_, _, list := s.Do(alice, "GET", "/en/games/now?following=1", nil, map[string]string{"HX-Request": "true"})
		if links := watchLinks.FindAllString(list, -1); len(links) != 1 || links[0] != watch {
			t.Errorf("the refreshed list of the followed's games: %v, want bob's only", links)
		}
		if _, _, page := s.Get(nil, "/en/players/bob"); !strings.Contains(page, "Playing now") || !strings.Contains(page, watch) {
			t.Error("bob's page does not show his game in play to a visitor")
		}
		// A challenge from bob's page: only bob may take it.
		_, _, page = s.Get(alice, "/en/players/bob")
		if !strings.Contains(page, `name="for" value="bob"`) {
			t.Fatal("bob's page has no challenge form for alice")
		}
		code, _, _ := s.Post(alice, "/en/lobby/challenges", url.Values{"_csrf": {s.Csrf(page)}, "for": {"bob"}, "rules": {"wari"}, "seat": {"random"}, "clock": {"5+3"}}, nil)
		if code >= 400 {
			t.Fatalf("the challenge: %d", code)
		}
		if _, _, own := s.Get(bob, "/en/players/bob"); !strings.Contains(own, "alice") || !strings.Contains(own, "Wari") {
			t.Error("bob's own page does not show alice's challenge")
		}
		if code, _, _ := follow(alice, "bob", "off"); code != http.StatusSeeOther {
			t.Errorf("unfollow: %d", code)
		}
		if _, _, page := s.Get(alice, "/en/following"); !strings.Contains(page, "You follow nobody yet.") {
			t.Error("alice still follows bob")
		}
		for _, lang := range []string{"cs", "it"} {
			code, _, page := s.Get(alice, "/"+lang+"/following")
			checkPage(t, lang, "/"+lang+"/following", code, page)
			code, _, page = s.Get(alice, "/"+lang+"/players/bob")
			checkPage(t, lang, "/"+lang+"/players/bob", code, page)
		}
	})
}
