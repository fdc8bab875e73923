package web_test

import (
	"bytes"
	"image/gif"
	"image/png"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/handlers/web"
)

// finishedGame makes a game through the API, plays South's C and North's
// f, and South resigns: 2 plies.
func finishedGame(t *testing.T, s *handlerstest.Site) string {
	t.Helper()
	id, south, north := s.NewAPIGame("abapa")
	for _, m := range []struct{ tok, pit string }{{south, "C"}, {north, "f"}} {
		if code, g := s.Api("POST", "/api/v1/games/"+id+"/moves", m.tok, map[string]string{"pit": m.pit}); code != http.StatusOK {
			t.Fatalf("move %s: %d %v", m.pit, code, g)
		}
	}
	if code, g := s.Api("POST", "/api/v1/games/"+id+"/resign", south, nil); code != http.StatusOK || g["status"] != "over" {
		t.Fatalf("resign: %d %v", code, g)
	}
	return id
}

// fetchPNG fetches path and returns the PNG's size, failing unless it is
// a PNG of at most 60 KB.
func fetchPNG(t *testing.T, s *handlerstest.Site, path string) (int, int) {
	t.Helper()
	code, hdr, body := s.Get(nil, path)
	if code != http.StatusOK || hdr.Get("Content-Type") != "image/png" {
		t.Fatalf("GET %s: %d %s", path, code, hdr.Get("Content-Type"))
	}
	if len(body) > 60<<10 {
		t.Errorf("GET %s: %d bytes, want at most 61,440", path, len(body))
	}
	img, err := png.Decode(strings.NewReader(body))
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// TestBoardPicture: /board.png draws a position 1200×630 by default and
// at the size asked for; every bad parameter, an oversized picture
// included, is a 422 whose page says what is wrong in the visitor's
// language, with nothing drawn.
func TestBoardPicture(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	start := "position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
	if w, h := fetchPNG(t, s, "/board.png?rules=abapa&"+start); w != 1200 || h != 630 {
		t.Errorf("default: %d×%d, want 1200×630", w, h)
	}
	if w, h := fetchPNG(t, s, "/board.png?rules=wari&"+start+"&orientation=north&last=c&size=600"); w != 600 || h != 315 {
		t.Errorf("size 600: %d×%d, want 600×315", w, h)
	}
	for _, c := range []struct{ query, want string }{
		{"rules=chess&" + start, "Neznámá pravidla"},
		{"rules=abapa&position=4-4-4", "není zápis pozice"},
		{"rules=abapa&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S&orientation=east", "Orientace je south"},
		{"rules=abapa&" + start + "&last=G", "Poslední tah je označení jamky"},
		{"rules=abapa&" + start + "&size=1201", "od 200 do 1200"},
		{"rules=abapa&" + start + "&size=5000", "od 200 do 1200"},
		{"rules=abapa&" + start + "&size=199", "od 200 do 1200"},
		{"rules=abapa&" + start + "&size=big", "od 200 do 1200"},
	} {
		code, hdr, body := s.Do(nil, "GET", "/board.png?"+c.query, nil, map[string]string{"Accept-Language": "cs"})
		if code != http.StatusUnprocessableEntity || strings.HasPrefix(hdr.Get("Content-Type"), "image/") || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s, want 422 saying %q", c.query, code, hdr.Get("Content-Type"), c.want)
		}
	}
}

// TestGamePictures: a finished game's picture after each ply (0 the
// start, to its last), a ply it has not is a 422; its GIF has a frame a
// ply and one for the start, and the second request gets the GIF kept;
// a game being played has no GIF.
func TestGamePictures(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	id := finishedGame(t, s)
	for n := range 3 {
		if w, _ := fetchPNG(t, s, "/en/games/"+id+"/ply/"+strconv.Itoa(n)+".png"); w != 1200 {
			t.Errorf("ply %d: width %d", n, w)
		}
	}
	for _, bad := range []string{"3.png", "-1.png", "x.png", "01.png"} {
		if code, _, _ := s.Get(nil, "/en/games/"+id+"/ply/"+bad); code != http.StatusUnprocessableEntity {
			t.Errorf("ply %s: %d, want 422", bad, code)
		}
	}
	code, hdr, first := s.Get(nil, "/games/"+id+".gif")
	if code != http.StatusOK || hdr.Get("Content-Type") != "image/gif" {
		t.Fatalf("GIF: %d %s", code, hdr.Get("Content-Type"))
	}
	g, err := gif.DecodeAll(strings.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 {
		t.Errorf("GIF of 2 plies: %d frames, want 3", len(g.Image))
	}
	kept, err := s.Db.GameGIF(t.Context(), id)
	if err != nil || !bytes.Equal(kept, []byte(first)) {
		t.Fatalf("kept GIF: %d bytes, %v", len(kept), err)
	}
	if _, _, again := s.Get(nil, "/games/"+id+".gif"); again != first {
		t.Error("the second request got another GIF")
	}
	playing, _, _ := s.NewAPIGame("abapa")
	if code, _, _ := s.Get(nil, "/games/"+playing+".gif"); code != http.StatusNotFound {
		t.Errorf("GIF of a game being played: %d, want 404", code)
	}
}

var ogImage = regexp.MustCompile(`<meta property="og:image" content="([^"]+)">`)

// TestPreviews: the game, invitation, watch, replay, puzzle, analysis
// and lesson pages each carry a link preview (title, description, the
// image with its 1200×630 size and alt text) whose image answers a
// 1200×630 PNG of at most 60 KB; a guests' game names no player. A game
// page's preview is drawn once per version: its second request draws
// nothing.
func TestPreviews(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	over := finishedGame(t, s)
	waiting := ""
	if code, g := s.Api("POST", "/api/v1/games", "", map[string]string{"rules": "abapa", "seat": "south"}); code == http.StatusCreated {
		waiting = g["id"].(string)
	}
	playing, _, _ := s.NewAPIGame("wari")
	_, _, gamePage := s.Get(nil, "/it/games/"+playing)
	watch := regexp.MustCompile(`/it/watch/[a-z0-9]+`).FindString(gamePage)
	if watch == "" {
		t.Fatal("no watch link on the game page")
	}
	for _, path := range []string{
		"/it/games/" + playing, watch, "/it/games/" + waiting + "/join", "/it/games/" + over + "/replay",
		"/it/puzzles/handmade", "/it/analysis", "/it/tutorials/oware-step-by-step/1",
	} {
		code, _, page := s.Get(nil, path)
		if code != http.StatusOK {
			t.Errorf("%s: %d", path, code)
			continue
		}
		for _, tag := range []string{`property="og:title"`, `property="og:description"`, `property="og:image:width" content="1200"`,
			`property="og:image:height" content="630"`, `property="og:image:alt"`, `name="twitter:card" content="summary_large_image"`} {
			if !strings.Contains(page, tag) {
				t.Errorf("%s: no %s", path, tag)
			}
		}
		if strings.Contains(page, `property="og:title" content="ospite`) {
			t.Errorf("%s: a guests' game names its players", path)
		}
		m := ogImage.FindStringSubmatch(page)
		if m == nil || !strings.HasPrefix(m[1], s.Base+"/") {
			t.Errorf("%s: og:image %v", path, m)
			continue
		}
		image := strings.ReplaceAll(strings.TrimPrefix(m[1], s.Base), "&amp;", "&")
		if w, h := fetchPNG(t, s, image); w != 1200 || h != 630 {
			t.Errorf("%s: image %d×%d", path, w, h)
		}
	}
	preview := "/cs/games/" + playing + "/preview.png?v=1"
	before := web.PreviewDraws()
	fetchPNG(t, s, preview)
	fetchPNG(t, s, preview)
	if d := web.PreviewDraws() - before; d != 1 {
		t.Errorf("two requests of one version drew %d previews, want 1", d)
	}
}

// TestEmbedFraming: the embed of a game allows any page to frame it
// (frame-ancestors *, no X-Frame-Options) and shows its replay without
// the site's header; the replay page, the game page and the board
// picture keep refusing framing.
func TestEmbedFraming(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	id := finishedGame(t, s)
	code, hdr, page := s.Get(nil, "/embed/games/"+id+"?lang=it")
	if code != http.StatusOK {
		t.Fatalf("embed: %d", code)
	}
	if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors *") || strings.Contains(csp, "frame-ancestors 'none'") || hdr.Get("X-Frame-Options") != "" {
		t.Errorf("embed: CSP %q, X-Frame-Options %q", csp, hdr.Get("X-Frame-Options"))
	}
	if strings.Contains(page, `class="top"`) || !strings.Contains(page, `id="replay"`) || !strings.Contains(page, `data-nav="prev"`) || !strings.Contains(page, `lang="it"`) {
		t.Error("embed: want the replay with its arrows, in Italian, without the header")
	}
	for _, path := range []string{"/en/games/" + id + "/replay", "/en/games/" + id, "/board.png?rules=abapa&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"} {
		_, hdr, _ := s.Get(nil, path)
		if csp := hdr.Get("Content-Security-Policy"); !strings.HasSuffix(csp, "frame-ancestors 'none'") || hdr.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: CSP %q, X-Frame-Options %q", path, csp, hdr.Get("X-Frame-Options"))
		}
	}
}

// TestEmbedPuzzle: the embed of a puzzle may be framed, and is solved in
// its frame with GET (no CSRF token, no cookie needed): the hand-made
// Warri puzzle's F is right, E is wrong (without the solution: an attempt
// of nobody), an empty pit is a 422
// saying why; the puzzle page offers its embed's code.
func TestEmbedPuzzle(t *testing.T) {
	s := handlerstest.NewPuzzleSite(t, handlerstest.ModelsOpenSQLite(t))
	code, hdr, page := s.Get(nil, "/embed/puzzles/handmade?lang=en")
	if code != http.StatusOK || !strings.Contains(hdr.Get("Content-Security-Policy"), "frame-ancestors *") {
		t.Fatalf("embed: %d, CSP %q", code, hdr.Get("Content-Security-Policy"))
	}
	if !strings.Contains(page, `method="get" action="/embed/puzzles/handmade"`) || !strings.Contains(page, `name="lang" value="en"`) ||
		!strings.Contains(page, `name="pit" value="F"`) || strings.Contains(page, `class="top"`) {
		t.Errorf("embed: want a board sending its pits with GET, no header:\n%s", page)
	}
	for _, c := range []struct {
		pit  string
		code int
		want string
	}{{"F", http.StatusOK, "Solved!"}, {"E", http.StatusOK, "E does not win."}, {"A", http.StatusUnprocessableEntity, "That pit is empty."}} {
		code, hdr, page := s.Get(nil, "/embed/puzzles/handmade?lang=en&pit="+c.pit)
		if code != c.code || !strings.Contains(page, c.want) || hdr.Get("X-Frame-Options") != "" {
			t.Errorf("pit %s: %d, want %d saying %q", c.pit, code, c.code, c.want)
		}
		if strings.Contains(page, "The move was") || strings.Contains(page, "The solution:") || strings.Contains(page, "pit hl") {
			t.Errorf("pit %s: the embed shows the solution:\n%s", c.pit, page)
		}
	}
	if _, _, page := s.Get(nil, "/en/puzzles/handmade"); !strings.Contains(page, "/embed/puzzles/handmade?lang=en") {
		t.Error("the puzzle page offers no embed code")
	}
}

// TestPictureHeaders: a picture sets no cookie (a chat's crawler or a
// club's page asks for it) and may be kept by caches.
func TestPictureHeaders(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	_, hdr, _ := s.Get(nil, "/board.png?rules=abapa&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
	if hdr.Get("Set-Cookie") != "" || !strings.HasPrefix(hdr.Get("Cache-Control"), "public") {
		t.Errorf("Set-Cookie %q, Cache-Control %q", hdr.Get("Set-Cookie"), hdr.Get("Cache-Control"))
	}
}
