package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// versionRe finds the version of the game a page's action forms carry.
var versionRe = regexp.MustCompile(`name="version" value="(\d+)"`)

// pageVersion returns the version field of a game page's forms.
func pageVersion(t *testing.T, page string) string {
	t.Helper()
	m := versionRe.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no version field in the page:\n%s", page)
	}
	return m[1]
}

// TestTakebackDoubleClick: a double click on "Take back" (the same form
// posted twice) takes back one move pair, not two (issue 19 item 7: 20/20
// double clicks took back four plies). The second post is refused as made
// on an older version of the game and says so.
func TestTakebackDoubleClick(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		p, page := s.AtPly4()
		first := handlerstest.MovesShown(page)[:2]
		form := url.Values{"_csrf": {s.Csrf(page)}, "version": {pageVersion(t, page)}}
		for i := range 2 {
			if code, hdr, _ := s.Post(p.C, p.Game+"/takeback", form, nil); code != http.StatusSeeOther || hdr.Get("Location") != p.Game {
				t.Fatalf("takeback %d: %d %q", i+1, code, hdr.Get("Location"))
			}
		}
		_, _, page = s.Get(p.C, p.Game)
		if got := handlerstest.MovesShown(page); got != first {
			t.Fatalf("after a double takeback: moves %q, want %q", got, first)
		}
		if !strings.Contains(page, "a second click?") {
			t.Errorf("the page does not say the second takeback did nothing:\n%s", page)
		}
		if n, _ := handlerstest.Stored(t, db, gameID(p.Game)); n != 2 {
			t.Errorf("%d moves stored, want 2", n)
		}
		// With htmx the refusal is 409 with the panel of the game as it is.
		code, _, panel := s.Post(p.C, p.Game+"/takeback", form, map[string]string{"HX-Request": "true"})
		if code != http.StatusConflict || !strings.Contains(panel, "a second click?") {
			t.Errorf("a stale takeback with htmx: %d\n%s", code, panel)
		}
		// A version that is not a number is a bad request.
		form.Set("version", "x")
		if code, _, _ := s.Post(p.C, p.Game+"/takeback", form, nil); code != http.StatusBadRequest {
			t.Errorf("version x: %d, want 400", code)
		}
	})
}

// TestConcurrentTakebacks: ten takebacks posted at once at ply 4, all from
// the same page, take back exactly one move pair (issue 19 item 7: they
// left 0 plies).
func TestConcurrentTakebacks(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		p, page := s.AtPly4()
		first := handlerstest.MovesShown(page)[:2]
		form := url.Values{"_csrf": {s.Csrf(page)}, "version": {pageVersion(t, page)}}
		codes := make([]int, 10)
		var wg sync.WaitGroup
		for i := range codes {
			wg.Go(func() {
				codes[i], _, _ = s.Post(p.C, p.Game+"/takeback", form, map[string]string{"HX-Request": "true"})
			})
		}
		wg.Wait()
		ok := 0
		for _, code := range codes {
			switch code {
			case http.StatusOK:
				ok++
			case http.StatusConflict:
			default:
				t.Errorf("a takeback answered %d", code)
			}
		}
		_, _, page = s.Get(p.C, p.Game)
		if got := handlerstest.MovesShown(page); ok != 1 || got != first {
			t.Fatalf("%d takebacks answered 200, moves %q; want 1 and %q (codes %v)", ok, got, first, codes)
		}
		if n, _ := handlerstest.Stored(t, db, gameID(p.Game)); n != 2 {
			t.Errorf("%d moves stored, want 2", n)
		}
	})
}

// TestResignReplayed: a resignation through the API that names the
// version of the game acts once: on an older version it is 409 and
// changes nothing; replayed after it acted, 409 again. Without a version
// it acts as before.
func TestResignReplayed(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		id, south, north := s.NewAPIGame("abapa")
		code, g := s.Api("GET", "/api/v1/games/"+id, south, nil)
		v0 := g["version"].(float64)
		if code != http.StatusOK || v0 < 1 {
			t.Fatalf("the game: %d %v", code, g)
		}
		if code, _ := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != http.StatusOK {
			t.Fatalf("move: %d", code)
		}
		// North resigns on the version before South's move: refused.
		code, e := s.Api("POST", "/api/v1/games/"+id+"/resign", north, map[string]any{"version": v0})
		if code != http.StatusConflict || e["error"] == nil {
			t.Fatalf("a resignation on an old version: %d %v", code, e)
		}
		_, g = s.Api("GET", "/api/v1/games/"+id, south, nil)
		if g["status"] != "playing" || g["version"].(float64) != v0+1 {
			t.Fatalf("after the refused resignation: %v", g)
		}
		body := map[string]any{"version": g["version"]}
		if code, g := s.Api("POST", "/api/v1/games/"+id+"/resign", north, body); code != http.StatusOK || g["result"] != "south" {
			t.Fatalf("resignation: %d %v", code, g)
		}
		if code, _ := s.Api("POST", "/api/v1/games/"+id+"/resign", north, body); code != http.StatusConflict {
			t.Errorf("the replayed resignation: %d, want 409", code)
		}
		_, g = s.Api("GET", "/api/v1/games/"+id, south, nil)
		if g["result"] != "south" || g["reason"] != "resignation" || g["version"].(float64) != v0+2 {
			t.Errorf("after the replay: %v", g)
		}
		// Without a version (older programs) a resignation acts.
		id, south, _ = s.NewAPIGame("abapa")
		if code, g := s.Api("POST", "/api/v1/games/"+id+"/resign", south, nil); code != http.StatusOK || g["result"] != "north" {
			t.Errorf("a resignation without a version: %d %v", code, g)
		}
	})
}
