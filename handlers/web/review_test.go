package web_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"oware/engine"
	"oware/engine/enginetest"
	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
)

// TestReviewAPI: the contract of POST and GET /api/v1/games/{id}/analysis:
// 404 for no game, 409 while it is played, "none" before anyone asks,
// 202 queued, asking again changes nothing, and done with one ply per move.
func TestReviewAPI(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		if code, _ := s.Api("POST", "/api/v1/games/aaaaaaaaaaaa/analysis", "", nil); code != http.StatusNotFound {
			t.Errorf("no game: %d, want 404", code)
		}
		id, south, north := s.NewAPIGame("abapa")
		path := "/api/v1/games/" + id + "/analysis"
		if code, out := s.Api("POST", path, "", nil); code != http.StatusConflict || out["error"] == "" {
			t.Errorf("game in play: %d %v, want 409", code, out)
		}
		s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"})
		s.Api("POST", "/api/v1/games/"+id+"/moves", north, map[string]string{"pit": "f"})
		if code, g := s.Api("POST", "/api/v1/games/"+id+"/resign", south, nil); code != http.StatusOK || g["status"] != "over" {
			t.Fatalf("resign: %d %v", code, g)
		}
		code, out := s.Api("GET", path, "", nil)
		if plies, ok := out["plies"].([]any); code != http.StatusOK || out["status"] != "none" || !ok || len(plies) != 0 {
			t.Fatalf("before asking: %d %v", code, out)
		}
		code, out = s.Api("POST", path, "", nil)
		if code != http.StatusAccepted || (out["status"] != "queued" && out["status"] != "running" && out["status"] != "done") || len(out) != 1 {
			t.Fatalf("ask: %d %v", code, out)
		}
		if code, again := s.Api("POST", path, "", nil); code != http.StatusAccepted || again["status"] == "none" {
			t.Fatalf("ask again: %d %v", code, again)
		}
		handlerstest.WaitFor(t, "the review done", func() bool {
			_, out = s.Api("GET", path, "", nil)
			return out["status"] == "done"
		})
		plies := out["plies"].([]any)
		if len(plies) != 2 {
			t.Fatalf("done: %d plies, want 2: %v", len(plies), out)
		}
		first, second := plies[0].(map[string]any), plies[1].(map[string]any)
		if first["ply"] != 1.0 || first["move"] != "C" || second["move"] != "f" || first["mover"] != "south" {
			t.Errorf("plies %v", plies)
		}
		for _, p := range plies {
			p := p.(map[string]any)
			for _, k := range []string{"value", "best", "pv", "exact", "mark"} {
				if _, ok := p[k]; !ok {
					t.Errorf("ply without %s: %v", k, p)
				}
			}
		}
		marks := map[any]bool{"best": true, "good": true, "inaccuracy": true, "mistake": true, "blunder": true}
		for _, p := range plies {
			p := p.(map[string]any)
			_, value := p["value"].(float64)
			pv, _ := p["pv"].([]any)
			_, exact := p["exact"].(bool)
			if !value || len(pv) == 0 || !exact || !marks[p["mark"]] {
				t.Errorf("ply %v: value a number, pv a line, exact a bool, mark one of the five", p)
			}
		}
		sum, _ := out["summary"].(map[string]any)
		for _, side := range []string{"south", "north"} {
			ss, _ := sum[side].(map[string]any)
			for _, k := range []string{"inaccuracy", "mistake", "blunder", "average_loss"} {
				if _, ok := ss[k].(float64); !ok {
					t.Errorf("summary %v without %s's %s", sum, side, k)
				}
			}
		}
		// The review is shown on the game's replay, the best move of the
		// position shown drawn on the board.
		_, _, replay := s.Get(s.Browser(), "/en/games/"+id+"/replay?ply=1")
		for _, want := range []string{"C was played: value", "Best move here:", "Values as a table", `class="pit hl`} {
			if !strings.Contains(replay, want) {
				t.Errorf("the game's replay without %q", want)
			}
		}
		// Asking once it is done changes nothing.
		if code, again := s.Api("POST", path, "", nil); code != http.StatusAccepted || again["status"] != "done" {
			t.Errorf("ask when done: %d %v", code, again)
		}
	})
}

// TestReviewLimit: asking counts against the client's analysis limit.
func TestReviewLimit(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) {
		c.AnalysisLimit = handlers.RateLimit{Burst: 1, Every: 90 * time.Second}
	})
	id, south, _ := s.NewAPIGame("abapa")
	s.Api("POST", "/api/v1/games/"+id+"/resign", south, nil)
	if code, out := s.Api("POST", "/api/v1/games/"+id+"/analysis", "", nil); code != http.StatusAccepted {
		t.Fatalf("first: %d %v", code, out)
	}
	if code, out := s.Api("POST", "/api/v1/games/"+id+"/analysis", "", nil); code != http.StatusTooManyRequests {
		t.Errorf("second: %d %v, want 429", code, out)
	}
}

// TestReviewImportPage: an imported record's replay offers the review
// (a form, no JavaScript needed), which then shows the blunder in the
// move list and the summary, the graph with a link per ply and its table.
func TestReviewImportPage(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	base := s.ReviewedImport(c)
	_, _, page := s.Get(c, base+"?ply=1")
	for _, want := range []string{
		`<span class="vh">blunder</span>`, // the mark of E in the move list
		"Best move here: d (+2)",          // North's best after E
		"seeds given away: 6; F kept +4",  // what E lost
		`href="` + base + `?ply=3"`,       // a point of the graph
		`<td>1</td><td>0</td>`,            // one blunder for South, none for North
		"Values as a table",
		"E was played: value −2", // E's value, proven by the end of every line
		"(proven loss)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("review without %q", want)
		}
	}
	// The best move after E, d, is drawn on the board (and no other pit).
	if hl := regexp.MustCompile(`class="pit[^"]* hl[^"]*">.*?class="vh">pit ([A-Fa-f])`).FindAllStringSubmatch(page, -1); len(hl) != 1 || hl[0][1] != "d" {
		t.Errorf("pits drawn as the best move: %v, want d alone", hl)
	}
	// The poll of the progress, once done, takes the whole panel and
	// leaves the live region alone.
	_, hdr, poll := s.Do(c, "GET", base+"?ply=1&poll=1", nil, map[string]string{"HX-Request": "true"})
	if hdr.Get("HX-Retarget") != "#replay" || hdr.Get("HX-Reselect") != "#replay" || strings.Contains(poll, "hx-swap-oob") || !strings.Contains(poll, `id="replay"`) {
		t.Errorf("poll when done: %v\n%s", hdr, poll)
	}
	// The API tells the same.
	if code, out := s.Api("GET", "/api/v1/imports/"+base[strings.LastIndex(base, "/")+1:]+"/analysis", "", nil); code != 200 || out["status"] != "done" {
		t.Errorf("import review API: %d %v", code, out)
	}
}

// TestLearnFromMistakes: South's blunder E of blunderRecord is the one
// step of South's page: the move of the game is refused, F (the best) is
// accepted and the refutation of E shown; an empty pit is a bad request;
// North made no mistake.
func TestLearnFromMistakes(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	base := s.ReviewedImport(c)
	_, _, replay := s.Get(c, base+"?ply=3")
	if !strings.Contains(replay, `href="`+base+`/learn"`) {
		t.Fatalf("replay without the learn link:\n%s", replay)
	}
	code, _, page := s.Get(c, base+"/learn")
	if code != http.StatusOK || !strings.Contains(page, "Mistake 1 of 1: move 1") || !strings.Contains(page, `name="pit" value="F"`) {
		t.Fatalf("learn: %d\n%s", code, page)
	}
	action := base + "/learn?side=south&amp;step=1"
	if !strings.Contains(page, `action="`+action+`"`) {
		t.Fatalf("learn without the form to %s", action)
	}
	post := base + "/learn?side=south&step=1"
	_, _, answer := s.Post(c, post, url.Values{"_csrf": {s.Csrf(page)}, "pit": {"E"}}, nil)
	if !strings.Contains(answer, "E is the move of the game") {
		t.Errorf("the move of the game not refused:\n%s", answer)
	}
	_, _, answer = s.Post(c, post, url.Values{"_csrf": {s.Csrf(page)}, "pit": {"F"}}, nil)
	for _, want := range []string{"Well found: F keeps +4", "The answer that punishes it: d", "The best move was F (+4)", "After E, the value for the player who moved was −2"} {
		if !strings.Contains(answer, want) {
			t.Errorf("answer without %q", want)
		}
	}
	if code, _, _ := s.Post(c, post, url.Values{"_csrf": {s.Csrf(page)}, "pit": {"A"}}, nil); code != http.StatusBadRequest {
		t.Errorf("an empty pit: %d, want 400", code)
	}
	if _, _, north := s.Get(c, base+"/learn?side=north"); !strings.Contains(north, "North made no mistake") {
		t.Errorf("North's page:\n%s", north)
	}
}

// TestLearnAcceptsEqualMoves: from Abapa 2-2-1-0-1-0-0-0-0-0-0-2-21-19-S
// South played C, and North's f (A 3, B 3) took 6 seeds: 25 to 21, -4
// for South. A and B both keep +10 and E, like C, -4 (every line played to
// its end, enginetest). So on South's learn page A and B are both
// accepted, whichever the review calls best (the other is searched and
// loses less than a seed), and E is refused by the search (14 seeds worse).
func TestLearnAcceptsEqualMoves(t *testing.T) {
	const start = "2-2-1-0-1-0-0-0-0-0-0-2-21-19-S"
	abapa := engine.Oware{GrandSlam: engine.Abapa}
	pos, _ := abapa.ParsePosition(start)
	g := engine.NewGame(abapa, pos)
	for pit, want := range map[int]int{0: 10, 1: 10, 2: -4, 4: -4} {
		if v, ok := enginetest.Move(g, pit, 10); !ok || v != want {
			t.Fatalf("every line of %s: %d %v, want %d", engine.Label(pit), v, ok, want)
		}
	}
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	base := s.ReviewedRecord(c, "[FEN \""+start+"\"]\n1. C f\n")
	_, _, page := s.Get(c, base+"/learn")
	post := base + "/learn?side=south&step=1"
	for pit, want := range map[string]string{"A": "Well found: A keeps +10.", "B": "Well found: B keeps +10.", "E": "E keeps only −4. Try another move.", "C": "C is the move of the game."} {
		_, _, answer := s.Post(c, post, url.Values{"_csrf": {s.Csrf(page)}, "pit": {pit}}, nil)
		if accepted := pit == "A" || pit == "B"; !strings.Contains(answer, want) || accepted != strings.Contains(answer, "Well found") {
			t.Errorf("%s: want %q", pit, want)
		}
	}
}
