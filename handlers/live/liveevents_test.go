package live_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// TestLiveMoveEventIsWhatChanged: spectators whose streams sent the
// version before get a mid-game move as the event "move", only what
// changed: under 45 % of the whole panel, and under 450 bytes and 250 a
// changed pit. Move 14,
// North's d (5 seeds, RULES.md: sown into e, f, A, B, C, no capture):
// the status line, the six pits d e f A B C (C also loses the last
// move's mark) with their new counts, the move count, the last move and
// the changed entry "7. C d"; not the pits a b c D E F, the plates or the
// table. Move 15, South's C (1 seed into D): pits C, D and d (its mark
// goes) and the new entry "8. C", appended. A stream that connects a
// version late gets the whole panel first.
func TestLiveMoveEventIsWhatChanged(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	id, south, north := s.NewAPIGame("abapa") // version 2
	tokens := []string{south, north}
	for i, m := range []string{"C", "f", "A", "a", "D", "d", "B", "b", "E", "e", "F", "c", "C"} {
		if code, res := s.Api("POST", "/api/v1/games/"+id+"/moves", tokens[i%2], map[string]string{"pit": m}); code != http.StatusOK {
			t.Fatalf("move %d %s: %d %v", i+1, m, code, res)
		}
	}
	// Now (RULES.md's sowing, by hand) South A-F: 6 4 0 6 3 2, North a-f: 7 4 1 5 0 7.
	current := events(t, s, "/en/games/"+id+"/events?v=15")
	late := events(t, s, "/en/games/"+id+"/events?v=14")
	whole := <-late
	if !strings.HasPrefix(whole, "id: 15\nevent: game\n") {
		t.Fatalf("a stream a version late first gets %q, want the whole panel", whole)
	}
	for _, c := range []struct {
		mover, pit string
		version    int
		pits, not  string
		want       []string
	}{
		{north, "d", 16, "defABC", "abcDEF", []string{
			`<div id="turn" hx-swap-oob="innerHTML"><span class="state turn-theirs">South to move</span>`,
			`class="pit last empty" id="pit-d"`, "pit d, 0 seeds", "pit e, 1 seed<", "pit f, 8 seeds",
			"pit A, 7 seeds", "pit B, 5 seeds", `<div hx-swap-oob="true" class="pit" id="pit-C">`, "pit C, 1 seed<",
			`<h2 hx-swap-oob="true" id="moves-h">14 moves</h2>`, "Last move: d",
			`<li hx-swap-oob="true" id="mv-7">7. C <mark aria-current="true">d</mark></li>`,
		}},
		{south, "C", 17, "CDd", "ABEFabcef", []string{
			`<span class="state turn-theirs">North to move</span>`,
			`class="pit last empty" id="pit-C"`, "pit D, 7 seeds", `<div hx-swap-oob="true" class="pit empty" id="pit-d">`,
			`<h2 hx-swap-oob="true" id="moves-h">15 moves</h2>`, "Last move: C",
			`<li hx-swap-oob="true" id="mv-7">7. C d</li>`,
			`<ol hx-swap-oob="beforeend:.moves ol:last-of-type"><li id="mv-8">8. <mark aria-current="true">C</mark></li></ol>`,
		}},
	} {
		if code, res := s.Api("POST", "/api/v1/games/"+id+"/moves", c.mover, map[string]string{"pit": c.pit}); code != http.StatusOK {
			t.Fatalf("move %s: %d %v", c.pit, code, res)
		}
		for _, stream := range []<-chan string{current, late} {
			e := <-stream
			if !strings.HasPrefix(e, "id: "+strconv.Itoa(c.version)+"\nevent: move\n") {
				t.Fatalf("%s: the event is not what changed:\n%s", c.pit, e)
			}
			for _, p := range c.pits {
				if !strings.Contains(e, `id="pit-`+string(p)+`"`) {
					t.Errorf("%s: the event lacks pit %c", c.pit, p)
				}
			}
			for _, p := range c.not {
				if strings.Contains(e, `id="pit-`+string(p)+`"`) {
					t.Errorf("%s: the event holds pit %c, which did not change", c.pit, p)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(e, w) {
					t.Errorf("%s: the event lacks %q:\n%s", c.pit, w, e)
				}
			}
			for _, no := range []string{"plate-", "settings", "board-col"} {
				if strings.Contains(e, no) {
					t.Errorf("%s: the event holds %q, which did not change", c.pit, no)
				}
			}
			// A pit drawn with up to 12 seeds is under 250 bytes; the status
			// line, the move count, the last move and two entries under 450.
			if bound := 450 + 250*len(c.pits); len(e) > bound || len(e)*20 > len(whole)*9 {
				t.Errorf("%s: the event is %d bytes, the whole panel %d: want under %d and 45 %% of it", c.pit, len(e), len(whole), bound)
			}
			t.Logf("%s: event %d bytes; the whole panel %d", c.pit, len(e), len(whole))
		}
	}
}

// events opens the event stream at path of s for a visitor without a
// seat and returns its events with an id, each whole.
func events(t *testing.T, s *handlerstest.Site, path string) <-chan string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "GET", s.Srv.URL+path, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	return handlerstest.Events(res.Body, func(e string) bool { return strings.HasPrefix(e, "id: ") })
}
