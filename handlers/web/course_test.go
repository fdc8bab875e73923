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
	step := "/en/tutorials/rules-practice/3"
	s, c := practiceStep(t, step, "Play this position out against the computer (level 1) and win.")
	p := startPractice(t, s, c, step)
	_, _, game := s.Get(c, p.Game)
	if !strings.Contains(game, "22") {
		t.Fatalf("the game does not start from the step's position:\n%s", game)
	}
	if code, _, _ := s.Move(p, "F", nil); code != http.StatusSeeOther && code != http.StatusOK {
		t.Fatalf("F: %d", code)
	}
	_, _, page := s.Get(c, step)
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

// practiceStep opens a site and a browser on the practice step (a step
// page's path) and checks that it asks for prompt and gives no verdict yet.
func practiceStep(t *testing.T, step, prompt string) (*handlerstest.Site, *http.Client) {
	t.Helper()
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	if _, _, page := s.Get(c, step); !strings.Contains(page, prompt) || strings.Contains(page, "data-verdict") {
		t.Fatalf("practice step:\n%s", page)
	}
	return s, c
}

// startPractice starts the practice game of step (a step page's path) in
// browser c through its form and returns the learner's seat.
func startPractice(t *testing.T, s *handlerstest.Site, c *http.Client, step string) handlerstest.Seated {
	t.Helper()
	_, _, page := s.Get(c, step)
	code, hdr, _ := s.Post(c, step+"/practice", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	if code != http.StatusSeeOther || !strings.HasPrefix(hdr.Get("Location"), "/en/games/") {
		t.Fatalf("start: %d %v", code, hdr)
	}
	return handlerstest.Seated{C: c, Game: hdr.Get("Location")}
}

// TestNamNamPractice: a Nam-nam practice step starts a match against the
// computer from the step's round position, owners and stores as written;
// the learner's moves go through the engine (a pit North owns and a
// malformed pit are refused, nothing stored), and the step judges the
// match once it is over. Step 2 of namnam-practice is
// 2-3-1-4-0-5-1-2-3-0-2-1-18-6-S-SSSSSSNNSSSS-0-0 (win at level 1): A's 2
// seeds make B 4 (not the last seed: no capture, RULES.md 4.3) and C 2,
// from which the relay sows D and E, empty: the move ends there. Resigned
// at once, the match is North's, the totals 18 + 15 + 6 = 39 for South
// (captures, A..F, c..f) and 6 + 1 + 2 = 9 for North (4.5-4.7).
func TestNamNamPractice(t *testing.T) {
	const start = "2-3-1-4-0-5-1-2-3-0-2-1-18-6-S-SSSSSSNNSSSS-0-0"
	step := "/en/tutorials/namnam-practice/2"
	s, c := practiceStep(t, step, "and win the match, round after round if need be.")
	begin := func() (handlerstest.Seated, string) {
		t.Helper()
		p := startPractice(t, s, c, step)
		id := p.Game[strings.LastIndex(p.Game, "/")+1:]
		g, err := s.Db.LoadGame(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Rules != "namnam" || g.StartPosition != start || g.Position != start || g.SouthToken == "" || g.NorthComputer != 1 {
			t.Fatalf("the match: %s from %s at %s, computer %d", g.Rules, g.StartPosition, g.Position, g.NorthComputer)
		}
		return p, id
	}
	p, id := begin()
	for bad, msg := range map[string]string{"a": "That pit is not yours", "Z": "There is no such pit", "": "There is no such pit"} {
		code, hdr, _ := s.Move(p, bad, nil)
		if code != http.StatusSeeOther || hdr.Get("Location") != p.Game {
			t.Errorf("move %q: %d %q, want the game again", bad, code, hdr.Get("Location"))
		}
		if _, _, game := s.Get(c, p.Game); !strings.Contains(game, `role="alert">`+msg) {
			t.Errorf("move %q: no message %q", bad, msg)
		}
	}
	if g, _ := s.Db.LoadGame(t.Context(), id); g.Position != start || g.MoveLabels != "" {
		t.Errorf("after refused moves: %s, moves %q", g.Position, g.MoveLabels)
	}
	_, _, game := s.Get(c, p.Game)
	code, _, _ := s.Post(c, p.Game+"/resign", url.Values{"_csrf": {s.Csrf(game)}}, nil)
	if code != http.StatusSeeOther {
		t.Fatalf("resign: %d", code)
	}
	_, _, page := s.Get(c, step)
	if !strings.Contains(page, `data-verdict="wrong"`) || !strings.Contains(page, "The match is over: North wins, 9 seeds to 39.") {
		t.Errorf("after resigning:\n%s", page)
	}

	// Again from the position: A is played from it.
	p, id = begin()
	if code, _, _ := s.Move(p, "A", nil); code != http.StatusSeeOther {
		t.Fatalf("A: %d", code)
	}
	g, _ := s.Db.LoadGame(t.Context(), id)
	if !strings.HasPrefix(g.MoveLabels, "A") || g.MoveLabels == "A" && g.Position != "0-4-0-5-1-5-1-2-3-0-2-1-18-6-N-SSSSSSNNSSSS-0-0" {
		t.Errorf("after A: %s, moves %q", g.Position, g.MoveLabels)
	}
	if _, _, page = s.Get(c, step); strings.Contains(page, "data-verdict") || !strings.Contains(page, `href="`+p.Game+`"`) {
		t.Errorf("a match in play is not judged yet, and linked:\n%s", page)
	}
}
