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

// TestAfterGame: once a game is over, each player's page offers a
// rematch, a new opponent with the same settings (a challenge in the
// lobby: Wari, 5+3), the computer with the same rules, the review (the
// replay) and the lobby; a spectator gets none of them.
func TestAfterGame(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice, bob := s.Account("alice"), s.Account("bob")
		_, _, page := s.Get(alice, "/en/games/new")
		code, hdr, _ := s.Post(alice, "/en/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {"wari"}, "seat": {"south"}, "clock": {"5+3"}}, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("create: %d", code)
		}
		south, north := handlerstest.Seated{C: alice, Game: hdr.Get("Location")}, handlerstest.Seated{C: bob, Game: hdr.Get("Location")}
		_, _, page = s.Get(bob, south.Game+"/join")
		s.Post(bob, south.Game+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		s.PlayAndResign(south, north, 2)
		_, _, page = s.Get(alice, south.Game)
		for _, want := range []string{`id="after-h"`, `action="` + south.Game + `/rematch"`, `action="/en/lobby/challenges"`,
			`href="/en/computer?level=1&amp;rules=wari"`, `href="` + south.Game + `/replay"`, `href="/en/"`} {
			if !strings.Contains(page, want) {
				t.Errorf("the finished game's page without %s", want)
			}
		}
		_, _, watch := s.Get(nil, south.Game)
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
		code, hdr, _ = s.Post(alice, "/en/lobby/challenges", fields, nil)
		if code != http.StatusSeeOther || hdr.Get("Location") != "/en/lobby" {
			t.Fatalf("new opponent: %d %q", code, hdr.Get("Location"))
		}
		_, _, lobby := s.Get(s.Browser(), "/en/lobby")
		if !strings.Contains(lobby, "<td>Wari</td><td>5+3</td>") {
			t.Errorf("the lobby does not list alice's challenge of Wari 5+3: %s", lobby[strings.Index(lobby, "<main"):])
		}
	})
}
