package web_test

import (
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
)

// pngSize returns the width and height of a PNG file, or 0, 0.
func pngSize(b []byte) (int, int) {
	if len(b) < 24 || string(b[1:4]) != "PNG" {
		return 0, 0
	}
	return int(binary.BigEndian.Uint32(b[16:20])), int(binary.BigEndian.Uint32(b[20:24]))
}

// TestIconsManifestRobots: the favicon, the home-screen icon and the web
// app manifest's icons are served with their types and sizes; robots.txt
// keeps crawlers out of the API only and names the sitemap.
func TestIconsManifestRobots(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	code, hdr, body := s.Get(nil, "/favicon.ico")
	if code != 200 || hdr.Get("Content-Type") != "image/x-icon" || !strings.HasPrefix(body, "\x00\x00\x01\x00\x03\x00") {
		t.Errorf("favicon.ico: %d %s, %d images", code, hdr.Get("Content-Type"), body[4])
	}
	code, hdr, body = s.Get(nil, "/apple-touch-icon.png")
	if w, h := pngSize([]byte(body)); code != 200 || hdr.Get("Content-Type") != "image/png" || w != 180 || h != 180 {
		t.Errorf("apple-touch-icon.png: %d %s %dx%d", code, hdr.Get("Content-Type"), w, h)
	}
	code, hdr, body = s.Get(nil, "/manifest.webmanifest")
	var m struct {
		Name, StartURL, Display string
		Icons                   []struct{ Src, Sizes, Type, Purpose string }
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(body, "start_url", "StartURL")), &m); err != nil || code != 200 ||
		hdr.Get("Content-Type") != "application/manifest+json" || m.Name != "Oware" || m.StartURL != "/" || m.Display != "standalone" {
		t.Fatalf("manifest: %d %s %v %+v", code, hdr.Get("Content-Type"), err, m)
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		code, hdr, body := s.Get(nil, ic.Src)
		if code != 200 || hdr.Get("Content-Type") != ic.Type || !strings.Contains(hdr.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: %d %s", ic.Src, code, hdr.Get("Content-Type"))
		}
		if w, h := pngSize([]byte(body)); ic.Type == "image/png" && ic.Sizes != itoa(w)+"x"+itoa(h) {
			t.Errorf("%s: %dx%d, the manifest says %s", ic.Src, w, h, ic.Sizes)
		}
		sizes[ic.Sizes+ic.Purpose] = true
	}
	if !sizes["192x192"] || !sizes["512x512"] || !sizes["512x512maskable"] || !sizes["any"] {
		t.Errorf("manifest icons: %v", sizes)
	}
	_, _, page := s.Get(nil, "/en/")
	for _, want := range []string{`<link rel="manifest" href="/manifest.webmanifest">`, `<link rel="apple-touch-icon" href="/apple-touch-icon.png">`,
		`<link rel="icon" href="/favicon.ico" sizes="32x32">`} {
		if !strings.Contains(page, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	if svg := regexp.MustCompile(`<link rel="icon" href="(/static/icon\.[0-9a-f]+\.svg)" type="image/svg\+xml">`).FindStringSubmatch(page); svg == nil {
		t.Error("no SVG favicon")
	} else if code, hdr, _ := s.Get(nil, svg[1]); code != 200 || hdr.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("%s: %d %s", svg[1], code, hdr.Get("Content-Type"))
	}
	code, _, body = s.Get(nil, "/robots.txt")
	if code != 200 || body != "User-agent: *\nDisallow: /api/\n\nSitemap: "+s.Srv.URL+"/sitemap.xml\n" {
		t.Errorf("robots.txt: %d %q", code, body)
	}
}

// TestIndexing: every page of the sitemap may be indexed and has a meta
// description and a canonical URL; games, replays, players and the account
// pages say noindex.
func TestIndexing(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	_, _, body := s.Get(nil, "/sitemap.xml")
	var set struct {
		Locs []string `xml:"url>loc"`
	}
	if err := xml.Unmarshal([]byte(body), &set); err != nil || len(set.Locs) < 30 {
		t.Fatalf("sitemap: %v, %d pages", err, len(set.Locs))
	}
	desc := regexp.MustCompile(`<meta name="description" content="[^"]{40,}">`)
	for _, loc := range set.Locs {
		path := strings.TrimPrefix(loc, s.Srv.URL)
		_, _, page := s.Get(nil, path)
		if strings.Contains(page, "noindex") || !desc.MatchString(page) || !strings.Contains(page, `<link rel="canonical" href="`+loc+`">`) {
			t.Errorf("%s: noindex, or no description or canonical URL", path)
		}
	}
	south, north := s.FormGame("en", "abapa")
	id := gameID(south.Game)
	s.PlayAndResign(south, north, 2)
	alice := s.Account("alice")
	_, _, watch := s.Get(south.C, south.Game)
	spectator := regexp.MustCompile(`href="(/en/watch/[a-z2-7]+)"`).FindStringSubmatch(watch)
	if spectator == nil {
		t.Fatal("no spectator link")
	}
	for _, p := range []struct {
		c    *http.Client
		path string
	}{{south.C, south.Game}, {nil, spectator[1]}, {nil, south.Game + "/replay?ply=1"}, {nil, "/join/" + id},
		{alice, "/en/players/alice"}, {alice, "/en/account"}, {nil, "/en/login"}, {nil, "/en/register"}, {nil, "/en/import"}, {nil, "/en/nothing"}} {
		c := p.c
		if c == nil {
			c = &http.Client{} // follows redirects
		}
		_, _, page := s.Get(c, p.path)
		if !strings.Contains(page, `<meta name="robots" content="noindex">`) || strings.Contains(page, `rel="canonical"`) {
			t.Errorf("%s: indexable", p.path)
		}
	}
}

// TestLanguageSwitchKeepsQuery: the language links of a page lead to the
// same page with the same query in the other languages.
func TestLanguageSwitchKeepsQuery(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	south, north := s.FormGame("en", "abapa")
	s.PlayAndResign(south, north, 4)
	_, _, page := s.Get(nil, south.Game+"/replay?ply=3")
	for _, l := range []string{"cs", "it"} {
		want := `href="/` + l + strings.TrimPrefix(south.Game, "/en") + `/replay?ply=3" hreflang="` + l + `"`
		if !strings.Contains(page, want) {
			t.Errorf("replay: no %s", want)
		}
	}
	s.Account("alice")
	_, _, page = s.Get(nil, "/it/players/alice?rules=abapa&result=won")
	if want := `href="/cs/players/alice?rules=abapa&amp;result=won" hreflang="cs"`; !strings.Contains(page, want) {
		t.Errorf("player page: no %s", want)
	}
}

// TestRegistrationErrors: a registration with several wrong fields shows
// every error at once, each next to its field (aria-invalid, described by
// the error) and listed above the form with a link to the field; nothing
// is stored.
func TestRegistrationErrors(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	_, _, page := s.Get(c, "/en/register")
	code, _, page := s.Post(c, "/en/register", url.Values{"_csrf": {s.Csrf(page)}, "username": {"a b"}, "password": {"short"}, "email": {"not-an-address"}}, nil)
	if code != http.StatusUnprocessableEntity {
		t.Fatalf("register: %d", code)
	}
	for _, f := range []struct{ field, msg string }{
		{"username", "The username must have 3 to 20 letters (a-z), digits, _ or -."},
		{"password", "The password must have at least 10 characters (and at most 200)."},
		{"email", "That email address is not valid."},
	} {
		for _, want := range []string{`<li><a href="#` + f.field + `">` + f.msg + `</a></li>`,
			`<span class="field-error" id="` + f.field + `-err">` + f.msg + `</span>`,
			`aria-describedby="` + f.field + `-err ` + f.field + `-hint" aria-invalid="true"`} {
			if !strings.Contains(page, want) {
				t.Errorf("no %s", want)
			}
		}
	}
	if !strings.Contains(page, "Please correct 3 fields:") || !strings.Contains(page, `value="a b"`) || users(t, s.Db) != 0 {
		t.Errorf("summary, kept name or stored user:\n%s", page)
	}
	// A taken name is the username's error.
	s.Account("alice")
	_, _, page = s.Get(c, "/en/register")
	code, _, page = s.Post(c, "/en/register", url.Values{"_csrf": {s.Csrf(page)}, "username": {"Alice"}, "password": {handlerstest.TestPassword}}, nil)
	if code != http.StatusUnprocessableEntity || !strings.Contains(page, `<span class="field-error" id="username-err">This username is taken.`) ||
		strings.Contains(page, `id="password-err"`) {
		t.Errorf("taken name: %d", code)
	}
}

// TestThemeChoice: the theme toggle works without JavaScript: the form
// keeps the choice in a cookie and comes back to the page, which then has
// that theme; "system" forgets it; a bad value or a foreign next page
// changes nothing.
func TestThemeChoice(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	_, _, page := s.Get(c, "/en/rules")
	if !strings.Contains(page, `<html lang="en">`) || !strings.Contains(page, `<input type="hidden" name="next" value="/en/rules">`) {
		t.Fatal("no theme form for this page")
	}
	choose := func(theme, next string) (int, string) {
		t.Helper()
		code, hdr, _ := s.Post(c, "/theme", url.Values{"_csrf": {s.Csrf(page)}, "theme": {theme}, "next": {next}}, nil)
		return code, hdr.Get("Location")
	}
	if code, to := choose("dark", "/en/rules"); code != http.StatusSeeOther || to != "/en/rules" {
		t.Fatalf("dark: %d %q", code, to)
	}
	if _, _, page = s.Get(c, "/it/history"); !strings.Contains(page, `<html lang="it" data-theme="dark">`) {
		t.Error("the dark theme is not kept")
	}
	if code, to := choose("light", "//evil.example/"); code != http.StatusSeeOther || to != "/en/" {
		t.Errorf("light with a foreign next page: %d %q", code, to)
	}
	if _, _, page = s.Get(c, "/en/"); !strings.Contains(page, `<html lang="en" data-theme="light">`) {
		t.Error("the light theme is not kept")
	}
	if code, _ := choose("purple", "/en/"); code != http.StatusBadRequest {
		t.Errorf("a bad theme: %d", code)
	}
	choose("system", "/en/")
	if _, _, page = s.Get(c, "/en/"); !strings.Contains(page, `<html lang="en">`) {
		t.Error("system did not forget the choice")
	}
	if code, _, _ := s.Post(c, "/theme", url.Values{"theme": {"dark"}}, nil); code != http.StatusForbidden {
		t.Errorf("without a CSRF token: %d", code)
	}
}

// TestHomeGamesInProgress: the home page lists the visitor's games that
// are not over, those waiting for the visitor's move first, then those
// waiting for the opponent's, then those waiting for an opponent; a player
// also sees the account's games in another browser.
func TestHomeGamesInProgress(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	me, other := s.Account("alice"), s.Browser()
	_, _, page := s.Get(me, "/en/games/new")
	s.Post(me, "/en/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {"wari"}, "seat": {"south"}}, nil) // waiting
	theirs, _ := s.FormGameWith(me, other, "en", "abapa")
	s.Move(theirs, "C", nil) // North's turn
	s.FormGameWith(me, other, "en", "warri")
	over, overNorth := s.FormGameWith(me, other, "en", "abapa")
	s.PlayAndResign(over, overNorth, 1)
	for name, c := range map[string]*http.Client{"this browser": me, "another browser": s.Browser()} {
		if name == "another browser" {
			s.Login(c, "en", "alice", handlerstest.TestPassword)
		}
		_, _, page = s.Get(c, "/en/")
		list := regexp.MustCompile(`(?s)<ul class="open-games">(.*?)</ul>`).FindStringSubmatch(page)
		if list == nil {
			t.Fatalf("%s: no games in progress", name)
		}
		var got []string
		for _, m := range regexp.MustCompile(`<span class="pill[^"]*">([^<]+)</span> <span class="og-rules">([^<]+)</span>`).FindAllStringSubmatch(list[1], -1) {
			got = append(got, m[1]+": "+m[2])
		}
		want := []string{"your turn: Warri", "opponent&#39;s turn: Abapa (standard)", "waiting for the opponent: Wari"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if _, _, page = s.Get(nil, "/en/"); strings.Contains(page, "open-games") {
		t.Error("a new visitor sees games in progress")
	}
}

// TestWaitingPageReloads: without JavaScript a page whose viewer waits for
// the other player reloads itself and says so with a reload button; the
// page of the player to move does not.
func TestWaitingPageReloads(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	_, _, page := s.Get(c, "/en/games/new")
	_, hdr, _ := s.Post(c, "/en/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {"abapa"}, "seat": {"south"}}, nil)
	game := hdr.Get("Location")
	reloads := func(page string) bool {
		return strings.Contains(page, `<noscript><meta http-equiv="refresh" content="10"></noscript>`) &&
			strings.Contains(page, `reloads itself every 10 seconds. <a class="button" href="`+game+`">Reload now</a>`)
	}
	if _, _, page = s.Get(c, game); !reloads(page) {
		t.Error("the creator's waiting page does not reload")
	}
	other := s.Browser()
	_, _, page = s.Get(other, game+"/join")
	s.Post(other, game+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	if _, _, page = s.Get(c, game); reloads(page) || strings.Contains(page, "http-equiv") {
		t.Error("the page of the player to move reloads")
	}
	if _, _, page = s.Get(other, game); !reloads(page) {
		t.Error("the page of the player waiting for the move does not reload")
	}
}
