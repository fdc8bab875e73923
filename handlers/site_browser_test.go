//go:build browser

package handlers_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// longName is the longest username registration takes (20 characters),
// of wide letters.
const longName = "WWWWWWWWWWMMMMMMMMMM"

// TestLooksLoggedIn is TestLooks for a player with the longest username, in
// each language, on the phone and the desktop: the header with the
// account menu fits a 390 px phone (it was 404-411 px wide logged in:
// 410 in Czech, 404 in Italian), with axe's checks, in both themes.
func TestLooksLoggedIn(t *testing.T) {
	s, b := newBrowserSite(t, 4*time.Minute)
	s.account(longName)
	dir := screenshotDir(t)
	tab := b.newTab()
	b.do(tab, "record the policy's blocks", recordCSP)
	b.do(tab, "log in", chromedp.Navigate(s.srv.URL+"/en/login"),
		chromedp.SendKeys(chromedp.ID("username"), longName),
		chromedp.SendKeys(chromedp.ID("password"), testPassword),
		chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
		chromedp.WaitReady(chromedp.CSS(`.top .me`)))
	for _, sc := range screens {
		for _, theme := range []string{"light", "dark"} {
			b.do(tab, sc.name+" "+theme, emulate(sc, theme))
			for _, lang := range []string{"cs", "it", "en"} {
				for _, pg := range []lookPage{{"home", "/"}, {"new-game", "/games/new"}, {"rules", "/rules"}} {
					path := pg.path
					name := "long-name-" + lang + "-" + pg.name + "-" + sc.name + "-" + theme
					b.do(tab, name, chromedp.Navigate(s.srv.URL+"/"+lang+path), chromedp.WaitReady(chromedp.CSS(`footer`)))
					checkLooks(t, tab, name, sc, theme)
					if path == "/" && theme == "light" {
						screenshot(t, tab, filepath.Join(dir, name+".png"))
					}
				}
			}
		}
	}
}

// TestBrowserReplayColumns: the replay's move list keeps the first move of
// each pair in the left column and the second in the right, also when its
// window of moves starts with a first move late in a game (the "…" took
// the left cell and put South's moves on the right) and on a phone (the
// list had three columns there).
func TestBrowserReplayColumns(t *testing.T) {
	s, b := newBrowserSite(t, 2*time.Minute)
	south, north := s.formGame("en", "abapa")
	id := s.playAndResign(south, north, 90)
	g, err := s.db.LoadGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) < 33 {
		t.Fatalf("the game has only %d moves", len(g.Moves))
	}
	tab := b.newTab()
	// ply 33: the window starts at move 3 (a first move, "2. "), after a "…".
	for _, sc := range screens {
		for _, ply := range []string{"32", "33"} {
			b.do(tab, sc.name+" replay "+ply, emulate(sc, "light"), chromedp.Navigate(s.srv.URL+south.game+"/replay?ply="+ply), chromedp.WaitReady(chromedp.CSS(`footer`)))
			out, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`(() => {
			  const list = document.querySelector('.replay-moves'), left = list.getBoundingClientRect().left, bad = [];
			  let cols = new Set();
			  for (const li of list.children) {
			    const a = li.querySelector('a'), r = li.getBoundingClientRect();
			    if (!a) { if (Math.round(r.width) < Math.round(list.clientWidth) - 1) bad.push('… is ' + r.width + ' px of ' + list.clientWidth); continue }
			    const first = /^\d+\. /.test(a.textContent), x = Math.round(r.left - left);
			    cols.add(x);
			    if (first !== (x < list.clientWidth / 2 - 2)) bad.push(a.textContent + ' at ' + x);
			  }
			  if (cols.size !== 2) bad.push(cols.size + ' columns');
			  return bad;
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if len(out) > 0 {
				t.Errorf("%s, ply %s: %v", sc.name, ply, out)
			}
		}
	}
}

// TestBrowserHistoryFilterNamnam: a player's history can be filtered to
// Nam-nam (as the leaderboard's categories) before they finished a
// Nam-nam game; the filter had only the rule sets of finished games.
func TestBrowserHistoryFilterNamnam(t *testing.T) {
	s, b := newBrowserSite(t, time.Minute)
	s.account("carol")
	tab := b.newTab()
	b.do(tab, "player page", chromedp.Navigate(s.srv.URL+"/en/players/carol"), chromedp.WaitReady(chromedp.ID("f-rules")),
		chromedp.SetValue(chromedp.ID("f-rules"), "namnam"), chromedp.Click(chromedp.CSS(`.filters button`)))
	// The answer's filter has Nam-nam chosen (selected by the server).
	b.do(tab, "filtered", chromedp.WaitReady(chromedp.CSS(`#f-rules option[value=namnam][selected]`)))
	if loc, err := chromedp.Run(tab, chromedp.Location()); err != nil || !strings.Contains(loc, "rules=namnam") {
		t.Errorf("the filtered page is %s (%v)", loc, err)
	}
}
