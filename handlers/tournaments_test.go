package handlers_test

import (
	"bufio"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

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

// TestLiveStandings: a watcher of a tournament page gets the standings
// again (event "standings") when a game of the tournament ends: here
// bob's win, which gives him 2 points.
func TestLiveStandings(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s := newSite(t, db)
		alice, bob := s.account("alice"), s.account("bob")
		var created struct{ ID string }
		s.apiAs(alice, "POST", "/api/v1/tournaments", map[string]any{"kind": "arena", "name": "Live", "rules": "abapa",
			"clock": map[string]int{"initial": 60}, "minutes": 30, "starts_in": 0}, &created)
		for _, c := range []*http.Client{alice, bob} {
			s.apiAs(c, "POST", "/api/v1/tournaments/"+created.ID+"/join", nil, nil)
		}
		a := s.waitGame(alice, created.ID)
		watcher := s.browser()
		_, _, page := s.get(watcher, "/en/tournaments/"+created.ID)
		if !strings.Contains(page, `sse-connect="/en/tournaments/`+created.ID+`/events"`) {
			t.Fatalf("no event stream in the page:\n%s", page)
		}
		req, _ := http.NewRequestWithContext(t.Context(), "GET", s.srv.URL+"/en/tournaments/"+created.ID+"/events", nil)
		res, err := watcher.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		events := make(chan string, 8)
		go func() {
			sc := bufio.NewScanner(res.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			var msg strings.Builder
			for sc.Scan() {
				msg.WriteString(sc.Text() + "\n")
				if sc.Text() == "" {
					if strings.Contains(msg.String(), "event: standings") {
						events <- msg.String()
					}
					msg.Reset()
				}
			}
			close(events)
		}()
		if code, _ := s.api("POST", "/api/v1/games/"+a.Game.ID+"/resign", a.Game.Token, nil); code != http.StatusOK {
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
