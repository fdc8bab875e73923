package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/models"
)

// TestBadRequests covers mistakes of clients and bots: each gets a clear
// answer and changes nothing, never a 500.
func TestBadRequests(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s := newSite(t, db)
		id, south, _ := s.newAPIGame("abapa")

		// Ids that cannot exist: 404, also with bytes PostgreSQL refuses.
		for _, p := range []string{"/api/v1/games/%00", "/api/v1/games/%FF%FE", "/en/games/%C3%28", "/en/watch/%FF", "/join/%00", "/join/a%20b%3Fc"} {
			if code, _, _ := s.get(nil, p); code != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, code)
			}
		}
		// A form body on the JSON API: 415, nothing stored.
		code, _, _ := s.do(nil, "POST", "/api/v1/games/"+id+"/moves", strings.NewReader("pit=C"),
			map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Bearer " + south})
		if code != http.StatusUnsupportedMediaType {
			t.Errorf("form body: %d, want 415", code)
		}
		if n, _ := stored(t, db, id); n != 0 {
			t.Fatalf("%d moves stored after refused requests", n)
		}
		// The bearer scheme is case-insensitive; the media type too.
		code, _, _ = s.do(nil, "POST", "/api/v1/games/"+id+"/moves", strings.NewReader(`{"pit":"C"}`),
			map[string]string{"Content-Type": "Application/JSON; charset=utf-8", "Authorization": "bearer " + south})
		if code != http.StatusOK {
			t.Errorf("lower-case bearer: %d, want 200", code)
		}
		// HEAD answers like GET, without a body.
		if code, _, body := s.do(nil, "HEAD", "/en/", nil, nil); code != http.StatusOK || body != "" {
			t.Errorf("HEAD /en/: %d %q", code, body)
		}
	})
}

// TestCSRFTokenNotInURL: a token in the query string is refused, so that
// it never ends up in logs.
func TestCSRFTokenNotInURL(t *testing.T) {
	s := newSite(t, modelsOpenSQLite(t))
	c := s.browser()
	_, _, page := s.get(c, "/en/games/new")
	tok := s.csrf(page)
	code, _, _ := s.post(c, "/en/games/new?_csrf="+url.QueryEscape(tok), url.Values{"rules": {"abapa"}, "seat": {"south"}}, nil)
	if code != http.StatusForbidden {
		t.Errorf("token in the URL: %d, want 403", code)
	}
	code, _, _ = s.post(c, "/en/games/new", url.Values{"rules": {"abapa"}, "seat": {"south"}, "_csrf": {tok}}, nil)
	if code != http.StatusSeeOther {
		t.Errorf("token in the form: %d, want 303", code)
	}
}

// TestSeatsOfGamesInPlayAreKept: a browser seated in 24 games being played
// is refused a 25th (409) rather than silently losing a seat; finishing one
// makes room, and so do games still waiting for an opponent.
func TestSeatsOfGamesInPlayAreKept(t *testing.T) {
	s := newSite(t, modelsOpenSQLite(t))
	c, friend := s.browser(), s.browser()
	_, _, page := s.get(c, "/en/games/new")
	tok := s.csrf(page)
	_, _, page = s.get(friend, "/en/games/new")
	friendTok := s.csrf(page)
	newGame := func() (int, string) {
		code, hdr, _ := s.post(c, "/en/games/new", url.Values{"rules": {"abapa"}, "seat": {"south"}, "_csrf": {tok}}, nil)
		return code, hdr.Get("Location")
	}
	var first string
	for i := 0; i < 24; i++ {
		code, game := newGame()
		if code != http.StatusSeeOther {
			t.Fatalf("game %d: %d", i+1, code)
		}
		if code, _, _ := s.post(friend, game+"/join", url.Values{"_csrf": {friendTok}}, nil); code != http.StatusSeeOther {
			t.Fatalf("join %d: %d", i+1, code)
		}
		if i == 0 {
			first = game
		}
	}
	if code, _ := newGame(); code != http.StatusConflict {
		t.Fatalf("25th game in play: %d, want 409", code)
	}
	if code, _, page := s.get(c, first); code != http.StatusOK || !strings.Contains(page, `name="pit"`) {
		t.Fatalf("first game after the refusal: %d, seat kept = %v", code, strings.Contains(page, `name="pit"`))
	}
	if code, _, _ := s.post(c, first+"/resign", url.Values{"_csrf": {tok}}, nil); code != http.StatusSeeOther {
		t.Fatalf("resign: %d", code)
	}
	if code, _ := newGame(); code != http.StatusSeeOther {
		t.Fatalf("new game after finishing one: %d, want 303", code)
	}
	// The new game waits for an opponent: a further one takes its place.
	if code, _ := newGame(); code != http.StatusSeeOther {
		t.Fatalf("a game while the oldest droppable seat is a waiting game: %d, want 303", code)
	}
}

// TestNamNamReplayShowsRounds: the replay of a finished Nam-nam match
// names the round of the position shown and marks the move after which a
// round ended. The match: the players agree to end round 1 at once (24 each, so
// North starts round 2), North plays a, then they agree to end round 2 and,
// between rounds, the match.
func TestNamNamReplayShowsRounds(t *testing.T) {
	db := modelsOpenSQLite(t)
	s := newSite(t, db)
	start := "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0"
	g := &models.Game{Rules: "namnam", Fours: "last", StartPosition: start, Position: start,
		Status: "over", Result: "draw", Reason: "agreement", Agreements: "0,1,1"}
	if err := db.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	if err := db.Gorm.Create(&models.Move{GameID: g.ID, Ply: 1, Pit: 6, Label: "a"}).Error; err != nil {
		t.Fatal(err)
	}
	code, _, page := s.get(nil, "/en/games/"+g.ID+"/replay?ply=1")
	if code != http.StatusOK || !strings.Contains(page, "Round 2") || !strings.Contains(page, "end of round 2") {
		t.Errorf("replay at move 1: %d; want the board in round 2 and move a marked as the end of round 2:\n%s", code, page)
	}
	if _, _, page := s.get(nil, "/en/games/"+g.ID+"/replay?ply=0"); !strings.Contains(page, "Round 2") {
		t.Errorf("replay at the start: want round 2 (round 1 was agreed before any move)")
	}
}
