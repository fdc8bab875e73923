package web_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"oware/engine"
	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

func TestComputerWithoutJavaScript(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		_, _, home := s.Get(nil, "/en/")
		if !strings.Contains(home, `href="/en/computer"`) {
			t.Fatal("the home page does not lead to the computer")
		}
		_, _, form := s.Get(nil, "/en/computer")
		for _, want := range []string{"1 – beginner", "4 – intermediate", "8 – master", `value="namnam"`, `value="random"`, `href="/en/games/new"`} {
			if !strings.Contains(form, want) {
				t.Errorf("the form lacks %q", want)
			}
		}
		p := s.VsComputer(nil, "en", "abapa", "2", "south")
		_, _, page := s.Get(p.C, p.Game)
		for _, want := range []string{"Computer, level 2", "Your turn", "Hint (3 left)"} {
			if !strings.Contains(page, want) {
				t.Fatalf("the new game's page lacks %q:\n%s", want, page)
			}
		}
		// The computer is never away: no line says it is not on the page.
		if strings.Contains(page, `id="presence"`) {
			t.Error("the page says whether the computer is on the page")
		}
		// A move without JavaScript: the redirect waits for the reply, so
		// the page shows it at once.
		code, hdr, _ := s.Move(p, "C", nil)
		if code != http.StatusSeeOther || hdr.Get("Location") != p.Game {
			t.Fatalf("move: %d %q", code, hdr.Get("Location"))
		}
		_, _, page = s.Get(p.C, p.Game)
		if got := handlerstest.MovesShown(page); len(got) != 2 || got[0] != 'C' || !strings.Contains(page, "Your turn") {
			t.Fatalf("after the move, moves %q:\n%s", got, page)
		}
		// A hint, shown on the page until the next move; two left.
		code, _, _ = s.Post(p.C, p.Game+"/hint", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("hint: %d", code)
		}
		_, _, page = s.Get(p.C, p.Game)
		hint := regexp.MustCompile(`Hint: sow ([A-F]): ([^<]+)<`).FindStringSubmatch(page)
		if hint == nil || !strings.Contains(page, "Hint (2 left)") && strings.Contains(page, "Hint (") {
			t.Fatalf("no hint shown:\n%s", page)
		}
		if !regexp.MustCompile(`id="pit-`+hint[1]+`"[^>]*class="[^"]*\bhl\b`).MatchString(page) &&
			!regexp.MustCompile(`class="[^"]*\bhl\b[^"]*"[^>]*id="pit-`+hint[1]+`"`).MatchString(page) {
			t.Errorf("the hinted pit %s is not highlighted", hint[1])
		}
		// Take back the move and the reply: the start again.
		code, _, _ = s.Post(p.C, p.Game+"/takeback", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("takeback: %d", code)
		}
		_, _, page = s.Get(p.C, p.Game)
		if got := handlerstest.MovesShown(page); got != "" || !strings.Contains(page, "pit C, 4 seeds") {
			t.Fatalf("after the takeback, moves %q", got)
		}
		// The offer to end is not made to the computer.
		if strings.Contains(page, "/end/offer") {
			t.Error("the page offers the computer to end the game")
		}
		// Resign, and the rematch starts at once with the seats swapped:
		// the computer, now South, opens.
		_, _, page = s.Get(p.C, p.Game+"/resign")
		s.Post(p.C, p.Game+"/resign", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		_, _, page = s.Get(p.C, p.Game)
		code, hdr, _ = s.Post(p.C, p.Game+"/rematch", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusSeeOther || hdr.Get("Location") == p.Game {
			t.Fatalf("rematch: %d %q", code, hdr.Get("Location"))
		}
		re := handlerstest.Seated{C: p.C, Game: hdr.Get("Location")}
		_, _, page = s.Get(re.C, re.Game)
		if !strings.Contains(page, "Computer, level 2") || !strings.Contains(page, "North") {
			t.Fatalf("the rematch:\n%s", page)
		}
		// The finished game's record names the computer.
		_, _, rec := s.Get(p.C, p.Game+"/record.ogn")
		if !strings.Contains(rec, `[North "Computer, level 2"]`) {
			t.Errorf("the record:\n%s", rec)
		}
	})
}

// TestComputerLive: with htmx the move's answer says the computer thinks,
// and its reply comes on the event stream.
func TestComputerLive(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	p := s.VsComputer(nil, "en", "wari", "1", "south")
	_, _, page := s.Get(p.C, p.Game)
	view := regexp.MustCompile(`view=([\w-]+)`).FindStringSubmatch(page)
	events := s.OpenStream(p, page)
	time.Sleep(100 * time.Millisecond)
	code, _, panel := s.Post(p.C, p.Game+"/moves", url.Values{"_csrf": {s.Csrf(page)}, "pit": {"D"}},
		map[string]string{"HX-Request": "true", "X-View": view[1]})
	if code != http.StatusOK || !strings.Contains(panel, "The computer is thinking") {
		t.Fatalf("the move's answer: %d\n%s", code, panel)
	}
	// (The move's own version may come too, when the stream loads it before
	// the answer marks it as this page's: the page ignores it.)
	for timeout := time.After(10 * time.Second); ; {
		select {
		case frame := <-events:
			if strings.HasPrefix(frame, "id: 2\n") {
				continue
			}
			if !strings.HasPrefix(frame, "id: 3\n") || !strings.Contains(frame, "Your turn") || !strings.Contains(frame, `name="pit"`) {
				t.Fatalf("the reply's event:\n%s", frame)
			}
			return
		case <-timeout:
			t.Fatal("no reply on the event stream within 10 s")
		}
	}
}

// TestComputerWholeGameAPI plays a whole game against level 1 through the
// API, the program moving at random, until the game ends.
func TestComputerWholeGameAPI(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		code, created := s.Api("POST", "/api/v1/games", "", map[string]any{"rules": "abapa", "seat": "north",
			"opponent": map[string]any{"computer": 1, "instant": true}})
		if code != http.StatusCreated || created["seat"] != "north" {
			t.Fatalf("create: %d %v", code, created)
		}
		id, token := created["id"].(string), created["token"].(string)
		r, _ := engine.RulesByName("abapa")
		rng := rand.New(rand.NewPCG(11, 12))
		var g map[string]any
		for deadline := time.Now().Add(time.Minute); ; {
			if time.Now().After(deadline) {
				t.Fatalf("the game did not end: %v", g)
			}
			_, g = s.Api("GET", "/api/v1/games/"+id, "", nil)
			if g["status"] == "over" {
				break
			}
			p, err := r.ParsePosition(g["position"].(string))
			if err != nil {
				t.Fatal(err)
			}
			if p.ToMove != engine.North {
				time.Sleep(5 * time.Millisecond) // the computer's turn
				continue
			}
			legal := r.LegalMoves(p).Pits()
			if code, m := s.Api("POST", "/api/v1/games/"+id+"/moves", token, map[string]string{"pit": engine.Label(legal[rng.IntN(len(legal))])}); code != http.StatusOK {
				t.Fatalf("move: %d %v", code, m)
			}
		}
		if c := g["computer"].(map[string]any); c["seat"] != "south" || c["level"] != 1.0 {
			t.Errorf("computer: %v", c)
		}
		// The engine's replay of the moves agrees with the stored end, and
		// every computer move was legal (the replay checks them).
		var pits []int
		for _, l := range g["moves"].([]any) {
			pit, _ := engine.ParseLabel(l.(string))
			pits = append(pits, pit)
		}
		eg, err := engine.ReplayGame(r, r.Start(), pits)
		if err != nil || !eg.Over || r.FormatPosition(eg.Position) != g["position"] || eg.Result.String() != g["result"] {
			t.Fatalf("replay: %v over=%v %s %s; the API says %v %v", err, eg.Over, r.FormatPosition(eg.Position), eg.Result, g["position"], g["result"])
		}
		t.Logf("%d moves, %v by %v", len(pits), g["result"], g["reason"])
		if len(pits) < 10 {
			t.Errorf("a game of %d moves", len(pits))
		}
		// Bad levels are refused.
		for _, bad := range []any{0, 9, "3"} {
			code, body := s.Api("POST", "/api/v1/games", "", map[string]any{"opponent": map[string]any{"computer": bad}})
			if code != http.StatusUnprocessableEntity && code != http.StatusBadRequest {
				t.Errorf("level %v: %d %v", bad, code, body)
			}
		}
	})
}

func TestAnalysisAPI(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	get := func(query string) (int, map[string]any, string) {
		t.Helper()
		code, hdr, body := s.Do(nil, "GET", "/api/v1/analysis?"+query, nil, nil)
		var out map[string]any
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			t.Fatalf("%s: not JSON: %q", query, body)
		}
		return code, out, hdr.Get("Retry-After")
	}
	// South's F (1 seed) lands in a, which then holds 2: a capture of 2
	// that brings South to 25 (RULES.md 2.6), while b keeps North from a
	// grand slam. The only other move is none: F is South's only seed.
	first := time.Now()
	code, a, _ := get("rules=abapa&position=0-0-0-0-0-1-1-1-0-0-0-0-23-22-S&depth=4")
	if code != http.StatusOK {
		t.Fatalf("analysis: %d %v", code, a)
	}
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	if len(a) != 5 || a["best"] != "F" || a["exact"] != true || a["value"].(float64) <= 0 || a["pv"].([]any)[0] != "F" {
		t.Fatalf("the winning capture: %v (keys %v)", a, keys)
	}
	// The start: a legal move, the depth asked, a line that starts with it.
	code, a, _ = get("rules=wari&depth=5")
	if pv := a["pv"].([]any); code != http.StatusOK || a["depth"] != 5.0 || len(pv) == 0 || pv[0] != a["best"] || !strings.Contains("ABCDEF", a["best"].(string)) {
		t.Fatalf("the start of wari: %d %v", code, a)
	}
	// A movetime alone.
	start := time.Now()
	if code, a, _ = get("rules=warri&position=4-4-0-5-5-5-5-4-4-4-4-4-0-0-N&movetime=200"); code != http.StatusOK || !strings.Contains("abcdef", a["best"].(string)) {
		t.Fatalf("movetime: %d %v", code, a)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a search of 200 ms answered in %v", d)
	}
	// Bad parameters: 400 and what was wrong; a game over: 400.
	for query, want := range map[string]string{
		"rules=chess":             "Unknown rules",
		"position=4-4-4":          "not a position string",
		"depth=0":                 "depth must be",
		"depth=97":                "depth must be",
		"depth=x":                 "depth must be",
		"movetime=5001":           "movetime must be",
		"movetime=-1":             "movetime must be",
		"rules=abapa&fours=owner": "Unknown rules",
		"position=0-0-0-0-0-0-0-0-0-0-0-0-24-24-S": "game is over",
	} {
		if code, body, _ := get(query); code != http.StatusBadRequest || !strings.Contains(body["error"].(string), want) {
			t.Errorf("%s: %d %v, want 400 %q", query, code, body, want)
		}
	}
	// A Nam-nam position whose endless-sowing checks need millions of relay
	// laps (the worst known) is refused, not searched for long.
	start = time.Now()
	if code, body, _ := get("rules=namnam&position=0-5-1-0-9-1-5-1-3-6-5-12-0-0-N-SSSSNNNNNNNN-0-0&depth=3"); code != http.StatusUnprocessableEntity ||
		!strings.Contains(body["error"].(string), "more work") {
		t.Errorf("a costly Nam-nam position: %d %v", code, body)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the costly position took %v", d)
	}
	// The per-client limit counts searches: a burst of 10 (3 above, the
	// refusals do not count), then one every 2 s.
	searched := 3
	for ; searched < 20; searched++ {
		code, body, retry := get("depth=1")
		if code == http.StatusTooManyRequests {
			if retry != "2" || !strings.Contains(body["error"].(string), "Too many analyses") {
				t.Errorf("past the limit: Retry-After %q, %v", retry, body)
			}
			break
		}
		if code != http.StatusOK {
			t.Fatalf("search %d: %d %v", searched+1, code, body)
		}
	}
	if most := 10 + int(time.Since(first)/(2*time.Second)) + 1; searched < 10 || searched > most {
		t.Errorf("%d searches before the limit, want 10 to %d", searched, most)
	}
}

// TestTutorialHint: a step answered by a move offers a hint; step 5 of
// the first tutorial asks for the capture of 5 seeds, which F makes (its
// 4 seeds end in d, 1 -> 2, after c, 2 -> 3: 2 + 3 captured).
func TestTutorialHint(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	c := s.Browser()
	step := "/en/tutorials/oware-step-by-step/5"
	_, _, page := s.Get(c, step)
	if !strings.Contains(page, `action="`+step+`/hint"`) {
		t.Fatalf("no hint button on the step:\n%s", page)
	}
	for _, hdr := range []map[string]string{nil, {"HX-Request": "true"}} {
		code, _, answer := s.Post(c, step+"/hint", url.Values{"_csrf": {s.Csrf(page)}}, hdr)
		if code != http.StatusOK || !strings.Contains(answer, "Hint: sow F: captures 5 seeds") ||
			!regexp.MustCompile(`class="pit[^"]*\bhl\b[^"]*"[^>]*>(?:<[^>]*>[^<]*)*?<span class="label" aria-hidden="true">F<`).MatchString(answer) {
			t.Fatalf("hint (htmx %v): %d\n%s", hdr != nil, code, answer)
		}
	}
	// A step without a task has no hint.
	_, _, page = s.Get(c, "/en/tutorials/oware-step-by-step/1")
	if strings.Contains(page, "/hint") {
		t.Error("a step without a task offers a hint")
	}
	if code, hdr, _ := s.Post(c, "/en/tutorials/oware-step-by-step/1/hint", url.Values{"_csrf": {s.Csrf(page)}}, nil); code != http.StatusSeeOther ||
		hdr.Get("Location") != "/en/tutorials/oware-step-by-step/1" {
		t.Errorf("a hint asked on a step without a task: %d %q", code, hdr.Get("Location"))
	}
}

// TestTakebackBetweenPeople: a player asks, the opponent's page offers to
// accept or decline, and accepting takes back the move and the reply.
func TestTakebackBetweenPeople(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		south, north := s.FormGame("en", "abapa")
		s.Move(south, "C", nil)
		s.Move(north, "f", nil)
		_, _, page := s.Get(south.C, south.Game)
		if !strings.Contains(page, "Ask to take back") {
			t.Fatalf("no takeback button:\n%s", page)
		}
		if code, _, _ := s.Post(south.C, south.Game+"/takeback", url.Values{"_csrf": {s.Csrf(page)}}, nil); code != http.StatusSeeOther {
			t.Fatalf("ask: %d", code)
		}
		_, _, page = s.Get(south.C, south.Game)
		if !strings.Contains(page, "You asked to take back your last move") || strings.Contains(page, "Ask to take back") {
			t.Errorf("the asker's page:\n%s", page)
		}
		_, _, npage := s.Get(north.C, north.Game)
		if !strings.Contains(npage, "Your opponent asks to take back their last move.") || !strings.Contains(npage, "/takeback/accept") {
			t.Fatalf("the opponent's page:\n%s", npage)
		}
		// South cannot answer its own request.
		if code, _, _ := s.Post(south.C, south.Game+"/takeback/accept", url.Values{"_csrf": {s.Csrf(page)}}, map[string]string{"HX-Request": "true"}); code != http.StatusConflict {
			t.Errorf("answering one's own request: %d", code)
		}
		if code, _, _ := s.Post(north.C, north.Game+"/takeback/accept", url.Values{"_csrf": {s.Csrf(npage)}}, nil); code != http.StatusSeeOther {
			t.Fatalf("accept: %d", code)
		}
		_, _, page = s.Get(south.C, south.Game)
		if got := handlerstest.MovesShown(page); got != "" || !strings.Contains(page, "Your turn") {
			t.Fatalf("after the takeback: moves %q", got)
		}
		if n, _ := handlerstest.Stored(t, db, south.Game[strings.LastIndex(south.Game, "/")+1:]); n != 0 {
			t.Errorf("%d moves stored after the takeback", n)
		}
	})
}

// TestComputerInHistory: a player's games against the computer name it on
// the home page and in the history, without a link to a player's page.
func TestComputerInHistory(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	alice := s.Account("alice")
	p := s.VsComputer(alice, "cs", "warri", "3", "north")
	_, _, home := s.Get(alice, "/cs/")
	if !strings.Contains(home, "Počítač, úroveň 3") {
		t.Fatalf("the home page's open games:\n%s", home)
	}
	_, _, page := s.Get(alice, p.Game+"/resign")
	s.Post(alice, p.Game+"/resign", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	_, _, history := s.Get(alice, "/en/players/alice")
	if !strings.Contains(history, `<td class="opp">Computer, level 3</td>`) {
		t.Errorf("the history:\n%s", history)
	}
}
