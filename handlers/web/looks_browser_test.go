//go:build browser

package web_test

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"oware/content"
	"oware/engine"
	"oware/engine/puzzle"
	"oware/handlers/handlerstest"
)

// shippedPuzzle returns the first shipped puzzle with at least legal
// first moves, proven by the deep search margin when deep.
func shippedPuzzle(t *testing.T, legal int, deep bool) *puzzle.Puzzle {
	t.Helper()
	ps, err := content.Puzzles()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if len(p.First) >= legal && p.Deep() == deep {
			return p
		}
	}
	t.Fatal("no such puzzle shipped")
	return nil
}

// axeSource is axe-core, pinned and kept in testdata (see its README).
//
//go:embed testdata/axe.min.js
var axeSource string

// axeTags are the rules axe runs: every rule of WCAG 2.0, 2.1 and 2.2 at
// levels A and AA.
const axeTags = `["wcag2a","wcag2aa","wcag21a","wcag21aa","wcag22aa"]`

// screen is a viewport the pages are checked at.
type screen struct {
	name          string
	width, height int64
	phone         bool
}

var screens = []screen{{"desktop", 1280, 900, false}, {"phone", 390, 844, true}}

// screenshotDir is where TestLooks writes its screenshots: the folder in
// OWARE_SCREENSHOTS, else a new temporary folder that stays for a person
// to look at.
func screenshotDir(t *testing.T) string {
	if dir := os.Getenv("OWARE_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dir, err := os.MkdirTemp("", "oware-screenshots-")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// lookPage is a page TestLooks checks.
type lookPage struct{ name, path string }

// looksFixture makes the games the looked-at pages show: alice, logged in
// in the browser, has a finished game against bob, a game in progress
// where it is her turn, and a Nam-nam match where it is bob's.
func looksFixture(t *testing.T, s *handlerstest.Site) []lookPage {
	alice, bob := s.Account("alice"), s.Account("bob")
	south, north := s.FormGameWith(alice, bob, "en", "abapa")
	over := s.PlayAndResign(south, north, 400)
	south, north = s.FormGameWith(alice, bob, "en", "abapa")
	playing := s.PlayGreedy(south, north, 8)
	south, _ = s.FormGameWith(alice, bob, "en", "namnam")
	setStart(t, s.Db, south.Game, refillStart)
	_, _, page := s.Get(bob, "/en/games/new")
	_, hdr, _ := s.Post(bob, "/en/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {"wari"}, "seat": {"north"}}, nil)
	s.Api("POST", "/api/v1/challenges", "", map[string]any{"clock": map[string]int{"initial": 300, "increment": 3}})
	clocks, clocksNorth := s.ClockGame("5", "3")
	s.Move(clocks, "C", nil)
	s.Move(clocksNorth, "f", nil)
	computer := s.VsComputer(alice, "en", "abapa", "2", "south")
	s.Move(computer, "C", nil)
	_, _, page = s.Get(computer.C, computer.Game)
	s.Post(computer.C, computer.Game+"/hint", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	var arena struct{ ID string }
	s.ApiAs(alice, "POST", "/api/v1/tournaments", map[string]any{"kind": "arena", "name": "Evening arena", "rules": "abapa",
		"clock": map[string]int{"initial": 180, "increment": 2}, "minutes": 60, "starts_in": 0, "rated": true}, &arena)
	// two players in no other game: nobody is paired while in a real-time
	// game anywhere, and alice and bob are in one
	carol, dave := s.Account("carol"), s.Account("dave")
	for _, c := range []*http.Client{carol, dave} {
		s.ApiAs(c, "POST", "/api/v1/tournaments/"+arena.ID+"/join", nil, nil)
	}
	s.WaitGame(carol, arena.ID)
	reviewed := s.ReviewedImport(s.Browser())
	var study struct{ ID string }
	s.ApiAs(alice, "POST", "/api/v1/studies", map[string]any{"title": "Counting to a capture", "lang": "en", "visibility": "public",
		"chapters": []map[string]any{
			{"title": "The start", "position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "text": "Every pit holds **four** seeds.\n\n- sow\n- count"},
			{"title": "Take two", "position": studyCapture, "text": "Which pit captures two?",
				"task": map[string]any{"goal": "capture", "n": 2, "accept": []string{"F"}}}}}, &study)
	return []lookPage{
		{"studies", "/en/studies"},
		{"study", "/en/studies/" + study.ID},
		{"study-task", "/en/studies/" + study.ID + "/chapters/2"},
		{"home", "/en/"},
		{"new-game", "/en/games/new"},
		{"game", "/en/games/" + playing},
		{"game-clocks", clocks.Game},
		{"game-over", "/en/games/" + over},
		{"namnam", south.Game},
		{"rules", "/en/rules"},
		{"variant", "/en/variants/wari"},
		{"variants", "/en/variants"},
		{"tutorial", "/en/tutorials/oware-step-by-step/4"},
		{"course", "/en/tutorials"},
		{"lesson-step", "/en/tutorials/captures/6"},
		{"practice", "/en/tutorials/rules-practice/6"},
		{"replay", "/en/games/" + over + "/replay?ply=10"},
		{"review", reviewed + "?ply=1"},
		{"learn", reviewed + "/learn"},
		{"analysis", "/en/analysis?rules=abapa&position=" + blunderPosition + "&analyse=1"},
		{"analysis-namnam", "/en/analysis?rules=namnam"},
		{"player", "/en/players/alice"},
		{"join", hdr.Get("Location") + "/join"},
		{"lobby", "/en/lobby"},
		{"games-now", "/en/games/now"},
		{"leaderboard", "/en/players"},
		{"computer", "/en/computer"},
		{"computer-game", computer.Game},
		{"explorer", "/en/explorer?rules=abapa&position=" + url.QueryEscape("0-0-0-0-1-1-1-0-0-0-0-1-21-23-S")},
		{"puzzles", "/en/puzzles"},
		{"puzzle", "/en/puzzles/" + shippedPuzzle(t, 3, false).ID},
		{"puzzle-middlegame", "/en/puzzles/" + shippedPuzzle(t, 3, true).ID},
		{"tournaments", "/en/tournaments"},
		{"tournament", "/en/tournaments/" + arena.ID},
	}
}

// checkStrictCSP checks that the site serves a strict
// Content-Security-Policy itself, under which TestLooks opens the pages:
// no 'unsafe-inline' or 'unsafe-eval', scripts and styles of the site only.
func checkStrictCSP(t *testing.T, s *handlerstest.Site) {
	_, hdr, _ := s.Get(nil, "/en/")
	csp := hdr.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self';", "style-src 'self';", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q without %s", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-") {
		t.Errorf("Content-Security-Policy %q allows unsafe code", csp)
	}
}

// recordCSP makes every page of tab record what the Content-Security-Policy
// blocked, in window.blocked.
var recordCSP = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.blocked = []; document.addEventListener('securitypolicyviolation', e => window.blocked.push(e.violatedDirective + ' ' + e.blockedURI))`})
	return err
})

// TestLooks opens the main pages at a desktop and a phone size (on a site
// whose computer has the Abapa endgame table of 6 seeds, for the
// explorer), in the light and the dark theme, under the site's strict Content-Security-Policy, and
// checks each: nothing blocked by the policy, no horizontal scrolling,
// board pits of at least 44 px on the phone, no violation of the WCAG 2.2
// AA rules of axe-core (contrast included, so in both themes), and the
// theme's background. It writes a screenshot of each (see screenshotDir).
func TestLooks(t *testing.T) {
	s, b := newTableSite(t, handlerstest.ModelsOpenSQLite(t)), handlerstest.StartChromium(t, 12*time.Minute)
	checkStrictCSP(t, s)
	pages := looksFixture(t, s)
	dir := screenshotDir(t)
	t.Logf("screenshots in %s", dir)
	tab := b.NewTab()
	b.Do(tab, "record the policy's blocks", recordCSP)
	b.Do(tab, "log in", chromedp.Navigate(s.Srv.URL+"/en/login"),
		chromedp.SendKeys(chromedp.ID("username"), "alice"),
		chromedp.SendKeys(chromedp.ID("password"), handlerstest.TestPassword),
		chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
		chromedp.WaitReady(chromedp.CSS(`.top .me`)))
	for _, sc := range screens {
		for _, theme := range []string{"light", "dark"} {
			b.Do(tab, sc.name+" "+theme, emulate(sc, theme))
			for _, pg := range pages {
				name := pg.name + "-" + sc.name + "-" + theme
				b.Do(tab, name, chromedp.Navigate(s.Srv.URL+pg.path), chromedp.WaitReady(chromedp.CSS(`footer`)))
				checkLooks(t, tab, name, sc, theme)
				screenshot(t, tab, filepath.Join(dir, name+".png"))
			}
			// The registration form with an error at every field.
			name := "register-errors-" + sc.name + "-" + theme
			b.Do(tab, name, chromedp.Navigate(s.Srv.URL+"/en/register"),
				chromedp.SendKeys(chromedp.ID("username"), "a b"), chromedp.SendKeys(chromedp.ID("password"), "short"),
				chromedp.SendKeys(chromedp.ID("email"), "nowhere"), chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
				chromedp.WaitReady(chromedp.ID("email-err")))
			checkLooks(t, tab, name, sc, theme)
			screenshot(t, tab, filepath.Join(dir, name+".png"))
			// A puzzle answered with a wrong move: the solution and why
			// (the tables' proof, or the deep search's values).
			for kind, deep := range map[string]bool{"puzzle-wrong-": false, "puzzle-middlegame-wrong-": true} {
				p := shippedPuzzle(t, 3, deep)
				name = kind + sc.name + "-" + theme
				b.Do(tab, name, chromedp.Navigate(s.Srv.URL+"/en/puzzles/"+p.ID),
					chromedp.Click(chromedp.ID("pit-"+engine.Label(p.First[1].Pit))), chromedp.WaitReady(chromedp.CSS(`.feedback.wrong`)))
				checkLooks(t, tab, name, sc, theme)
				screenshot(t, tab, filepath.Join(dir, name+".png"))
			}
		}
	}
	// A visitor's header in the longer languages still fits a phone.
	visitor := b.NewTab()
	b.Do(visitor, "record the policy's blocks", recordCSP)
	for _, path := range []string{"/cs/", "/it/games/new"} {
		name := "visitor" + strings.ReplaceAll(strings.TrimSuffix(path, "/"), "/", "-") + "-phone-light"
		b.Do(visitor, name, emulate(screens[1], "light"), chromedp.Navigate(s.Srv.URL+path), chromedp.WaitReady(chromedp.CSS(`footer`)))
		checkLooks(t, visitor, name, screens[1], "light")
		screenshot(t, visitor, filepath.Join(dir, name+".png"))
	}
}

// screenshot writes a screenshot of the whole page open in tab to file.
func screenshot(t *testing.T, tab context.Context, file string) {
	t.Helper()
	shot, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
}

// emulate sets the viewport of a screen, the colour scheme of a theme and
// reduced motion (the screenshots show the boards at rest).
func emulate(sc screen, theme string) chromedp.Action[chromedp.Void] {
	opts := []chromedp.EmulateViewportOption{}
	if sc.phone {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	return chromedp.Steps(chromedp.EmulateViewport(sc.width, sc.height, opts...),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
				{Name: "prefers-color-scheme", Value: theme}, {Name: "prefers-reduced-motion", Value: "reduce"}}})
			return err
		}))
}

// looksReport is what the page says about itself.
type looksReport struct {
	ScrollWidth, Width int
	Wide               []string // elements that stick out on the right
	SmallPits          []string
	Background         float64  // the relative luminance of the body's background
	Passed             int      // axe rules that passed
	Blocked            []string // what the Content-Security-Policy blocked
	Violations         []struct {
		ID, Impact, Help string
		Nodes            []struct{ Target []any }
	}
}

// checkLooks runs the checks of TestLooks on the page open in tab.
func checkLooks(t *testing.T, tab context.Context, name string, sc screen, theme string) {
	t.Helper()
	script := axeSource + `;(async () => {
	  const lum = c => { const v = c.match(/[\d.]+/g).slice(0, 3).map(x => { x /= 255; return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4 }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2] };
	  const wide = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > ` + fmt.Sprint(sc.width) + ` + 0.5).slice(0, 5).map(e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).replace(/ /g, '.') : '') + ' ' + Math.round(e.getBoundingClientRect().right));
	  const small = [...document.querySelectorAll('.board .pit')].map(p => p.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44).map(r => r.width.toFixed(1) + 'x' + r.height.toFixed(1));
	  const res = await axe.run(document, {runOnly: {type: 'tag', values: ` + axeTags + `}, resultTypes: ['violations']});
	  return JSON.stringify({ScrollWidth: document.documentElement.scrollWidth, Width: window.innerWidth, Wide: wide, SmallPits: small,
	    Background: lum(getComputedStyle(document.body).backgroundColor), Passed: res.passes.length, Blocked: window.blocked || ['no record'],
	    Violations: res.violations.map(v => ({ID: v.id, Impact: v.impact, Help: v.help, Nodes: v.nodes.map(n => ({Target: n.target}))}))});
	})()`
	out, err := chromedp.Run(tab, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: checks: %v", name, err)
	}
	var r looksReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(r.Blocked) > 0 {
		t.Errorf("%s: the Content-Security-Policy blocked %v", name, r.Blocked)
	}
	if r.Passed < 20 {
		t.Errorf("%s: axe passed only %d rules", name, r.Passed)
	}
	if r.ScrollWidth > int(sc.width) || r.Width > int(sc.width) {
		t.Errorf("%s: the page is %d px wide (window %d px) on a %d px screen: %v", name, r.ScrollWidth, r.Width, sc.width, r.Wide)
	}
	if sc.phone && len(r.SmallPits) > 0 {
		t.Errorf("%s: pits smaller than 44 px: %v", name, r.SmallPits)
	}
	if dark := r.Background < 0.05; dark != (theme == "dark") || (!dark && r.Background < 0.7) {
		t.Errorf("%s: body background luminance %.3f in the %s theme", name, r.Background, theme)
	}
	for _, v := range r.Violations {
		var where []string
		for _, n := range v.Nodes {
			where = append(where, fmt.Sprint(n.Target...))
		}
		t.Errorf("%s: axe %s (%s): %s: %s", name, v.ID, v.Impact, v.Help, strings.Join(where, " | "))
	}
}

// TestBrowserFocusThemeLanguage: after a move, the focus stays on the pit
// played only for the player whose focus was in the game, with a focus ring
// only after keyboard use; the theme toggle switches at once and the
// choice stays; the language links follow the address htmx pushes.
func TestBrowserFocusThemeLanguage(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, north := b.NewTab(), b.NewTab()
	// Both windows act as focused, as the one a person looks at does.
	focused := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
	b.Do(south, "focus emulation", focused)
	b.Do(north, "focus emulation", focused)
	b.Do(south, "new game", chromedp.Navigate(s.Srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")), handlerstest.MarkPage)
	invite, err := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil {
		t.Fatal(err)
	}
	b.Do(north, "join", chromedp.Navigate(invite), chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	b.WaitFor(south, "South may move", `document.querySelector('button[name="pit"][value="C"]') !== null`)

	// A click: the focus stays on the pit played, without a ring.
	b.Do(south, "South clicks C", chromedp.Click(chromedp.CSS(`button[name="pit"][value="C"]`)))
	b.WaitFor(south, "South's focus on C", `document.activeElement.id === 'pit-C' && !document.activeElement.matches(':focus-visible')`)
	// The opponent, whose focus was not in the game, keeps it where it was.
	b.WaitFor(north, "North sees C", `document.querySelector('button[name="pit"][value="f"]') !== null`)
	if got, err := chromedp.Run(north, chromedp.Evaluate[string](`document.activeElement.tagName`)); err != nil || got != "BODY" {
		t.Errorf("North's focus moved to %s (%v)", got, err)
	}
	// The keyboard: Enter on a pit; the focus stays on it, with a ring.
	b.Do(north, "North presses Enter on f", chromedp.Focus(chromedp.CSS(`button[name="pit"][value="f"]`)), chromedp.KeyEvent("\r"))
	b.WaitFor(north, "North's focus on f, with a ring", `document.activeElement.id === 'pit-f' && document.activeElement.matches(':focus-visible')`)

	// The theme toggle: the dark theme at once, kept in a cookie for the next page.
	b.Do(south, "light system", emulate(screens[0], "light"))
	b.Do(south, "toggle", chromedp.Click(chromedp.CSS(`.theme .to-dark`)))
	b.WaitFor(south, "dark at once", `document.documentElement.dataset.theme === 'dark' && document.cookie.includes('theme=dark')`+
		` && getComputedStyle(document.querySelector('.theme .to-light')).display !== 'none'`)
	b.Do(south, "reload", chromedp.Navigate(s.Srv.URL+"/en/rules"), handlerstest.MarkPage)
	b.WaitFor(south, "dark after a reload", `document.documentElement.dataset.theme === 'dark' && getComputedStyle(document.body).backgroundColor === 'rgb(21, 18, 14)'`)

	// The replay steps with htmx; the language links follow its ?ply.
	hs, hn := s.FormGame("en", "abapa")
	s.PlayAndResign(hs, hn, 4)
	b.Do(south, "replay", chromedp.Navigate(s.Srv.URL+hs.Game+"/replay?ply=1"), chromedp.WaitVisible(chromedp.ID("replay")), handlerstest.MarkPage)
	b.Do(south, "next", chromedp.Click(chromedp.CSS(`#replay a[data-nav="next"]`)))
	b.WaitFor(south, "language link with ply=2", `location.search === '?ply=2' && document.querySelector('.langs a[hreflang="it"]').getAttribute('href') === '/it`+
		strings.TrimPrefix(hs.Game, "/en")+`/replay?ply=2'`)
}
