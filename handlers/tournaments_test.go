package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/models"
)

// TestTournamentPages: without JavaScript, a player creates an arena
// through the form (a bad one is refused with its reason and its values
// kept), joins it through the page's form, and sees their own row marked
// in the standings; the pages exist in the three languages.
func TestTournamentPages(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s := newSite(t, db)
		alice := s.account("alice")
		_, _, page := s.get(alice, "/en/tournaments")
		form := url.Values{"_csrf": {s.csrf(page)}, "name": {"Evening arena"}, "kind": {"arena"}, "rules": {"abapa"},
			"clock": {"3+2"}, "starts_in": {"0"}, "duration": {"2"}, "rounds": {"5"}, "rated": {"on"}}
		code, _, body := s.post(alice, "/en/tournaments", form, nil)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "An arena lasts 5 to 720 minutes.") ||
			!strings.Contains(body, `value="Evening arena"`) {
			t.Fatalf("2 minutes: %d\n%s", code, body)
		}
		form.Set("duration", "45")
		code, hdr, _ := s.post(alice, "/en/tournaments", form, nil)
		loc := hdr.Get("Location")
		if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/en/tournaments/") {
			t.Fatalf("create: %d %q", code, loc)
		}
		_, _, page = s.get(alice, loc)
		if !strings.Contains(page, "Evening arena") || !strings.Contains(page, "Nobody has joined yet.") {
			t.Fatalf("page:\n%s", page)
		}
		if code, hdr, _ := s.post(alice, loc+"/join", url.Values{"_csrf": {s.csrf(page)}}, nil); code != http.StatusSeeOther || hdr.Get("Location") != loc {
			t.Fatalf("join: %d %q", code, hdr.Get("Location"))
		}
		_, _, page = s.get(alice, loc)
		if !strings.Contains(page, `class="mine" aria-current`) || !strings.Contains(page, "Leave the tournament") {
			t.Errorf("after joining:\n%s", page)
		}
		for _, lang := range []string{"cs", "it"} {
			code, _, page := s.get(nil, strings.Replace(loc, "/en/", "/"+lang+"/", 1))
			if code != http.StatusOK || !strings.Contains(page, "Evening arena") {
				t.Errorf("%s: %d", lang, code)
			}
		}
		if code, _, page := s.get(nil, "/en/tournaments"); code != http.StatusOK || !strings.Contains(page, "Evening arena") ||
			!strings.Contains(page, "Tournaments are made by registered players.") {
			t.Errorf("list: %d", code)
		}
		if code, _, page := s.get(nil, "/en/"); code != http.StatusOK || !strings.Contains(page, "Evening arena") {
			t.Errorf("home reminders: %d", code)
		}
		if code, _, _ := s.get(nil, "/en/tournaments/aaaaaaaaaaaa"); code != http.StatusNotFound {
			t.Errorf("missing: %d", code)
		}
	})
}
