package web_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"oware/handlers"
	"oware/handlers/handlerstest"
)

// blunderPosition is the position of blunderRecord: F wins 25-21 at once,
// E loses 23-25 (TestReviewBlunder in package game works it out).
const blunderPosition = "0-0-0-0-1-1-1-0-0-1-0-0-23-21-S"

// TestAnalysisBoard: the board opens the start, a position string, or a
// position set up pit by pit; its lines are every legal move with the
// proven values, best first; a pit played goes to the position after it
// with a way back; a bad position is refused with a clear message.
func TestAnalysisBoard(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	code, _, page := s.Get(c, "/en/analysis")
	if code != http.StatusOK || strings.Count(page, `name="pit" value=`) != 6 || !strings.Contains(page, "Analyse this position") {
		t.Fatalf("the start: %d\n%s", code, page)
	}
	code, _, page = s.Get(c, "/en/analysis?rules=abapa&position="+blunderPosition+"&analyse=1")
	f, e := strings.Index(page, "<th scope=\"row\">F</th>"), strings.Index(page, "<th scope=\"row\">E</th>")
	if code != http.StatusOK || f < 0 || e < f || !strings.Contains(page, "+4 <br><small>proven win") || !strings.Contains(page, "−2 <br><small>proven loss") || strings.Contains(page, "/analysis/lines?") {
		t.Fatalf("lines: %d\n%s", code, page)
	}
	code, hdr, _ := s.Post(c, "/en/analysis/play?rules=abapa&position="+blunderPosition, url.Values{"_csrf": {s.Csrf(page)}, "pit": {"E"}}, nil)
	to := hdr.Get("Location")
	if code != http.StatusSeeOther || !strings.Contains(to, "position=0-0-0-0-0-2-1-0-0-1-0-0-23-21-N") || !strings.Contains(to, "prev="+blunderPosition) {
		t.Fatalf("play E: %d to %q", code, to)
	}
	_, _, page = s.Get(c, to)
	if !strings.Contains(page, "North to move") || !strings.Contains(page, "Back one move") {
		t.Errorf("after E:\n%s", page)
	}
	edit := url.Values{"edit": {"1"}, "rules": {"abapa"}, "cap_south": {"23"}, "cap_north": {"21"}, "to_move": {"S"}}
	for i, n := range []int{0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0} {
		edit.Set("pit"+strconv.Itoa(i), strconv.Itoa(n))
	}
	if _, _, page = s.Get(c, "/en/analysis?"+edit.Encode()); !strings.Contains(page, `value="`+blunderPosition+`"`) {
		t.Errorf("edited position not opened:\n%s", page)
	}
	edit.Set("pit0", "5")
	if code, _, page = s.Get(c, "/en/analysis?"+edit.Encode()); code != http.StatusUnprocessableEntity || !strings.Contains(page, "must add up to 48") {
		t.Errorf("53 seeds: %d\n%s", code, page)
	}
	if code, _, page = s.Get(c, "/en/analysis?rules=namnam&fours=owner"); code != http.StatusOK || !strings.Contains(page, `value="owner" selected`) {
		t.Errorf("Nam-nam: %d\n%s", code, page)
	}
	code, _, page = s.Get(c, "/en/analysis/lines?rules=abapa&position="+blunderPosition+"&step=0")
	if code != http.StatusOK || !strings.Contains(page, `id="an-lines"`) || strings.Contains(page, "hx-get") {
		t.Errorf("lines, all proven (no deeper search asked): %d\n%s", code, page)
	}
	if code, _, _ = s.Get(c, "/en/analysis/lines?rules=abapa&step=9"); code != http.StatusBadRequest {
		t.Errorf("step 9: %d, want 400", code)
	}
	if _, _, page = s.Get(c, "/en/tutorials/oware-step-by-step/4"); !strings.Contains(page, `href="/en/analysis?position=`) {
		t.Errorf("tutorial step without the analysis board link")
	}
}

// TestAnalysisBoardDeepensAndLinks: at the start no line is proven, so
// the lines of a step (one for each of the six legal moves) ask for the
// next, deeper one (htmx, while the page
// is open), and the last step asks for none; each search counts against
// the client's analysis limit (429 past it); a finished game links the
// board at its last position and its replay at the ply shown (C then f
// from the start: 4-4-0-5-5-5-5-4-4-4-4-4-0-0-N after C, then
// 5-5-1-6-5-5-5-4-4-4-4-0-0-0-S, RULES.md 2.2).
func TestAnalysisBoardDeepensAndLinks(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) {
		c.AnalysisLimit = handlers.RateLimit{Burst: 3, Every: 90 * time.Second}
	})
	start := "/en/analysis/lines?rules=abapa&position=" + url.QueryEscape("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
	code, _, page := s.Get(nil, start+"&step=0")
	if code != http.StatusOK || !regexp.MustCompile(`hx-get="/en/analysis/lines\?[^"]*step=1`).MatchString(page) || strings.Count(page, `<th scope="row">`) != 6 {
		t.Errorf("step 0: %d, want six lines and the next step asked for:\n%s", code, page)
	}
	code, _, page = s.Get(nil, start+"&step=2")
	if code != http.StatusOK || strings.Contains(page, "hx-get") {
		t.Errorf("the last step: %d, want no further step:\n%s", code, page)
	}
	s.Get(nil, start+"&step=0")
	if code, _, _ := s.Get(nil, start+"&step=0"); code != http.StatusTooManyRequests {
		t.Errorf("past the analysis limit: %d, want 429", code)
	}
	id, south, north := s.NewAPIGame("abapa")
	s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"})
	s.Api("POST", "/api/v1/games/"+id+"/moves", north, map[string]string{"pit": "f"})
	s.Api("POST", "/api/v1/games/"+id+"/resign", south, nil)
	for path, want := range map[string]string{
		"/en/games/" + id:                   "/en/analysis?position=5-5-1-6-5-5-5-4-4-4-4-0-0-0-S",
		"/en/games/" + id + "/replay?ply=1": "/en/analysis?position=4-4-0-5-5-5-5-4-4-4-4-4-0-0-N",
	} {
		_, _, page := s.Get(nil, path)
		if !strings.Contains(page, `href="`+want) || !strings.Contains(page, "Open this position on the analysis board") {
			t.Errorf("%s without the link to %s", path, want)
		}
	}
}

// TestAnalysisBoardTables: on a site whose computer has the Abapa table of
// up to 6 seeds, the board of blunderPosition (4 seeds) gives the tables'
// proven value, a win (F captures a's 2: 25 seeds; the tables' bounds of
// the difference follow, they leave the 25-seed end out, docs/puzzles.md),
// and links the endgame explorer there, in every language; the start (48
// seeds) and a Nam-nam board give neither.
func TestAnalysisBoardTables(t *testing.T) {
	s := newTableSite(t, handlerstest.ModelsOpenSQLite(t))
	for lang, want := range map[string]string{
		"en": "Endgame tables: a proven win for the player to move, final capture difference +",
		"cs": "Tabulky koncovek: dokázaná výhra hráče na tahu, konečný rozdíl zajatých semen +",
		"it": "Tabelle dei finali: vittoria dimostrata per chi muove, differenza finale delle catture +",
	} {
		path := "/" + lang + "/analysis?rules=abapa&position=" + blunderPosition
		code, _, page := s.Get(nil, path)
		checkPage(t, lang, path, code, page)
		explorer := `href="/` + lang + `/explorer?position=` + blunderPosition + `&amp;rules=abapa"`
		if code != http.StatusOK || !strings.Contains(page, want) || !strings.Contains(page, explorer) {
			t.Errorf("%s: %d, want %q and the explorer link", path, code, want)
		}
	}
	for _, path := range []string{"/en/analysis", "/en/analysis?rules=namnam"} {
		if _, _, page := s.Get(nil, path); strings.Contains(page, "Endgame tables:") || strings.Contains(page, "/en/explorer?") {
			t.Errorf("%s: the tables' value or the explorer outside the tables", path)
		}
	}
}
