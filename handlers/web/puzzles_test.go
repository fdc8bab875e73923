package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/content"
	"oware/handlers/handlerstest"
	"oware/models"
)

// puzzleAnswer decodes a puzzle of the API.
type puzzleAnswer struct {
	ID       string   `json:"id"`
	Rules    string   `json:"rules"`
	Position string   `json:"position"`
	Themes   []string `json:"themes"`
	Rating   int      `json:"rating"`
}

// TestPuzzleAPI: the list by theme with its bounds, one puzzle, and
// attempts judged against the hand-made puzzle's solution.
func TestPuzzleAPI(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	code, _, body := s.Get(nil, "/api/v1/puzzles?theme=grand-slam&limit=5")
	var list []puzzleAnswer
	if code != http.StatusOK || json.Unmarshal([]byte(body), &list) != nil || len(list) != 5 {
		t.Fatalf("list: %d %s", code, body)
	}
	for _, p := range list {
		if p.ID == "" || (p.Rules != "wari" && p.Rules != "warri") || p.Position == "" || p.Rating <= 0 || !strings.Contains(strings.Join(p.Themes, ","), "grand-slam") {
			t.Errorf("a grand slam puzzle: %+v", p)
		}
	}
	for _, q := range []struct {
		query string
		code  int
	}{
		{"theme=chess", http.StatusUnprocessableEntity},
		{"limit=0", http.StatusBadRequest},
		{"limit=101", http.StatusBadRequest},
		{"limit=ten", http.StatusBadRequest},
		{"after=-1", http.StatusBadRequest},
	} {
		if code, out := s.Api("GET", "/api/v1/puzzles?"+q.query, "", nil); code != q.code || out["error"] == "" {
			t.Errorf("%s: %d %v, want %d", q.query, code, out, q.code)
		}
	}
	code, _, body = s.Get(nil, "/api/v1/puzzles?limit=100")
	if json.Unmarshal([]byte(body), &list); code != http.StatusOK || len(list) != 100 {
		t.Errorf("limit=100: %d, %d puzzles", code, len(list))
	}

	code, one := s.Api("GET", "/api/v1/puzzles/handmade", "", nil)
	if themes, _ := one["themes"].([]any); code != http.StatusOK || one["id"] != "handmade" || one["position"] != handlerstest.Handmade.Position || one["rules"] != "warri" ||
		one["rating"] != 1500.0 || len(themes) != 2 || themes[0] != "endgame-win" || themes[1] != "grand-slam" {
		t.Errorf("handmade: %d %v", code, one)
	}
	if code, _ := s.Api("GET", "/api/v1/puzzles/nosuch", "", nil); code != http.StatusNotFound {
		t.Errorf("no such puzzle: %d", code)
	}

	for _, c := range []struct {
		moves   []string
		correct bool
	}{{[]string{"F"}, true}, {[]string{"E"}, false}, {[]string{"F", "A"}, false}} {
		code, out := s.Api("POST", "/api/v1/puzzles/handmade/attempt", "", map[string]any{"moves": c.moves})
		if code != http.StatusOK || out["correct"] != c.correct || out["solution"] != nil || out["rated"] != false {
			t.Errorf("%v: %d %v, want correct %v, no solution, unrated (no session: an attempt that does not count)", c.moves, code, out, c.correct)
		}
	}
	for _, bad := range []map[string]any{{"moves": []string{}}, {"moves": []string{"Z"}}, {"moves": []string{"A", "B", "C", "D"}}} {
		if code, out := s.Api("POST", "/api/v1/puzzles/handmade/attempt", "", bad); code != http.StatusUnprocessableEntity || out["error"] == "" {
			t.Errorf("%v: %d %v, want 422", bad, code, out)
		}
	}
	if code, out := s.Api("POST", "/api/v1/puzzles/nosuch/attempt", "", map[string]any{"moves": []string{"F"}}); code != http.StatusNotFound {
		t.Errorf("attempt at no such puzzle: %d %v", code, out)
	}
}

// TestPuzzlePageRating: a visitor solves the hand-made puzzle on its page
// (a form): solved, rated once (their rating above 1500, a streak of 1);
// solving it again changes nothing; a wrong first move at another puzzle
// shows the solution and why, and ends the streak.
func TestPuzzlePageRating(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	code, _, page := s.Get(c, "/en/puzzles/handmade")
	checkPage(t, "en", "/en/puzzles/handmade", code, page)
	if code != http.StatusOK || !strings.Contains(page, `name="pit" value="F"`) || !strings.Contains(page, "find the only winning move") {
		t.Fatalf("puzzle page: %d", code)
	}
	form := url.Values{"_csrf": {s.Csrf(page)}, "pit": {"F"}}
	code, _, page = s.Post(c, "/en/puzzles/handmade", form, nil)
	if code != http.StatusOK || !strings.Contains(page, "Solved!") || !strings.Contains(page, "Your puzzle rating is now") {
		t.Fatalf("solving: %d %s", code, page)
	}
	// F's grand slam ends the game at once (South cannot feed the empty
	// row and takes its own seed: 25 to 23).
	if !strings.Contains(page, "F wins by force within 1 ply, whatever the opponent plays.") {
		t.Errorf("solved without the distance of the win")
	}
	_, _, list := s.Get(c, "/en/puzzles")
	if !strings.Contains(list, "1 puzzle in a row") || !strings.Contains(list, "1 solved") {
		t.Errorf("the list page does not show the streak of 1")
	}
	var players []models.PuzzlePlayer
	s.Db.Gorm.Find(&players)
	if len(players) != 1 || players[0].Rating <= 1500 || players[0].Streak != 1 || players[0].Solved != 1 {
		t.Fatalf("players %+v: one, above 1500, streak 1", players)
	}
	pz, _ := s.Db.PuzzleByID(t.Context(), "handmade")
	if pz.Rating >= 1500 || pz.Plays != 1 {
		t.Errorf("the puzzle after being solved: %+v, want below 1500, played once", pz)
	}
	code, _, page = s.Post(c, "/en/puzzles/handmade", form, nil)
	s.Db.Gorm.Find(&players)
	if code != http.StatusOK || !strings.Contains(page, "Solved!") || players[0].Solved != 1 || strings.Contains(page, "Your puzzle rating is now") {
		t.Errorf("solving again: %d, players %+v: want no second rating", code, players)
	}

	// A wrong first move at a shipped puzzle.
	ps, err := content.Puzzles()
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	wrong := p.First[1]
	path := "/en/puzzles/" + p.ID
	_, _, page = s.Get(c, path)
	code, _, page = s.Post(c, path, url.Values{"_csrf": {s.Csrf(page)}, "pit": {labelOf(wrong.Pit)}}, nil)
	if code != http.StatusOK || !strings.Contains(page, labelOf(wrong.Pit)+" does not win.") ||
		!strings.Contains(page, "The move was "+labelOf(p.Solution[0])+".") || !strings.Contains(page, "wins by force") {
		t.Errorf("a wrong move: %d", code)
	}
	s.Db.Gorm.Find(&players)
	if players[0].Streak != 0 || players[0].Failed != 1 || players[0].BestStreak != 1 {
		t.Errorf("after a miss: %+v", players[0])
	}
	// An illegal move is refused and changes nothing.
	code, _, _ = s.Post(c, path, url.Values{"_csrf": {s.Csrf(page)}, "pit": {"Q"}}, nil)
	if code != http.StatusUnprocessableEntity {
		t.Errorf("an illegal move: %d, want 422", code)
	}
}

// labelOf is a pit's label.
func labelOf(pit int) string { return string("ABCDEFabcdef"[pit]) }

// TestPuzzleLine: a shipped puzzle of two moves of the solver is solved
// move by move with forms (htmx answers the panel): after the first, the
// opponent's reply of the solution and "go on"; a line that is not the
// solution's is refused.
func TestPuzzleLine(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	ps, err := content.Puzzles()
	if err != nil {
		t.Fatal(err)
	}
	var line []string
	id := ""
	for _, p := range ps {
		if len(p.Solution) == 3 {
			id, line = p.ID, p.Labels()
			break
		}
	}
	if id == "" {
		t.Fatal("no puzzle of two solver moves shipped")
	}
	c := s.Browser()
	path := "/it/puzzles/" + id
	_, _, page := s.Get(c, path)
	token := s.Csrf(page)
	code, _, panel := s.Post(c, path, url.Values{"_csrf": {token}, "pit": {line[0]}}, map[string]string{"HX-Request": "true"})
	if code != http.StatusOK || !strings.Contains(panel, "Giusto! L&#39;avversario ha risposto "+line[1]) || strings.Contains(panel, "<html") {
		t.Fatalf("first move: %d %s", code, panel)
	}
	next := path + "?line=" + url.QueryEscape(line[0]+","+line[1])
	if !strings.Contains(panel, strings.ReplaceAll(next, "&", "&amp;")) && !strings.Contains(panel, next) {
		t.Errorf("the board's form does not post to %s", next)
	}
	code, _, page = s.Post(c, next, url.Values{"_csrf": {token}, "pit": {line[2]}}, nil)
	if code != http.StatusOK || !strings.Contains(page, "Risolto!") || !strings.Contains(page, strings.Join(line, " ")) {
		t.Errorf("second move: %d", code)
	}
	code, _, _ = s.Post(c, path+"?line="+url.QueryEscape(line[0]+",A"), url.Values{"_csrf": {token}, "pit": {line[2]}}, nil)
	if code != http.StatusBadRequest {
		t.Errorf("a line that is not the solution's: %d, want 400", code)
	}
}

// TestPuzzlePages: the list, a theme, a puzzle and the home page's daily
// puzzle in every language; the daily puzzle is the same on both pages.
func TestPuzzlePages(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	for _, lang := range []string{"cs", "it", "en"} {
		for _, path := range []string{"/" + lang + "/puzzles", "/" + lang + "/puzzles?theme=feeding", "/" + lang + "/puzzles/handmade", "/" + lang + "/"} {
			code, _, page := s.Get(nil, path)
			checkPage(t, lang, path, code, page)
			if code != http.StatusOK {
				t.Errorf("%s: %d", path, code)
			}
		}
	}
	_, _, home := s.Get(nil, "/en/")
	_, _, list := s.Get(nil, "/en/puzzles")
	i, j := strings.Index(home, `id="daily-h"`), strings.Index(list, `id="daily-h"`)
	if i < 0 || j < 0 {
		t.Fatal("no puzzle of the day on the home or the puzzles page")
	}
	link := regexpFind(t, home[i:], `href="(/en/puzzles/[0-9a-f]{8})"`)
	if link != regexpFind(t, list[j:], `href="(/en/puzzles/[0-9a-f]{8})"`) {
		t.Errorf("daily puzzle %q on the home page, another on the puzzles page", link)
	}
	code, hdr, _ := s.Get(nil, "/en/puzzles/next?theme=saving")
	if code != http.StatusSeeOther || !strings.HasPrefix(hdr.Get("Location"), "/en/puzzles/") {
		t.Errorf("next: %d %s", code, hdr.Get("Location"))
	}
	if code, _, _ := s.Get(nil, "/en/puzzles?theme=chess"); code != http.StatusUnprocessableEntity {
		t.Errorf("a bad theme: %d", code)
	}
	if code, _, _ := s.Get(nil, "/en/puzzles/nosuch"); code != http.StatusNotFound {
		t.Errorf("no such puzzle: %d", code)
	}
	if !strings.Contains(list, "Next puzzle") {
		t.Error("no next puzzle button")
	}
}

// TestTutorialsLinkPuzzles: a step of the grand slam tutorial links the
// grand slam puzzles, the first tutorial's the capture chains; Nam-nam's
// none (no puzzles of its rules).
func TestTutorialsLinkPuzzles(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	for path, want := range map[string]string{
		"/en/tutorials/grand-slam/1":         `href="/en/puzzles?theme=grand-slam"`,
		"/cs/tutorials/oware-step-by-step/2": `href="/cs/puzzles?theme=capture-chain"`,
	} {
		if code, _, page := s.Get(nil, path); code != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("%s: %d, no link %s", path, code, want)
		}
	}
	if _, _, page := s.Get(nil, "/en/tutorials/namnam/1"); strings.Contains(page, "/en/puzzles?theme=") {
		t.Error("the Nam-nam tutorial links puzzles")
	}
}

// handdeep is the middlegame puzzle of engine/puzzle's
// TestSolveDeepAgreesWithBruteForce: Warri, 11 seeds, E keeps +9 and F 0
// (every line played to its end).
var handdeep = models.Puzzle{
	ID: "handdeep", Number: 100001, Rules: "warri", Position: "0-0-0-0-4-2-1-2-2-0-0-0-19-18-S",
	Solution: "E", Themes: ",middlegame,grand-slam,", FirstMoves: "E:9:9,F:0:0",
	Rating: 1500, Deviation: 300, Volatility: 0.06,
}

// TestPuzzleDeepPage: a puzzle proven by the deep search margin asks for
// the clearly best move, not the only win, in every language, links no
// endgame explorer (its seeds are beyond the tables), and a wrong move
// says what the search expects of both moves and the margin; the theme's
// list holds it.
func TestPuzzleDeepPage(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	if _, err := s.Db.LoadPuzzles(t.Context(), []models.Puzzle{handdeep}); err != nil {
		t.Fatal(err)
	}
	for lang, task := range map[string]string{"en": "find the move that is clearly best", "cs": "najděte jasně nejlepší tah", "it": "trova la mossa chiaramente migliore"} {
		path := "/" + lang + "/puzzles/handdeep"
		code, _, page := s.Get(nil, path)
		checkPage(t, lang, path, code, page)
		if code != http.StatusOK || !strings.Contains(page, task) || strings.Contains(page, "/explorer?") {
			t.Errorf("%s: %d, want the task %q and no explorer link", path, code, task)
		}
	}
	c := s.Browser()
	_, _, page := s.Get(c, "/en/puzzles/handdeep")
	code, _, page := s.Post(c, "/en/puzzles/handdeep", url.Values{"_csrf": {s.Csrf(page)}, "pit": {"F"}}, nil)
	why := "The computer&#39;s search, 16 plies deep after each move, expects a final capture difference of 0 for you after F and +9 after E: every other move is at least 4 seeds worse."
	if code != http.StatusOK || !strings.Contains(page, "F is not the best move.") || !strings.Contains(page, why) || strings.Contains(page, "does not win") {
		t.Errorf("a wrong move: %d", code)
	}
	code, _, list := s.Get(nil, "/en/puzzles?theme=middlegame")
	if code != http.StatusOK || !strings.Contains(list, "Middlegame") {
		t.Errorf("the middlegame list: %d", code)
	}
}

// TestPuzzleHistory: an account's puzzles page lists its rated attempts
// (the hand-made puzzle solved, the hand-made middlegame missed with F),
// each with its result; before any
// attempt it says there is none, and a guest sees the note instead of a
// history.
func TestPuzzleHistory(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	if _, err := s.Db.LoadPuzzles(t.Context(), []models.Puzzle{handdeep}); err != nil {
		t.Fatal(err)
	}
	alice := s.Account("alice")
	if _, _, list := s.Get(alice, "/en/puzzles"); !strings.Contains(list, "Your solved puzzles") || !strings.Contains(list, "You have not tried a puzzle yet.") {
		t.Errorf("an account's list before any attempt")
	}
	for id, pit := range map[string]string{"handmade": "F", "handdeep": "F"} {
		_, _, page := s.Get(alice, "/en/puzzles/"+id)
		if code, _, _ := s.Post(alice, "/en/puzzles/"+id, url.Values{"_csrf": {s.Csrf(page)}, "pit": {pit}}, nil); code != http.StatusOK {
			t.Fatalf("%s: %d", id, code)
		}
	}
	_, _, list := s.Get(alice, "/en/puzzles")
	i := strings.Index(list, `id="pz-history-h"`)
	if i < 0 {
		t.Fatal("no history section")
	}
	rows := regexp.MustCompile(`<a href="/en/puzzles/(handmade|handdeep)">[a-z]+</a></th><td>(Solved|Missed)</td>`).FindAllStringSubmatch(list[i:], -1)
	got := map[string]string{}
	for _, r := range rows {
		got[r[1]] = r[2]
	}
	if len(rows) != 2 || got["handmade"] != "Solved" || got["handdeep"] != "Missed" {
		t.Errorf("history rows %v, want handmade solved and handdeep missed", rows)
	}
	if _, _, guest := s.Get(nil, "/en/puzzles"); strings.Contains(guest, `id="pz-history-h"`) || !strings.Contains(guest, "With an account you also keep the history") {
		t.Error("a guest's list: a history, or no note")
	}
}
