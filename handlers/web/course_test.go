package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
)

// TestPractice: a practice step starts a game against the computer from
// its position, the learner to move; the step then links the game and,
// once it is over, gives the engine's verdict. In rules-practice step 3
// (2-1-0-1-0-1-2-4-1-5-1-2-22-6-S, win at level 1) F's seed makes a 3:
// 22 + 3 = 25 wins at once (RULES.md 2.6). Step 1 (capture 6) after F
// alone is not decided: the game goes on.
func TestPractice(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	step := "/en/tutorials/rules-practice/3"
	_, _, page := s.Get(c, step)
	if !strings.Contains(page, "Play this position out against the computer (level 1) and win.") || strings.Contains(page, "data-verdict") {
		t.Fatalf("practice step:\n%s", page)
	}
	code, hdr, _ := s.Post(c, step+"/practice", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	if code != http.StatusSeeOther || !strings.HasPrefix(hdr.Get("Location"), "/en/games/") {
		t.Fatalf("start: %d %v", code, hdr)
	}
	p := handlerstest.Seated{C: c, Game: hdr.Get("Location")}
	_, _, game := s.Get(c, p.Game)
	if !strings.Contains(game, "22") {
		t.Fatalf("the game does not start from the step's position:\n%s", game)
	}
	if code, _, _ := s.Move(p, "F", nil); code != http.StatusSeeOther && code != http.StatusOK {
		t.Fatalf("F: %d", code)
	}
	_, _, page = s.Get(c, step)
	if !strings.Contains(page, `data-verdict="right"`) || !strings.Contains(page, "the engine confirms you reached the goal") ||
		!strings.Contains(page, `href="`+p.Game+`"`) {
		t.Errorf("after the win:\n%s", page)
	}
	// A wrong use: an answer posted to a practice step, a practice of a
	// step that is none.
	if code, _, _ := s.Post(c, "/en/tutorials/sowing/2/practice", url.Values{"_csrf": {s.Csrf(page)}}, nil); code != http.StatusNotFound {
		t.Errorf("practice of a play step: %d, want 404", code)
	}
}
