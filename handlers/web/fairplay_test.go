package web_test

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/game"
	"oware/handlers"
	"oware/handlers/handlerstest"
)

// TestComputerOnTheClock: a game against the computer may have a clock
// (issue 34; issue 19 had refused them while a clock could be 0 ms on both
// sides, which TimeControl.Check now refuses). The computer form offers no
// clock first, then the real-time presets; the API and the form start a
// clocked game with each seat; a time control out of bounds is refused
// with 422 and the reason, and creates nothing.
func TestComputerOnTheClock(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	_, _, form := s.Get(nil, "/en/computer")
	for _, want := range []string{`<select id="cp-clock" name="clock">`, `<option value="none">No clock</option>`, `<option value="5+3">5+3</option>`} {
		if !strings.Contains(form, want) {
			t.Errorf("the computer form lacks %s", want)
		}
	}
	for _, seat := range []string{"south", "north"} {
		code, j := s.Api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "seat": seat,
			"clock": map[string]int{"initial": 60, "increment": 1}, "opponent": map[string]any{"computer": 2, "instant": true}})
		if code != http.StatusCreated {
			t.Fatalf("API, %s against the computer on 1+1: %d %v, want 201", seat, code, j)
		}
		_, g := s.Api("GET", "/api/v1/games/"+j["id"].(string), "", nil)
		if clock, _ := g["clock"].(map[string]any); clock == nil || clock["initial"] != 60.0 {
			t.Errorf("API, %s: the game's clock is %v, want initial 60", seat, g["clock"])
		}
		c := s.Browser()
		_, _, page := s.Get(c, "/en/computer")
		v := url.Values{"_csrf": {s.Csrf(page)}, "rules": {"abapa"}, "level": {"2"}, "seat": {seat}, "clock": {"3+2"}}
		if code, _, body := s.Post(c, "/en/computer", v, nil); code != http.StatusSeeOther {
			t.Errorf("form, %s on 3+2: %d, want 303\n%s", seat, code, body)
		}
	}
	code, j := s.Api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "clock": map[string]int{"initial": 5},
		"opponent": map[string]any{"computer": 2}})
	if code != http.StatusUnprocessableEntity {
		t.Errorf("API, against the computer on a 5 s clock: %d %v, want 422", code, j)
	}
	var games int64
	s.Db.Gorm.Table("games").Where("clock_initial = 60 AND clock_increment = 1 AND south_computer + north_computer = 2").Count(&games)
	var formed int64
	s.Db.Gorm.Table("games").Where("clock_initial = 180 AND clock_increment = 2").Count(&formed)
	if games != 2 || formed != 2 {
		t.Errorf("stored %d games on 1+1 by the API and %d on 3+2 by the form, want 2 and 2", games, formed)
	}
}

// TestOutageRuleShown: the page of a game with a clock says, in its
// language, that the site's outages are charged to nobody; a game without
// a clock does not.
func TestOutageRuleShown(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	_, clocked := s.Api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "clock": map[string]int{"initial": 300, "increment": 3}})
	_, plain := s.Api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa"})
	for _, g := range []map[string]any{clocked, plain} {
		if code, j := s.Api("POST", "/api/v1/games/"+g["id"].(string)+"/join", "", struct{}{}); code != http.StatusOK {
			t.Fatalf("join: %d %v", code, j)
		}
	}
	for lang, want := range map[string]string{
		"en": "When the site itself is out of reach",
		"cs": "Když je nedostupný sám web",
		"it": "Quando è il sito stesso a non essere raggiungibile",
	} {
		path := "/" + lang + "/games/" + clocked["id"].(string)
		code, _, page := s.Get(nil, path)
		if code != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("%s: %d, the outage rule %q missing", path, code, want)
		}
		checkPage(t, lang, path, code, page)
		if _, _, page := s.Get(nil, "/"+lang+"/games/"+plain["id"].(string)); strings.Contains(page, want) {
			t.Errorf("%s: a game without a clock states the outage rule", lang)
		}
	}
}

// TestLateResignationAPI: South's 10 s run out at T+10 (after the first
// moves); North's resignation 50 ms later is refused with 409 and says
// why, and the game ends on time: North wins (issue 19, item 8).
func TestLateResignationAPI(t *testing.T) {
	db := handlerstest.ModelsOpenSQLite(t)
	var mu sync.Mutex
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	games := game.New(db, slog.New(slog.DiscardHandler))
	games.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	s := handlerstest.NewSiteWith(t, db, func(c *handlers.Config) { c.Games = games })
	_, g := s.Api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "seat": "south", "clock": map[string]int{"initial": 10}})
	id, south := g["id"].(string), g["token"].(string)
	_, j := s.Api("POST", "/api/v1/games/"+id+"/join", "", struct{}{})
	north := j["token"].(string)
	for _, m := range []struct{ token, pit string }{{south, "C"}, {north, "d"}} {
		if code, j := s.Api("POST", "/api/v1/games/"+id+"/moves", m.token, map[string]string{"pit": m.pit}); code != http.StatusOK {
			t.Fatalf("move %s: %d %v", m.pit, code, j)
		}
	}
	mu.Lock()
	now = now.Add(10*time.Second + 50*time.Millisecond)
	mu.Unlock()
	code, j := s.Api("POST", "/api/v1/games/"+id+"/resign", north, struct{}{})
	if msg, _ := j["error"].(string); code != http.StatusConflict || !strings.HasPrefix(msg, "The clock ran out before this arrived") {
		t.Errorf("North resigning 50 ms after South's flag: %d %v; want 409, the clock ran out", code, j)
	}
	if _, g := s.Api("GET", "/api/v1/games/"+id, "", nil); g["status"] != "over" || g["result"] != "north" || g["reason"] != "timeout" {
		t.Errorf("the game after the late resignation: %v %v %v; want over, north wins on time", g["status"], g["result"], g["reason"])
	}
}
