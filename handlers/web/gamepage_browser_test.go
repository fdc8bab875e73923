//go:build browser

package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// The game page and the home page as a new player finds them (issue 33).

// browser is the tests' headless chromium (handlerstest.StartChromium).
type browser interface {
	NewTab() context.Context
	Do(who context.Context, name string, steps ...chromedp.Action[chromedp.Void])
	WaitFor(who context.Context, name, cond string)
}

// browserGame sets up a game of Abapa in lang in two tabs over the
// invitation link: South creates it, North joins; both pages are marked
// (handlerstest.MarkPage) once South may move.
func browserGame(t *testing.T, b browser, base, lang string) (south, north context.Context) {
	t.Helper()
	south, north = b.NewTab(), b.NewTab()
	b.Do(south, "new game", chromedp.Navigate(base+"/"+lang+"/games/new"),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")), handlerstest.MarkPage)
	invite, err := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil {
		t.Fatal(err)
	}
	b.Do(north, "join", chromedp.Navigate(invite),
		chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	b.WaitFor(south, "South sees the opponent join", `document.querySelector('button[name="pit"][value="C"]') !== null`)
	return south, north
}

// TestBrowserEndReason: under the result, the reason the game ended is a
// sentence that says what became of the seeds left on the board (RULES.md
// 2.6): a majority leaves them there; a player who cannot feed ends the
// game and each row's seeds go to its owner. The positions are set by
// hand: South sows F's one seed into North's a, making 2: captured, 23 +
// 2 = 25 with 20 seeds left; and South sows F's last seed, leaving North
// two single seeds that cannot reach South's empty row.
func TestBrowserEndReason(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	tab := b.NewTab()
	for _, c := range []struct {
		start, lang, result, why string
	}{
		{"3-3-3-0-0-1-1-4-4-3-0-0-23-3-S", "en", "South won by 25 to 3",
			"South captured 25 seeds, more than half. The 20 seeds left on the board stay there: nobody gets them."},
		{"3-3-3-0-0-1-1-4-4-3-0-0-23-3-S", "cs", "Jih vyhrál 25 : 3",
			"Jih zajal 25 semínek, víc než polovinu. Na desce zůstalo 20 semínek a ta už nikdo nedostane."},
		{"3-3-3-0-0-1-1-4-4-3-0-0-23-3-S", "it", "Sud vince 25 a 3",
			"Sud ha catturato 25 semi, più della metà. Sul tavoliere restano 20 semi: non vanno a nessuno."},
		{"0-0-0-0-0-1-0-1-0-0-0-0-23-23-S", "en", "North won by 25 to 23",
			"North had no move that could sow into the opponent's empty row, so the game ended: each player took the seeds left on their own row."},
	} {
		south, north := s.FormGame(c.lang, "abapa")
		setStart(t, s.Db, south.Game, c.start)
		if code, _, _ := s.Move(south, "F", nil); code != 303 {
			t.Fatalf("%s: South's F: %d", c.start, code)
		}
		b.Do(tab, "the game over", chromedp.Navigate(s.Srv.URL+north.Game), chromedp.WaitVisible(chromedp.CSS(`#turn .why`)))
		got, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[document.querySelector('#turn .state').textContent, document.querySelector('#turn .why').textContent]`))
		if err != nil || len(got) != 2 || got[0] != c.result || got[1] != c.why {
			t.Errorf("%s in %s: %q (%v), want %q, %q", c.start, c.lang, got, err, c.result, c.why)
		}
	}
}

// TestBrowserHomeBoard: the home page's board is the site's board, with
// seeds, labels and a caption; with no game to feature it is the start of
// a game against the computer, level 1, that a click on a pit begins; with
// a game in play it is that game, with the players' plates and a link to
// watch it.
func TestBrowserHomeBoard(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	tab := b.NewTab()
	b.Do(tab, "home", chromedp.Navigate(s.Srv.URL+"/en/"), chromedp.WaitVisible(chromedp.CSS(`footer`)), handlerstest.MarkPage)
	got, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
	  const f = document.querySelector('.hero-board figure.board');
	  if (!f) return 'no board';
	  return [f.querySelectorAll('.pit').length, f.querySelectorAll('.pit .cup i').length, f.querySelectorAll('.pit .label').length,
	    f.querySelectorAll('button.pit').length, f.querySelector('figcaption').textContent].join('|');
	})()`))
	if want := "12|48|12|6|Sow a pit to start a game against the computer (level 1)."; err != nil || got != want {
		t.Fatalf("the home page's board: %q (%v), want %q", got, err, want)
	}
	b.Do(tab, "a click on C", chromedp.Click(chromedp.CSS(`.hero-board button[name="pit"][value="C"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)))
	player, err := chromedp.Run(tab, chromedp.Evaluate[string](`[...document.querySelectorAll('.settings .player')].map(e => e.textContent).join('|')`))
	if err != nil || player != "guest|Computer, level 1" {
		t.Errorf("the game of the click: players %q (%v), want a guest against the computer, level 1", player, err)
	}

	// A game in play between two accounts is featured instead.
	south, _ := s.FormGameWith(s.Account("alice"), s.Account("bob"), "en", "abapa")
	s.Move(south, "C", nil)
	b.Do(tab, "home", chromedp.Navigate(s.Srv.URL+"/en/"), chromedp.WaitVisible(chromedp.CSS(`footer`)))
	got, err = chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
	  const f = document.querySelector('.featured figure.board');
	  if (!f) return 'no board';
	  return [f.querySelectorAll('.pit').length, f.querySelector('.pit.last .label').textContent, f.querySelectorAll('button.pit').length,
	    f.querySelector('figcaption').textContent, document.querySelector('.featured a.button').getAttribute('href').split('/')[2]].join('|');
	})()`))
	if want := "12|C|0|Abapa (standard) · 1 move|watch"; err != nil || got != want {
		t.Errorf("the featured game: %q (%v), want %q", got, err, want)
	}
}

// TestBrowserPhoneBoardFirst: on a phone the board comes first; the move
// sound and the notification buttons are below it.
func TestBrowserPhoneBoardFirst(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, _ := browserGame(t, b, s.Srv.URL, "en")
	b.Do(south, "phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	b.WaitFor(south, "the tools below the board", `document.querySelector('.turn-tools') !== null && `+
		`document.querySelector('.turn-tools').getBoundingClientRect().top >= document.querySelector('#game .board').getBoundingClientRect().bottom`)
	// On a desktop they stay beside the board, under the status.
	b.Do(south, "desktop", chromedp.EmulateViewport(1280, 900))
	b.WaitFor(south, "the tools beside the board", `document.querySelector('.turn-tools').getBoundingClientRect().left >= document.querySelector('#game .board').getBoundingClientRect().right`)
}

// soundCounter counts, in window.sounds, the move sounds a page makes: the
// oscillators started while the page's audio may play.
var soundCounter = chromedp.Evaluate[chromedp.Void](`window.sounds = 0; if (!window.countingSounds) { window.countingSounds = true;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...a) { if (this.context.state === 'running') window.sounds++; return start.apply(this, a); }; }`)

// TestBrowserMoveSound: in a game between people the move sound is on by
// default and sounds at every move, the player's own and the opponent's,
// once the browser lets the page play sound (its autoplay rule, as a
// browser keeps it: after a click); the toggle turns it off.
func TestBrowserMoveSound(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	b := handlerstest.StartChromium(t, 90*time.Second, chromedp.Flag("autoplay-policy", "document-user-activation-required"))
	south, north := browserGame(t, b, s.Srv.URL, "en")
	b.Do(south, "count", soundCounter)
	b.Do(north, "count", soundCounter)
	sounds := func(tab context.Context) string {
		n, err := chromedp.Run(tab, chromedp.Evaluate[int](`window.sounds`))
		if err != nil {
			t.Fatal(err)
		}
		return strconv.Itoa(n)
	}
	ply := func(n string) string { return `document.getElementById('last-move').dataset.ply === '` + n + `'` }
	b.WaitFor(south, "the sound is on", `document.querySelector('.turn-tools button[aria-pressed]').getAttribute('aria-pressed') === 'true'`)
	n := sounds(south)
	b.Do(south, "South plays C", chromedp.Click(chromedp.CSS(`button[name="pit"][value="C"]`)))
	b.WaitFor(south, "South hears their move", `window.sounds === `+n+` + 1`)
	b.WaitFor(north, "North's turn", `document.querySelector('button[name="pit"][value="f"]') !== null`)
	n, ns := sounds(north), sounds(south)
	b.Do(north, "North plays f", chromedp.Click(chromedp.CSS(`button[name="pit"][value="f"]`)))
	b.WaitFor(north, "North hears their move", ply("2")+` && window.sounds === `+n+` + 1`)
	b.WaitFor(south, "South hears North's move", ply("2")+` && window.sounds === `+ns+` + 1`)
	b.Do(south, "South turns the sound off", chromedp.Click(chromedp.CSS(`.turn-tools button[aria-pressed]`)))
	b.WaitFor(south, "off", `document.querySelector('.turn-tools button[aria-pressed]').getAttribute('aria-pressed') === 'false'`)
	n, ns = sounds(north), sounds(south)
	b.Do(south, "South plays A", chromedp.Click(chromedp.CSS(`button[name="pit"][value="A"]`)))
	b.WaitFor(north, "North hears South's move", ply("3")+` && window.sounds === `+n+` + 1`)
	b.WaitFor(south, "South's move stored", ply("3"))
	if got := sounds(south); got != ns {
		t.Errorf("South, the sound off, heard %s sounds, want still %s", got, ns)
	}
}

// TestBrowserHomeDailyAndPhoneHeader: on a desktop the puzzle of the day
// sits beside its text and fills more than half its card, not 40 % of a
// card left empty; on a phone a visitor's header offers the registration
// (in the account menu, with the login) and fits the screen in every
// language.
func TestBrowserHomeDailyAndPhoneHeader(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	tab := b.NewTab()
	b.Do(tab, "desktop home", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(s.Srv.URL+"/en/"), chromedp.WaitVisible(chromedp.CSS(`.daily-puzzle`)))
	got, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
	  const card = document.querySelector('.daily-puzzle').getBoundingClientRect(), board = document.querySelector('.daily-puzzle .board').getBoundingClientRect();
	  const solve = document.querySelector('.daily-puzzle a.button').getBoundingClientRect();
	  return (board.width / card.width).toFixed(2) + ' ' + (solve.left >= board.right);
	})()`))
	if err != nil || len(got) < 6 || got[:4] < "0.55" || !strings.HasSuffix(got, " true") {
		t.Errorf("the puzzle of the day: board width / card width, and the link beside it: %q (%v); want at least 0.55 and true", got, err)
	}
	for _, lang := range []string{"en", "cs", "it"} {
		b.Do(tab, "phone home "+lang, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
			chromedp.Navigate(s.Srv.URL+"/"+lang+"/"), chromedp.WaitVisible(chromedp.CSS(`footer`)))
		b.Do(tab, "the account menu", chromedp.Click(chromedp.CSS(`.top .account summary`)))
		got, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
		  const r = [...document.querySelectorAll('.top a[href^="/`+lang+`/register"]')].filter(a => a.getBoundingClientRect().width > 0);
		  return r.length + ' ' + document.documentElement.scrollWidth;
		})()`))
		if err != nil || got != "1 390" {
			t.Errorf("%s: visible registration links in the phone's header, page width: %q (%v), want 1 390", lang, got, err)
		}
	}
}

// TestBrowserNoEnglishOnGamePage: the game page in Czech and in Italian
// (waiting for the opponent, in play with the page's own buttons, and
// over) has no English word: none of the words of the English page but
// the names both languages share.
func TestBrowserNoEnglishOnGamePage(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 2*time.Minute)
	// Words the pages rightly share with English: names, and words Czech
	// or Italian take as they are (Italian "standard", "link", "computer").
	shared := map[string]bool{"standard": true, "oware": true, "abapa": true, "beta": true, "chat": true, "link": true, "computer": true,
		"javascript": true, "italiano": true, "english": true, "čeština": true}
	words := func(tab context.Context) map[string]bool {
		t.Helper()
		text, err := chromedp.Run(tab, chromedp.Evaluate[string](`[document.querySelector('main').innerText,
		  ...[...document.querySelectorAll('main [aria-label], main [title], main [placeholder]')].map(e => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')].join(' ')),
		  ...[...document.querySelectorAll('main .vh')].map(e => e.textContent)].join(' ')`))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r > 127 && r != '…' && r != '–' && r != '·' && r != '—')
		}) {
			if len([]rune(w)) >= 3 && !shared[w] {
				out[w] = true
			}
		}
		return out
	}
	pages := func(lang string) []map[string]bool {
		south, north := b.NewTab(), b.NewTab()
		b.Do(south, "new game", chromedp.Navigate(s.Srv.URL+"/"+lang+"/games/new"),
			chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)), chromedp.WaitVisible(chromedp.ID("invite-url")), handlerstest.MarkPage)
		waiting := words(south)
		invite, _ := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
		b.Do(north, "join", chromedp.Navigate(invite), chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
			chromedp.WaitVisible(chromedp.CSS(`#game .board`)))
		b.WaitFor(south, "South may move", `document.querySelector('button[name="pit"][value="C"]') !== null && document.querySelector('.turn-tools') !== null`)
		playing := words(south)
		b.Do(south, "resign", chromedp.Click(chromedp.CSS(`a.button.danger`)), chromedp.WaitVisible(chromedp.CSS(`main form button.danger`)),
			chromedp.Click(chromedp.CSS(`main form button.danger`)), chromedp.WaitVisible(chromedp.CSS(`#turn .state.lost`)))
		return []map[string]bool{waiting, playing, words(south)}
	}
	en := pages("en")
	for _, lang := range []string{"cs", "it"} {
		for i, page := range pages(lang) {
			var english []string
			for w := range page {
				if en[i][w] {
					english = append(english, w)
				}
			}
			if len(english) > 0 {
				t.Errorf("%s, %s: English words %q", lang, []string{"waiting", "in play", "over"}[i], english)
			}
		}
	}
}

// TestBrowserBoardFocus: a player's focus stays on the board (the keyboard
// and its ring: TestBrowserFocusThemeLanguage): after their move on the
// pit they played (no longer a button), after the opponent's on it again
// when it is a button once more (else the first pit they may sow); the
// opponent's move is said in the page's status region.
func TestBrowserBoardFocus(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, north := browserGame(t, b, s.Srv.URL, "en")
	// Both windows act as focused, as the one a person looks at does.
	focused := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
	b.Do(south, "focus emulation", focused)
	b.Do(north, "focus emulation", focused)
	b.Do(south, "South plays C", chromedp.Click(chromedp.CSS(`button[name="pit"][value="C"]`)))
	b.WaitFor(south, "South's focus on C", `(document.getElementById('last-move') || {dataset: {}}).dataset.ply === '1' && document.activeElement.id === 'pit-C'`)
	b.WaitFor(north, "North may move", `document.querySelector('button[name="pit"][value="f"]') !== null`)
	b.Do(north, "North plays f", chromedp.Click(chromedp.CSS(`button[name="pit"][value="f"]`)))
	b.WaitFor(south, "North's move", `(document.getElementById('last-move') || {dataset: {}}).dataset.ply === '2'`)
	// f's 5 seeds reach A to E: C, emptied by South's move, holds 1 and
	// is a button again.
	b.WaitFor(south, "South's focus on C again, North's move said",
		`(document.getElementById('last-move') || {dataset: {}}).dataset.ply === '2' && document.activeElement.matches('button[name="pit"]') && document.activeElement.value === 'C'`+
			` && document.getElementById('announce').textContent === 'Your opponent sowed pit f.'`)
}

// TestBrowserPresence: the creator of a game, whose tab is then hidden
// (frozen, as a phone's page in the background), is on the page for the
// friend who joins over the invitation link; and the creator's page,
// which waited, shows the friend there without a reload. (The creator was
// never seen while waiting: the joiner read "Your opponent is not on the
// page".)
func TestBrowserPresence(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, north := b.NewTab(), b.NewTab()
	b.Do(south, "new game", chromedp.Navigate(s.Srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")), handlerstest.MarkPage)
	invite, err := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil {
		t.Fatal(err)
	}
	b.Do(north, "join", chromedp.Navigate(invite),
		chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	b.WaitFor(south, "South's page shows North there", `document.querySelector('#presence .dot.on') !== null`)
	b.Do(south, "South's tab in the background", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.SetWebLifecycleState, page.SetWebLifecycleStateParams{State: "frozen"})
		return err
	}))
	b.Do(north, "North's page again", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	b.WaitFor(north, "North's page shows South there", `document.querySelector('#presence .dot.on') !== null && document.querySelector('#presence').textContent.includes('Your opponent is here.')`)
}

// TestBrowserSowingAnimation: a move of Oware is sown seed by seed on the
// page (C's 4 seeds drop into D, E, F and a in turn), within 1.2 s
// (app.css leaves it out under prefers-reduced-motion).
func TestBrowserSowingAnimation(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, _ := browserGame(t, b, s.Srv.URL, "en")
	b.Do(south, "South plays C", chromedp.Click(chromedp.CSS(`button[name="pit"][value="C"]`)))
	b.WaitFor(south, "four seeds drop in turn, within 1.2 s", `(() => {
	  const d = [...document.querySelectorAll('#game .drop.go')];
	  const end = d.map(e => e.getAnimations()[0]).filter(a => a).map(a => a.effect.getComputedTiming().endTime);
	  return d.map(e => e.closest('.pit').id).join(' ') === 'pit-a pit-D pit-E pit-F' && end.length === 4 && Math.max(...end) <= 1200;
	})()`)
}
