//go:build browser

package web_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"oware/handlers/handlerstest"
)

// longName is the longest username registration takes (20 characters),
// of wide letters.
const longName = "WWWWWWWWWWMMMMMMMMMM"

// TestLooksLoggedIn is TestLooks for a player with the longest username, in
// each language, on the phone and the desktop: the header with the
// account menu fits a 390 px phone (it was 404-411 px wide logged in:
// 410 in Czech, 404 in Italian), with axe's checks, in both themes.
func TestLooksLoggedIn(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 4*time.Minute)
	s.Account(longName)
	dir := screenshotDir(t)
	tab := b.NewTab()
	b.Do(tab, "record the policy's blocks", recordCSP)
	b.Do(tab, "log in", chromedp.Navigate(s.Srv.URL+"/en/login"),
		chromedp.SendKeys(chromedp.ID("username"), longName),
		chromedp.SendKeys(chromedp.ID("password"), handlerstest.TestPassword),
		chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
		chromedp.WaitReady(chromedp.CSS(`.top .me`)))
	for _, sc := range screens {
		for _, theme := range []string{"light", "dark"} {
			b.Do(tab, sc.name+" "+theme, emulate(sc, theme))
			for _, lang := range []string{"cs", "it", "en"} {
				for _, pg := range []lookPage{{"home", "/"}, {"new-game", "/games/new"}, {"rules", "/rules"}} {
					path := pg.path
					name := "long-name-" + lang + "-" + pg.name + "-" + sc.name + "-" + theme
					b.Do(tab, name, chromedp.Navigate(s.Srv.URL+"/"+lang+path), chromedp.WaitReady(chromedp.CSS(`footer`)))
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
	s, b := handlerstest.NewBrowserSite(t, 2*time.Minute)
	south, north := s.FormGame("en", "abapa")
	id := s.PlayAndResign(south, north, 90)
	g, err := s.Db.LoadGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) < 33 {
		t.Fatalf("the game has only %d moves", len(g.Moves))
	}
	tab := b.NewTab()
	// ply 33: the window starts at move 3 (a first move, "2. "), after a "…".
	for _, sc := range screens {
		for _, ply := range []string{"32", "33"} {
			b.Do(tab, sc.name+" replay "+ply, emulate(sc, "light"), chromedp.Navigate(s.Srv.URL+south.Game+"/replay?ply="+ply), chromedp.WaitReady(chromedp.CSS(`footer`)))
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
	s, b := handlerstest.NewBrowserSite(t, time.Minute)
	s.Account("carol")
	tab := b.NewTab()
	b.Do(tab, "player page", chromedp.Navigate(s.Srv.URL+"/en/players/carol"), chromedp.WaitReady(chromedp.ID("f-rules")),
		chromedp.SetValue(chromedp.ID("f-rules"), "namnam"), chromedp.Click(chromedp.CSS(`.filters button`)))
	// The answer's filter has Nam-nam chosen (selected by the server).
	b.Do(tab, "filtered", chromedp.WaitReady(chromedp.CSS(`#f-rules option[value=namnam][selected]`)))
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
	s, b := handlerstest.NewBrowserSite(t, 2*time.Minute)
	south, north := s.FormGame("en", "abapa")
	s.Move(south, "C", nil)
	id := south.Game[strings.LastIndex(south.Game, "/")+1:]
	if err := s.Db.Gorm.Exec(`UPDATE games SET status = 'over', result = 'north', reason = 'timeout', version = version + 1 WHERE id = ?`, id).Error; err != nil {
		t.Fatal(err)
	}
	tab := b.NewTab()
	b.Do(tab, "home", emulate(screens[0], "light"), chromedp.Navigate(s.Srv.URL+"/en/"), chromedp.WaitReady(chromedp.CSS(`footer`)))
	if title, err := chromedp.Run(tab, chromedp.Title()); err != nil || strings.Contains(title, "friend") {
		t.Errorf("home title %q (%v)", title, err)
	}
	b.Do(tab, "over on time", chromedp.Navigate(s.Srv.URL+north.Game), chromedp.WaitReady(chromedp.CSS(`footer`)))
	state, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[document.querySelector('#turn').innerText.trim(), document.querySelector('.low-side .n [aria-hidden]').innerText.trim()]`))
	if err != nil || state[0] != "North won on time" || state[1] != "0" {
		t.Errorf("the game after South's time ran out says %q (%v)", state, err)
	}

	// The invitation's Copy button in the dark theme.
	invite := b.NewTab()
	b.Do(invite, "new game", emulate(screens[0], "dark"), chromedp.Navigate(s.Srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`.copy-button`)))
	colours, err := chromedp.Run(invite, chromedp.Evaluate[[]string](`[getComputedStyle(document.querySelector('.copy-button')).backgroundColor, getComputedStyle(document.querySelector('.button.primary, .copy-button')).backgroundColor, getComputedStyle(document.querySelector('.invite')).backgroundColor]`))
	if err != nil || colours[0] == colours[2] || colours[0] != "rgb(240, 154, 104)" {
		t.Errorf("the Copy button is %v on the invitation (%v), want the dark accent rgb(240, 154, 104)", colours, err)
	}

	// The keys tips: on a desktop, not on a touch phone.
	for _, sc := range screens {
		b.Do(tab, sc.name+" tutorial", emulate(sc, "light"), chromedp.Navigate(s.Srv.URL+"/en/tutorials/oware-step-by-step/2"), chromedp.WaitReady(chromedp.CSS(`footer`)))
		b.Do(tab, "scripts ran", chromedp.Poll[chromedp.Void](`document.readyState === 'complete'`, chromedp.WithPollingTimeout(b.Wait)))
		shown, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!!document.querySelector('.keys-tip') && document.querySelector('.keys-tip').checkVisibility()`))
		if err != nil || shown == sc.phone {
			t.Errorf("%s: the tutorial's keys tip shown: %v (%v)", sc.name, shown, err)
		}
		b.Do(tab, sc.name+" replay", chromedp.Navigate(s.Srv.URL+south.Game+"/replay"), chromedp.WaitReady(chromedp.CSS(`footer`)))
		shown, err = chromedp.Run(tab, chromedp.Evaluate[bool](`document.querySelector('.replay-tip').checkVisibility()`))
		if err != nil || shown == sc.phone {
			t.Errorf("%s: the replay's keys tip shown: %v (%v)", sc.name, shown, err)
		}
	}
}

// TestBrowserBigClocks: the clocks are big and sit on the players'
// plates, on the name's line also on a phone; the running one is lit; the
// first-move countdown is just above the board; under 10 s a clock is red
// with tenths; a control of half a minute reads "30 s + 0".
func TestBrowserBigClocks(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 2*time.Minute)
	south, north := s.ClockGame("0.5", "0")
	tab := b.NewTab()
	for _, sc := range screens {
		b.Do(tab, sc.name, emulate(sc, "light"), chromedp.Navigate(s.Srv.URL+south.Game), chromedp.WaitReady(chromedp.CSS(`footer`)))
		out, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`(() => {
		  const bad = [], board = document.querySelector('#game .rows').getBoundingClientRect();
		  for (const plate of document.querySelectorAll('#game .captures')) {
		    const c = plate.querySelector('.clock'), n = plate.querySelector('.name');
		    if (!c) { bad.push('a plate without a clock'); continue }
		    const cr = c.getBoundingClientRect(), nr = n.getBoundingClientRect();
		    if (parseFloat(getComputedStyle(c).fontSize) < 20) bad.push('clock font ' + getComputedStyle(c).fontSize);
		    if (cr.bottom < nr.top || cr.top > nr.bottom) bad.push('clock not on the name line: ' + cr.top + ' vs ' + nr.top);
		  }
		  if (document.querySelector('#game .captures .clock.running')) bad.push('a clock runs before the first moves');
		  const first = document.querySelector('.first-move');
		  if (!first) bad.push('no first-move countdown');
		  else if (first.getBoundingClientRect().bottom > board.top || board.top - first.getBoundingClientRect().bottom > 120) bad.push('first-move countdown at ' + first.getBoundingClientRect().bottom + ', board at ' + board.top);
		  const tc = [...document.querySelectorAll('.settings dd')].map(d => d.textContent.trim());
		  if (!tc.includes('30 s + 0')) bad.push('time control ' + tc);
		  return bad;
		})()`))
		if err != nil || len(out) > 0 {
			t.Errorf("%s: %v (%v)", sc.name, out, err)
		}
	}
	// After both first moves, South's clock runs, lit.
	s.Move(south, "C", nil)
	s.Move(north, "f", nil)
	b.Do(tab, "South's clock runs", chromedp.Navigate(s.Srv.URL+south.Game), chromedp.WaitReady(chromedp.CSS(`.low-side .clock.running[data-running]`)))
	if n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('#game .clock.running').length`)); err != nil || n != 1 {
		t.Errorf("%d running clocks (%v)", n, err)
	}
	// 9.5 s left on South's clock: red, in tenths, counting down.
	b.Do(tab, "9.5 s left", chromedp.Evaluate[chromedp.Void](`(() => { const c = document.querySelector('.low-side .clock'); c.dataset.ms = 9500; c.dataset.t0 = Date.now() })()`))
	b.Do(tab, "red with tenths", chromedp.Poll[chromedp.Void](`(() => { const c = document.querySelector('.low-side .clock');
	  return c.classList.contains('low') && /^[0-9]\.[0-9]$/.test(c.querySelector('.t').textContent) && getComputedStyle(c).color === 'rgb(168, 35, 26)' })()`, chromedp.WithPollingTimeout(b.Wait)))
}

// TestBrowserComputerFormCompact: the computer form (it was 1,533 px tall)
// shows Play without scrolling on a 390x844 phone; the level is eight
// buttons in one row, the keyboard moves between them; a game starts at
// the chosen level and rule set.
func TestBrowserComputerFormCompact(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, time.Minute)
	tab := b.NewTab()
	b.Do(tab, "form", emulate(screens[1], "light"), chromedp.Navigate(s.Srv.URL+"/en/computer"), chromedp.WaitReady(chromedp.CSS(`footer`)))
	out, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => {
	  const play = document.querySelector('.computer-form .play').getBoundingClientRect();
	  const tops = new Set([...document.querySelectorAll('.level-button')].map(e => Math.round(e.getBoundingClientRect().top)));
	  return [play.bottom, tops.size, document.querySelectorAll('.level-button').length];
	})()`))
	if err != nil || out[0] > 844 || out[1] != 1 || out[2] != 8 {
		t.Errorf("Play's bottom at %v px, level rows and buttons (%v)", out, err)
	}
	b.Do(tab, "level 3 by keyboard, Wari", chromedp.Click(chromedp.ID("level-2")), chromedp.KeyEvent(kb.ArrowRight),
		chromedp.SetValue(chromedp.ID("cp-rules"), "wari"), chromedp.Click(chromedp.CSS(`.computer-form .play`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)))
	got, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector('.top-side .name').textContent + ' / ' + document.querySelector('.settings dd').textContent`))
	if err != nil || !strings.HasPrefix(got, "Computer, level 3 / Wari") {
		t.Errorf("the game: %q (%v)", got, err)
	}
}

// TestBrowserYourTurnMarks: when the turn comes to a player (live), the
// tab's title and favicon are marked, and unmarked once they moved; the
// move sound is on by default for a guest, with its toggle; the
// notification button is offered (not asked on load) also in a real-time
// game, and goes once used.
func TestBrowserYourTurnMarks(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, north := b.NewTab(), b.NewTab()
	b.Do(south, "new game", chromedp.Navigate(s.Srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")), handlerstest.MarkPage)
	invite, err := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil {
		t.Fatal(err)
	}
	b.Do(north, "join", chromedp.Navigate(invite), chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	marked := `document.title.startsWith('•') && [...document.querySelectorAll('link[rel=icon]')].every(l => l.href.startsWith('data:image/svg+xml'))`
	unmarked := `!document.title.startsWith('•') && [...document.querySelectorAll('link[rel=icon]')].every(l => !l.href.startsWith('data:'))`
	b.WaitFor(south, "South's turn: marked", marked)
	b.WaitFor(north, "North waits: not marked", unmarked)
	b.Do(south, "South plays C", chromedp.Click(chromedp.CSS(`button[name="pit"][value="C"]`)))
	b.WaitFor(south, "South waits: unmarked", unmarked)
	b.WaitFor(north, "North's turn, live: marked", marked)
	b.WaitFor(north, "the sound is on, with its toggle", `document.querySelector('.turn-tools button[aria-pressed]').getAttribute('aria-pressed') === 'true'`)
	b.WaitFor(north, "the notification button", `[...document.querySelectorAll('.turn-tools button')].length === 2 && Notification.permission === 'default'`)
	b.Do(north, "ask for notifications", chromedp.Click(chromedp.CSS(`.turn-tools button:nth-child(2)`)))
	b.WaitFor(north, "the button goes", `document.querySelector('.turn-tools button:nth-child(2)').hidden`)
}

// TestBrowserPremove: North clicks a pit of their row during South's turn
// (a premove, marked), clicks it again (cancelled), and once more; the
// instant South has moved, North's move is sown without another click and
// without a page load (it was a whole page's POST after a live update). A
// screen reader hears each: set, cancelled, played (a status region).
func TestBrowserPremove(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 3*time.Minute)
	south, north := b.NewTab(), b.NewTab()
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
	// North's row is at the bottom of North's board: d is its fourth pit from the left (f e d ... seen turned round: a b c d e f).
	pit := `[...document.querySelectorAll('#game .rows .row:last-child .pit')].find(p => p.querySelector('.label').textContent === 'd')`
	click := chromedp.Evaluate[chromedp.Void](pit + `.click()`)
	said := func(text string) string {
		return `document.querySelector('#announce[role=status]')?.textContent === ` + "`" + text + "`"
	}
	b.Do(north, "premove d", click)
	b.WaitFor(north, "d marked", pit+`.classList.contains('premove')`)
	b.WaitFor(north, "set, said", said("Premove: pit d is sown as soon as it is your turn. Click it again to cancel."))
	b.Do(north, "cancel", click)
	b.WaitFor(north, "d not marked", `!`+pit+`.classList.contains('premove')`)
	b.WaitFor(north, "cancelled, said", said("Premove of pit d cancelled."))
	b.Do(north, "premove d again", click)
	b.Do(south, "South plays C", chromedp.Click(chromedp.CSS(`button[name="pit"][value="C"]`)))
	b.WaitFor(south, "North's d came by itself", `document.getElementById('moves-h').textContent.startsWith('2 moves') && document.querySelector('.last-move').textContent.includes('d')`)
	b.WaitFor(north, "played (by htmx, no page load), said", said("Premove: pit d sown."))
}

// TestBrowserMiniClocksTick: on the games-now page (a game's miniature
// board) and on the home page (the featured game on the site's board,
// issue 33) the running clock counts down (from 5:00 after both first
// moves of a 5+0 game), the other stands still.
func TestBrowserMiniClocksTick(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, north := s.ClockGameWith(s.Account("alice"), s.Account("bob"), "5", "0")
	s.Move(south, "C", nil)
	s.Move(north, "f", nil)
	tab := b.NewTab()
	for path, game := range map[string]string{"/en/games/now": ".live-game", "/en/": ".featured"} {
		b.Do(tab, path, chromedp.Navigate(s.Srv.URL+path), chromedp.WaitReady(chromedp.CSS(`footer`)), handlerstest.MarkPage)
		b.WaitFor(tab, path+": the running clock counts down", `(() => {
		  const t = document.querySelector('`+game+` .clock[data-running] .t')?.textContent;
		  window.first ??= t;
		  return /^4:[0-5][0-9]$/.test(t) && t !== window.first })()`)
		b.WaitFor(tab, path+": the other stands", `[...document.querySelectorAll('`+game+` .clock:not([data-running]) .t')].length > 0 && [...document.querySelectorAll('`+game+` .clock:not([data-running]) .t')].every(t => t.textContent === '5:00')`)
	}
}

// TestBrowserChat: South sends "Good luck"; North's page shows it within
// a poll, without a reload; North's mute hides South's messages and stays
// after a reload.
func TestBrowserChat(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, north := b.NewTab(), b.NewTab()
	b.Do(south, "new game", chromedp.Navigate(s.Srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")))
	invite, err := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil {
		t.Fatal(err)
	}
	b.Do(north, "join", chromedp.Navigate(invite), chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("chat")), handlerstest.MarkPage)
	b.Do(south, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("chat")), handlerstest.MarkPage)
	b.Do(south, "Good luck", chromedp.Click(chromedp.CSS(`#chat button[value="good_luck"]`)))
	b.WaitFor(south, "South sees their message", `!!document.querySelector('#chat-log .mine')?.textContent.includes('Good luck')`)
	b.WaitFor(north, "North sees it live", `[...document.querySelectorAll('#chat-log .theirs')].some(li => li.textContent.includes('Opponent: Good luck') && li.checkVisibility())`)
	b.Do(north, "mute", chromedp.Click(chromedp.CSS(`#chat .chat-mute`)))
	b.WaitFor(north, "hidden", `!document.querySelector('#chat-log .theirs')?.checkVisibility() && document.querySelector('.chat-mute').getAttribute('aria-pressed') === 'true'`)
	b.Do(north, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("chat")), handlerstest.MarkPage)
	b.WaitFor(north, "still hidden", `!!document.querySelector('#chat-log .theirs') && !document.querySelector('#chat-log .theirs').checkVisibility()`)
}
