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

// TestBrowserWording: a win on time says so without a score of 0 to 0;
// the plates' captures are a number with a seed, not a sentence; the home
// page's title names more than a friend; the invitation's Copy button is
// a primary button in the dark theme (it was grey on grey); a touch
// screen gets no tip about arrow keys in a tutorial or a replay.
func TestBrowserWording(t *testing.T) {
	s, b := newBrowserSite(t, 2*time.Minute)
	south, north := s.formGame("en", "abapa")
	s.move(south, "C", nil)
	id := south.game[strings.LastIndex(south.game, "/")+1:]
	if err := s.db.Gorm.Exec(`UPDATE games SET status = 'over', result = 'north', reason = 'timeout', version = version + 1 WHERE id = ?`, id).Error; err != nil {
		t.Fatal(err)
	}
	tab := b.newTab()
	b.do(tab, "home", emulate(screens[0], "light"), chromedp.Navigate(s.srv.URL+"/en/"), chromedp.WaitReady(chromedp.CSS(`footer`)))
	if title, err := chromedp.Run(tab, chromedp.Title()); err != nil || strings.Contains(title, "friend") {
		t.Errorf("home title %q (%v)", title, err)
	}
	b.do(tab, "over on time", chromedp.Navigate(s.srv.URL+north.game), chromedp.WaitReady(chromedp.CSS(`footer`)))
	state, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[document.querySelector('#turn').innerText.trim(), document.querySelector('.low-side .n [aria-hidden]').innerText.trim()]`))
	if err != nil || state[0] != "North won on time" || state[1] != "0" {
		t.Errorf("the game after South's time ran out says %q (%v)", state, err)
	}

	// The invitation's Copy button in the dark theme.
	invite := b.newTab()
	b.do(invite, "new game", emulate(screens[0], "dark"), chromedp.Navigate(s.srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`.copy-button`)))
	colours, err := chromedp.Run(invite, chromedp.Evaluate[[]string](`[getComputedStyle(document.querySelector('.copy-button')).backgroundColor, getComputedStyle(document.querySelector('.button.primary, .copy-button')).backgroundColor, getComputedStyle(document.querySelector('.invite')).backgroundColor]`))
	if err != nil || colours[0] == colours[2] || colours[0] != "rgb(240, 154, 104)" {
		t.Errorf("the Copy button is %v on the invitation (%v), want the dark accent rgb(240, 154, 104)", colours, err)
	}

	// The keys tips: on a desktop, not on a touch phone.
	for _, sc := range screens {
		b.do(tab, sc.name+" tutorial", emulate(sc, "light"), chromedp.Navigate(s.srv.URL+"/en/tutorials/oware-step-by-step/2"), chromedp.WaitReady(chromedp.CSS(`footer`)))
		b.do(tab, "scripts ran", chromedp.Poll[chromedp.Void](`document.readyState === 'complete'`, chromedp.WithPollingTimeout(b.wait)))
		shown, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!!document.querySelector('.keys-tip') && document.querySelector('.keys-tip').checkVisibility()`))
		if err != nil || shown == sc.phone {
			t.Errorf("%s: the tutorial's keys tip shown: %v (%v)", sc.name, shown, err)
		}
		b.do(tab, sc.name+" replay", chromedp.Navigate(s.srv.URL+south.game+"/replay"), chromedp.WaitReady(chromedp.CSS(`footer`)))
		shown, err = chromedp.Run(tab, chromedp.Evaluate[bool](`document.querySelector('.replay-tip').checkVisibility()`))
		if err != nil || shown == sc.phone {
			t.Errorf("%s: the replay's keys tip shown: %v (%v)", sc.name, shown, err)
		}
	}
}
