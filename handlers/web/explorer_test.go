package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/engine"
	"oware/engine/endgame"
	"oware/game"
	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
)

// newTableSite serves the site with a computer whose endgame tables are
// the Abapa table of up to 6 seeds (built here; no Wari or Warri table).
func newTableSite(t *testing.T, db *models.DB) *handlerstest.Site {
	t.Helper()
	tab, err := endgame.Build(t.Context(), engine.Oware{GrandSlam: engine.Abapa}, 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	return handlerstest.NewSiteWith(t, db, func(cfg *handlers.Config) {
		games := game.New(db, cfg.Log)
		if _, err := games.StartComputer(t.Context(), game.PoolConfig{Workers: 1, HashMB: 1, Tables: endgame.Tables{engine.Abapa: tab}}); err != nil {
			t.Fatal(err)
		}
		cfg.Games = games
	})
}

// explorerMoves decodes the explorer's answer.
type explorerAnswer struct {
	Position string `json:"position"`
	Seeds    int    `json:"seeds"`
	Moves    []struct {
		Move   string `json:"move"`
		Lo, Hi int
		Result string `json:"result"`
	} `json:"moves"`
}

// TestExplorerAPI: South (21 captured) to move with E and F of one seed
// each, North (23) with a and f of one. F makes a 2 and takes it (no
// grand slam: f keeps its seed); North's only move f sows into A; South's
// A and E cannot reach North's empty row, so the game ends and South takes
// its two seeds: 25 to 23, +2 exactly, a win. E's bounds must hold E's
// value and the moves come best first.
func TestExplorerAPI(t *testing.T) {
	s := newTableSite(t, handlerstest.ModelsOpenSQLite(t))
	pos := "0-0-0-0-1-1-1-0-0-0-0-1-21-23-S"
	code, _, body := s.Get(nil, "/api/v1/explorer?rules=abapa&position="+url.QueryEscape(pos))
	if code != http.StatusOK {
		t.Fatalf("explorer: %d %s", code, body)
	}
	var got explorerAnswer
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got.Position != pos || got.Seeds != 4 || len(got.Moves) != 2 {
		t.Fatalf("explorer: %s", body)
	}
	if !strings.Contains(body, `{"move":"F","lo":2,"hi":2,"result":"win"}`) {
		t.Errorf("no F +2 win: %s", body)
	}
	for i, m := range got.Moves {
		want := map[bool]string{true: "win"}[m.Lo > 0]
		switch {
		case m.Hi < 0:
			want = "loss"
		case m.Lo == 0 && m.Hi == 0:
			want = "draw"
		case want == "":
			want = "unknown"
		}
		if m.Lo > m.Hi || m.Result != want || i > 0 && m.Lo > got.Moves[i-1].Lo {
			t.Errorf("move %+v: want result %s, best first", m, want)
		}
	}

	for _, c := range []struct {
		query string
		code  int
	}{
		{"rules=abapa", http.StatusBadRequest},
		{"rules=abapa&position=1-2-3", http.StatusBadRequest},
		{"rules=chess&position=" + pos, http.StatusBadRequest},
		{"rules=abapa&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", http.StatusUnprocessableEntity},   // 48 seeds
		{"rules=abapa&position=0-0-0-0-0-0-1-0-0-0-0-0-24-23-S", http.StatusUnprocessableEntity}, // South cannot move
		{"rules=wari&position=" + pos, http.StatusUnprocessableEntity},                           // no Wari table here
		{"rules=namnam&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", http.StatusUnprocessableEntity},  // no tables for Nam-nam
	} {
		code, out := s.Api("GET", "/api/v1/explorer?"+c.query, "", nil)
		if code != c.code || out["error"] == "" {
			t.Errorf("%s: %d %v, want %d with an error", c.query, code, out, c.code)
		}
	}
}

// TestExplorerPage: the page shows the moves best first, each a link to
// the position after it, in every language; a bad position is refused on
// the page with its status.
func TestExplorerPage(t *testing.T) {
	s := newTableSite(t, handlerstest.ModelsOpenSQLite(t))
	pos := "0-0-0-0-1-1-1-0-0-0-0-1-21-23-S"
	for _, lang := range []string{"cs", "it", "en"} {
		path := "/" + lang + "/explorer?rules=abapa&position=" + url.QueryEscape(pos)
		code, _, page := s.Get(nil, path)
		checkPage(t, lang, path, code, page)
		if code != http.StatusOK {
			t.Fatalf("%s: %d", path, code)
		}
		// After F: E's and f's seeds left, North to move, 23-23.
		afterF := "/" + lang + "/explorer?position=" + url.QueryEscape("0-0-0-0-1-0-0-0-0-0-0-1-23-23-N") + "&amp;rules=abapa"
		if !strings.Contains(page, afterF) || !strings.Contains(page, ">E</a>") {
			t.Errorf("%s: no link to the position after F, or none for E", path)
		}
	}
	code, _, page := s.Get(nil, "/en/explorer?rules=abapa&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
	if code != http.StatusUnprocessableEntity || !strings.Contains(page, "more seeds on the board than the endgame tables cover") {
		t.Errorf("the start: %d", code)
	}
	code, _, _ = s.Get(nil, "/en/explorer")
	if code != http.StatusOK {
		t.Errorf("the empty form: %d", code)
	}
}
