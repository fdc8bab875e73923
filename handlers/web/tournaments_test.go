package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestTournamentPages: without JavaScript, a player creates an arena
// through the form (a bad one is refused with its reason and its values
// kept), joins it through the page's form, and sees their own row marked
// in the standings; the pages exist in the three languages.
func TestTournamentPages(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice := s.Account("alice")
		_, _, page := s.Get(alice, "/en/tournaments")
		form := url.Values{"_csrf": {s.Csrf(page)}, "name": {"Evening arena"}, "kind": {"arena"}, "rules": {"abapa"},
			"clock": {"3+2"}, "starts_in": {"0"}, "duration": {"2"}, "rounds": {"5"}, "rated": {"on"}}
		code, _, body := s.Post(alice, "/en/tournaments", form, nil)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "An arena lasts 5 to 720 minutes.") ||
			!strings.Contains(body, `value="Evening arena"`) {
			t.Fatalf("2 minutes: %d\n%s", code, body)
		}
		form.Set("duration", "45")
		code, hdr, _ := s.Post(alice, "/en/tournaments", form, nil)
		loc := hdr.Get("Location")
		if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/en/tournaments/") {
			t.Fatalf("create: %d %q", code, loc)
		}
		_, _, page = s.Get(alice, loc)
		if !strings.Contains(page, "Evening arena") || !strings.Contains(page, "Nobody has joined yet.") {
			t.Fatalf("page:\n%s", page)
		}
		if code, hdr, _ := s.Post(alice, loc+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil); code != http.StatusSeeOther || hdr.Get("Location") != loc {
			t.Fatalf("join: %d %q", code, hdr.Get("Location"))
		}
		_, _, page = s.Get(alice, loc)
		if !strings.Contains(page, `class="mine" aria-current`) || !strings.Contains(page, "Leave the tournament") {
			t.Errorf("after joining:\n%s", page)
		}
		for _, lang := range []string{"cs", "it"} {
			code, _, page := s.Get(nil, strings.Replace(loc, "/en/", "/"+lang+"/", 1))
			if code != http.StatusOK || !strings.Contains(page, "Evening arena") {
				t.Errorf("%s: %d", lang, code)
			}
		}
		if code, _, page := s.Get(nil, "/en/tournaments"); code != http.StatusOK || !strings.Contains(page, "Evening arena") ||
			!strings.Contains(page, "Tournaments are made by registered players.") {
			t.Errorf("list: %d", code)
		}
		if code, _, page := s.Get(nil, "/en/"); code != http.StatusOK || !strings.Contains(page, "Evening arena") {
			t.Errorf("home reminders: %d", code)
		}
		if code, _, _ := s.Get(nil, "/en/tournaments/aaaaaaaaaaaa"); code != http.StatusNotFound {
			t.Errorf("missing: %d", code)
		}
	})
}

// TestLiveStandings: a watcher of a tournament page gets the standings
// again (event "standings") when a game of the tournament ends: here
// bob's win (alice resigns after the first moves), which gives him 2
// points.
func TestLiveStandings(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice, bob := s.Account("alice"), s.Account("bob")
		var created struct{ ID string }
		s.ApiAs(alice, "POST", "/api/v1/tournaments", map[string]any{"kind": "arena", "name": "Live", "rules": "abapa",
			"clock": map[string]int{"initial": 60}, "minutes": 30, "starts_in": 0}, &created)
		for _, c := range []*http.Client{alice, bob} {
			s.ApiAs(c, "POST", "/api/v1/tournaments/"+created.ID+"/join", nil, nil)
		}
		a := s.WaitGame(alice, created.ID)
		s.FirstMoves(a, s.WaitGame(bob, created.ID))
		watcher := s.Browser()
		_, _, page := s.Get(watcher, "/en/tournaments/"+created.ID)
		if !strings.Contains(page, `sse-connect="/en/tournaments/`+created.ID+`/events"`) {
			t.Fatalf("no event stream in the page:\n%s", page)
		}
		req, _ := http.NewRequestWithContext(t.Context(), "GET", s.Srv.URL+"/en/tournaments/"+created.ID+"/events", nil)
		res, err := watcher.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		events := handlerstest.Events(res.Body, handlerstest.Named("standings"))
		if code, _ := s.Api("POST", "/api/v1/games/"+a.Game.ID+"/resign", a.Game.Token, nil); code != http.StatusOK {
			t.Fatalf("resign: %d", code)
		}
		timeout := time.After(15 * time.Second)
		for {
			select {
			case ev, ok := <-events:
				if !ok {
					t.Fatal("the stream ended")
				}
				// Bob goes first, with 2 points (alice, who joined first,
				// led the tie before).
				bob, alice := strings.Index(ev, "bob</a>"), strings.Index(ev, "alice</a>")
				if bob >= 0 && bob < alice && strings.Contains(ev[bob:alice], "<td>2</td>") {
					return
				}
			case <-timeout:
				t.Fatal("no standings with bob's 2 points")
			}
		}
	})
}
