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

// TestComputerRefusesClock: a game against the computer is played without
// a clock (issue 19, item 3: a clock was accepted with 0 ms on both sides
// and every game ended at ply 1 or 2). The API and a crafted form refuse
// each seat with each kind of clock with 422 and the reason, and create
// nothing; the form offers no clock; without one the game starts.
func TestComputerRefusesClock(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	const why = "Games against the computer are played without a clock"
	_, _, form := s.Get(nil, "/en/computer")
	if strings.Contains(form, `name="clock"`) || strings.Contains(form, `name="minutes"`) {
		t.Error("the computer form offers a clock")
	}
	clocks := []struct {
		api  map[string]int
		form url.Values
	}{
		{map[string]int{"initial": 60, "increment": 1}, url.Values{"clock": {"1+1"}}},
		{map[string]int{"days": 1}, url.Values{"clock": {"1d"}}},
	}
	for _, seat := range []string{"south", "north"} {
		for _, clock := range clocks {
			code, j := s.Api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "seat": seat, "clock": clock.api,
				"opponent": map[string]any{"computer": 2, "instant": true}})
			if msg, _ := j["error"].(string); code != http.StatusUnprocessableEntity || !strings.HasPrefix(msg, why) {
				t.Errorf("API, %s against the computer with %v: %d %v; want 422 %q", seat, clock.api, code, j, why)
			}
			c := s.Browser()
			_, _, page := s.Get(c, "/en/computer")
			v := url.Values{"_csrf": {s.Csrf(page)}, "rules": {"abapa"}, "level": {"2"}, "seat": {seat}}
			for k, vs := range clock.form {
				v[k] = vs
			}
			code, _, body := s.Post(c, "/en/computer", v, nil)
			if code != http.StatusUnprocessableEntity || !strings.Contains(body, why) {
				t.Errorf("crafted form, %s with %v: %d; want 422 %q", seat, clock.form, code, why)
			}
		}
		if code, j := s.Api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "seat": seat,
			"opponent": map[string]any{"computer": 2, "instant": true}}); code != http.StatusCreated {
			t.Errorf("API, %s against the computer without a clock: %d %v, want 201", seat, code, j)
		}
	}
	var games int64
	s.Db.Gorm.Table("games").Where("clock_initial > 0 OR clock_days > 0").Count(&games)
	if games != 0 {
		t.Errorf("%d clocked games stored, want none", games)
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
