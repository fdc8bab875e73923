package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestComputerRefusesClock: a game against the computer is played without
// a clock (issue 19, item 3: a clock was accepted with 0 ms on both sides
// and every game ended at ply 1 or 2). The API and a crafted form refuse
// each seat with each kind of clock with 422 and the reason, and create
// nothing; the form offers no clock; without one the game starts.
func TestComputerRefusesClock(t *testing.T) {
	s := newSite(t, modelsOpenSQLite(t))
	const why = "Games against the computer are played without a clock"
	_, _, form := s.get(nil, "/en/computer")
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
			code, j := s.api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "seat": seat, "clock": clock.api,
				"opponent": map[string]any{"computer": 2, "instant": true}})
			if msg, _ := j["error"].(string); code != http.StatusUnprocessableEntity || !strings.HasPrefix(msg, why) {
				t.Errorf("API, %s against the computer with %v: %d %v; want 422 %q", seat, clock.api, code, j, why)
			}
			c := s.browser()
			_, _, page := s.get(c, "/en/computer")
			v := url.Values{"_csrf": {s.csrf(page)}, "rules": {"abapa"}, "level": {"2"}, "seat": {seat}}
			for k, vs := range clock.form {
				v[k] = vs
			}
			code, _, body := s.post(c, "/en/computer", v, nil)
			if code != http.StatusUnprocessableEntity || !strings.Contains(body, why) {
				t.Errorf("crafted form, %s with %v: %d; want 422 %q", seat, clock.form, code, why)
			}
		}
		if code, j := s.api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "seat": seat,
			"opponent": map[string]any{"computer": 2, "instant": true}}); code != http.StatusCreated {
			t.Errorf("API, %s against the computer without a clock: %d %v, want 201", seat, code, j)
		}
	}
	var games int64
	s.db.Gorm.Table("games").Where("clock_initial > 0 OR clock_days > 0").Count(&games)
	if games != 0 {
		t.Errorf("%d clocked games stored, want none", games)
	}
}

// TestOutageRuleShown: the page of a game with a clock says, in its
// language, that the site's outages are charged to nobody; a game without
// a clock does not.
func TestOutageRuleShown(t *testing.T) {
	s := newSite(t, modelsOpenSQLite(t))
	_, clocked := s.api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "clock": map[string]int{"initial": 300, "increment": 3}})
	_, plain := s.api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa"})
	for _, g := range []map[string]any{clocked, plain} {
		if code, j := s.api("POST", "/api/v1/games/"+g["id"].(string)+"/join", "", struct{}{}); code != http.StatusOK {
			t.Fatalf("join: %d %v", code, j)
		}
	}
	for lang, want := range map[string]string{
		"en": "When the site itself is out of reach",
		"cs": "Když je nedostupný sám web",
		"it": "Quando è il sito stesso a non essere raggiungibile",
	} {
		path := "/" + lang + "/games/" + clocked["id"].(string)
		code, _, page := s.get(nil, path)
		if code != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("%s: %d, the outage rule %q missing", path, code, want)
		}
		checkPage(t, lang, path, code, page)
		if _, _, page := s.get(nil, "/"+lang+"/games/"+plain["id"].(string)); strings.Contains(page, want) {
			t.Errorf("%s: a game without a clock states the outage rule", lang)
		}
	}
}
