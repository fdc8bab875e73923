package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestAPIClock: POST /api/v1/games takes a clock; GET /api/v1/games/{id}
// shows each side's time and whose clock runs (none during the first
// moves, when first_move_ms counts down the 30 s of the first move), and
// null for a game without one. Bad clocks are refused with 422.
func TestAPIClock(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	code, g := s.Api("POST", "/api/v1/games", "", map[string]any{"clock": map[string]int{"initial": 300, "increment": 3}})
	if code != http.StatusCreated {
		t.Fatalf("create with a clock: %d %v", code, g)
	}
	id, south := g["id"].(string), g["token"].(string)
	if code, _ := s.Api("POST", "/api/v1/games/"+id+"/join", "", nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	_, j := s.Api("GET", "/api/v1/games/"+id, "", nil)
	clock, _ := j["clock"].(map[string]any)
	if clock == nil || clock["south_ms"] != 300000.0 || clock["north_ms"] != 300000.0 || clock["running"] != nil ||
		clock["initial"] != 300.0 || clock["increment"] != 3.0 || clock["first_move_ms"].(float64) > 30000 {
		t.Errorf("clock after the join: %v", j["clock"])
	}
	if code, j := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != http.StatusOK || j["clock"] == nil {
		t.Errorf("move: %d %v", code, j)
	}
	for _, bad := range []map[string]any{
		{"clock": map[string]int{"initial": 9}}, {"clock": map[string]int{"initial": 10801}},
		{"clock": map[string]int{"initial": 60, "increment": 61}}, {"clock": map[string]int{"days": 2}},
		{"clock": map[string]int{"days": 1, "initial": 60}}, {"clock": map[string]int{}},
	} {
		if code, j := s.Api("POST", "/api/v1/games", "", bad); code != http.StatusUnprocessableEntity ||
			!strings.Contains(j["error"].(string), "10 seconds to 3 hours") {
			t.Errorf("create with %v: %d %v, want 422 saying the bounds", bad, code, j)
		}
	}
	// The form says the same of a custom clock out of bounds (6 s).
	c := s.Browser()
	_, _, form := s.Get(c, "/en/games/new")
	code, _, page := s.Post(c, "/en/games/new", url.Values{"_csrf": {s.Csrf(form)}, "rules": {"abapa"}, "seat": {"south"},
		"clock": {"custom"}, "minutes": {"0.1"}, "increment": {"0"}}, nil)
	if code != http.StatusUnprocessableEntity || !strings.Contains(page, "10 seconds to 3 hours") {
		t.Errorf("a custom clock of 6 s: %d\n%s", code, page)
	}
	code, g = s.Api("POST", "/api/v1/games", "", map[string]any{"clock": map[string]int{"days": 3}})
	if code != http.StatusCreated {
		t.Fatalf("correspondence: %d %v", code, g)
	}
	_, _, raw := s.Do(nil, "GET", "/api/v1/games/"+g["id"].(string), nil, nil)
	if !strings.Contains(raw, `"clock":{"south_ms":0,"north_ms":0,"running":null,"days":3}`) {
		t.Errorf("a correspondence game waiting for its opponent: %s", raw)
	}
	untimed, _, _ := s.NewAPIGame("abapa")
	_, _, raw = s.Do(nil, "GET", "/api/v1/games/"+untimed, nil, nil)
	if !strings.Contains(raw, `"clock":null`) || !strings.Contains(raw, `"rated":false`) {
		t.Errorf("a game without a clock: %s", raw)
	}
}

// TestAPIClaim: nothing to claim while the opponent is there (409), the
// player to move cannot claim, a bad result is 422.
func TestAPIClaim(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	id, south, north := s.NewAPIGame("abapa")
	if code, j := s.Api("POST", "/api/v1/games/"+id+"/claim", north, map[string]string{"result": "win"}); code != http.StatusConflict {
		t.Errorf("claim at once: %d %v, want 409", code, j)
	}
	if code, _ := s.Api("POST", "/api/v1/games/"+id+"/claim", south, map[string]string{"result": "lose"}); code != http.StatusUnprocessableEntity {
		t.Errorf("claim of a bad result: %d, want 422", code)
	}
	if code, _ := s.Api("POST", "/api/v1/games/"+id+"/claim", "", map[string]string{"result": "win"}); code != http.StatusUnauthorized {
		t.Errorf("claim without a token: %d, want 401", code)
	}
}

// TestAPIChallenges: a challenge is listed while open, accepted once
// (409 the second time), and its creator's token holds the seat in the
// game it became.
func TestAPIChallenges(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		code, ch := s.Api("POST", "/api/v1/challenges", "", map[string]any{"rules": "wari", "seat": "south",
			"clock": map[string]int{"initial": 180, "increment": 2}})
		if code != http.StatusCreated || ch["id"] == nil || ch["token"] == nil {
			t.Fatalf("create: %d %v", code, ch)
		}
		id, token := ch["id"].(string), ch["token"].(string)
		_, _, raw := s.Do(nil, "GET", "/api/v1/challenges", nil, nil)
		want := `[{"id":"` + id + `","rules":"wari","clock":{"initial":180,"increment":2},"rated":false,"by":null,"seat":"south"}]`
		if raw != want+"\n" {
			t.Errorf("list:\n%s\nwant\n%s", raw, want)
		}
		_, _, raw = s.Do(nil, "GET", "/api/v1/challenges/"+id, nil, map[string]string{"Authorization": "Bearer " + token})
		if !strings.Contains(raw, `"game":null,"status":"open"`) {
			t.Errorf("the open challenge: %s", raw)
		}
		if code, _ := s.Api("POST", "/api/v1/challenges/"+id+"/accept", token, nil); code != http.StatusConflict {
			t.Errorf("the creator accepts: %d, want 409", code)
		}
		code, acc := s.Api("POST", "/api/v1/challenges/"+id+"/accept", "", nil)
		if code != http.StatusOK || acc["seat"] != "north" || acc["game"] == nil || acc["token"] == nil {
			t.Fatalf("accept: %d %v", code, acc)
		}
		if code, j := s.Api("POST", "/api/v1/challenges/"+id+"/accept", "", nil); code != http.StatusConflict {
			t.Errorf("accept again: %d %v, want 409", code, j)
		}
		game := acc["game"].(string)
		_, got := s.Api("GET", "/api/v1/challenges/"+id, "", nil)
		if got["game"] != game || got["status"] != "taken" {
			t.Errorf("the taken challenge: %v", got)
		}
		if code, j := s.Api("POST", "/api/v1/games/"+game+"/moves", token, map[string]string{"pit": "C"}); code != http.StatusOK || j["rules"] != "wari" {
			t.Errorf("the creator's first move: %d %v", code, j)
		}
		if _, _, raw = s.Do(nil, "GET", "/api/v1/challenges", nil, nil); raw != "[]\n" {
			t.Errorf("list after the game started: %s", raw)
		}
		if code, j := s.Api("POST", "/api/v1/challenges", "", map[string]any{"rated": true, "clock": map[string]int{"days": 1}}); code != http.StatusUnprocessableEntity {
			t.Errorf("a rated challenge without an account: %d %v, want 422", code, j)
		}
		if code, _ := s.Api("POST", "/api/v1/challenges/aaaaaaaaaaaa/accept", "", nil); code != http.StatusNotFound {
			t.Errorf("accept a missing challenge: %d, want 404", code)
		}
	})
}

// TestQuickPairingPages: two visitors press the same quick-pairing
// button: the second goes straight to the game, the first's lobby list
// sends them there (HX-Redirect, or the lobby page's redirect without
// JavaScript); both game pages show the running clocks.
func TestQuickPairingPages(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	press := func(c *http.Client) (int, string) {
		_, _, page := s.Get(c, "/en/lobby")
		checkPage(t, "en", "/en/lobby", 200, page)
		code, hdr, _ := s.Post(c, "/en/lobby/quick", url.Values{"_csrf": {s.Csrf(page)}, "clock": {"3+2"}}, nil)
		return code, hdr.Get("Location")
	}
	a, b := s.Browser(), s.Browser()
	if code, to := press(a); code != http.StatusSeeOther || to != "/en/lobby" {
		t.Fatalf("first press: %d to %q, want the lobby", code, to)
	}
	_, _, page := s.Get(a, "/en/lobby")
	if !strings.Contains(page, "Waiting for an opponent: Abapa (standard), 3+2") || !strings.Contains(page, `http-equiv="refresh"`) {
		t.Errorf("the waiting lobby page does not say so")
	}
	_, _, home := s.Get(b, "/en/")
	if !strings.Contains(home, "Guest") || !strings.Contains(home, "/en/lobby/list") || !strings.Contains(home, "3+2") {
		t.Errorf("the home page does not list the open challenge")
	}
	code, game := press(b)
	if code != http.StatusSeeOther || !strings.HasPrefix(game, "/en/games/") {
		t.Fatalf("second press: %d to %q, want a game", code, game)
	}
	_, hdr, _ := s.Do(a, "GET", "/en/lobby/list", nil, map[string]string{"HX-Request": "true"})
	if hdr.Get("HX-Redirect") != game {
		t.Errorf("the first visitor's poll: HX-Redirect %q, want %q", hdr.Get("HX-Redirect"), game)
	}
	for _, c := range []*http.Client{a, b} {
		code, _, page := s.Get(c, game)
		if code != http.StatusOK || strings.Count(page, `role="timer"`) != 2 || !strings.Contains(page, ">3:00<") ||
			!strings.Contains(page, `id="presence"`) {
			t.Errorf("game page: %d, clocks %d", code, strings.Count(page, `role="timer"`))
		}
		checkPage(t, "en", game, 200, page)
	}
	for _, lang := range []string{"cs", "it"} {
		_, _, page := s.Get(s.Browser(), "/"+lang+"/lobby")
		checkPage(t, lang, "/"+lang+"/lobby", 200, page)
	}
}

// TestRatingPages: a player's page shows each rating with its history as
// an SVG chart (title, description) and a table; the leaderboard lists
// the players of a category.
func TestRatingPages(t *testing.T) {
	db := handlerstest.ModelsOpenSQLite(t)
	s := handlerstest.NewSite(t, db)
	ctx := context.Background()
	ann := &models.User{Username: "ann", PasswordHash: "x"}
	bob := &models.User{Username: "bob", PasswordHash: "x"}
	for _, u := range []*models.User{ann, bob} {
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range []float64{1662, 1700} {
		g := &models.Game{Rules: "abapa", Status: "over", Result: "south", Rated: true, ClockInitial: 60}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		err := db.ApplyRatings(ctx, g.ID, "abapa-realtime", [2]uint{ann.ID, bob.ID}, models.Rating{Rating: 1500, Deviation: 350, Volatility: 0.06},
			func(old [2]models.Rating) [2]models.Rating {
				return [2]models.Rating{{Rating: r, Deviation: 290, Volatility: 0.06}, {Rating: 1400 - float64(i), Deviation: 290, Volatility: 0.06}}
			})
		if err != nil {
			t.Fatal(err)
		}
	}
	_, _, page := s.Get(nil, "/en/players/ann")
	checkPage(t, "en", "/en/players/ann", 200, page)
	for _, want := range []string{"Abapa (standard), real time: 1700?", "<svg class=\"rating-chart\"", "<title id=\"chart-t-abapa-realtime\">",
		"3 points, from 1500 to 1700", "<td>1662</td>", "2 rated games"} {
		if !strings.Contains(page, want) {
			t.Errorf("ann's page lacks %q", want)
		}
	}
	// The leaderboard lists players with 10 rated games in the category,
	// the last in the past 30 days (issue 19): nobody yet.
	_, _, page = s.Get(nil, "/en/players?rating=abapa-realtime")
	checkPage(t, "en", "/en/players", 200, page)
	if strings.Contains(page, ">ann<") || strings.Contains(page, ">bob<") ||
		!strings.Contains(page, "at least 10 rated games in this category, the last of them in the past 30 days") {
		t.Errorf("a leaderboard of players with 2 rated games:\n%s", page)
	}
	if err := db.Gorm.Exec("UPDATE ratings SET games = 10").Error; err != nil {
		t.Fatal(err)
	}
	_, _, page = s.Get(nil, "/en/players?rating=abapa-realtime")
	if i, j := strings.Index(page, ">ann<"), strings.Index(page, ">bob<"); i < 0 || j < i || !strings.Contains(page, "<td>1700</td>") {
		t.Errorf("leaderboard: ann (1700) before bob? %d %d", i, j)
	}
	if err := db.Gorm.Exec("UPDATE ratings SET updated_at = ? WHERE user_id = ?", time.Now().AddDate(0, 0, -31).UTC(), bob.ID).Error; err != nil {
		t.Fatal(err)
	}
	_, _, page = s.Get(nil, "/en/players?rating=abapa-realtime")
	if !strings.Contains(page, ">ann<") || strings.Contains(page, ">bob<") {
		t.Errorf("leaderboard: bob, whose last game is 31 days old, is listed, or ann is not")
	}
}
