package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/models"
)

// TestAfterGame: once a game is over, each player's page offers a
// rematch, a new opponent with the same settings (a challenge in the
// lobby: Wari, 5+3), the computer with the same rules, the review (the
// replay) and the lobby; a spectator gets none of them.
func TestAfterGame(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s := newSite(t, db)
		alice, bob := s.account("alice"), s.account("bob")
		_, _, page := s.get(alice, "/en/games/new")
		code, hdr, _ := s.post(alice, "/en/games/new", url.Values{"_csrf": {s.csrf(page)}, "rules": {"wari"}, "seat": {"south"}, "clock": {"5+3"}}, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("create: %d", code)
		}
		south, north := seated{alice, hdr.Get("Location")}, seated{bob, hdr.Get("Location")}
		_, _, page = s.get(bob, south.game+"/join")
		s.post(bob, south.game+"/join", url.Values{"_csrf": {s.csrf(page)}}, nil)
		s.playAndResign(south, north, 2)
		_, _, page = s.get(alice, south.game)
		for _, want := range []string{`id="after-h"`, `action="` + south.game + `/rematch"`, `action="/en/lobby/challenges"`,
			`href="/en/computer?level=1&amp;rules=wari"`, `href="` + south.game + `/replay"`, `href="/en/"`} {
			if !strings.Contains(page, want) {
				t.Errorf("the finished game's page without %s", want)
			}
		}
		_, _, watch := s.get(nil, south.game)
		if strings.Contains(watch, `id="after-h"`) {
			t.Error("a spectator gets the after-game panel")
		}
		// New opponent: the form's fields, as the page has them.
		i := strings.Index(page, `action="/en/lobby/challenges"`)
		form := page[i : i+strings.Index(page[i:], "</form>")]
		fields := url.Values{}
		for _, m := range regexp.MustCompile(`name="([a-z_]+)" value="([^"]*)"`).FindAllStringSubmatch(form, -1) {
			fields.Set(m[1], m[2])
		}
		if fields.Get("rules") != "wari" || fields.Get("clock") != "5+3" || fields.Get("seat") != "random" {
			t.Errorf("new opponent's settings %v", fields)
		}
		code, hdr, _ = s.post(alice, "/en/lobby/challenges", fields, nil)
		if code != http.StatusSeeOther || hdr.Get("Location") != "/en/lobby" {
			t.Fatalf("new opponent: %d %q", code, hdr.Get("Location"))
		}
		_, _, lobby := s.get(s.browser(), "/en/lobby")
		if !strings.Contains(lobby, "<td>Wari</td><td>5+3</td>") {
			t.Errorf("the lobby does not list alice's challenge of Wari 5+3: %s", lobby[strings.Index(lobby, "<main"):])
		}
	})
}
