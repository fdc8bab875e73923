//go:build browser

package handlers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPlay: two browser contexts play over the invitation link; each
// sees the other's move appear without a reload (server-sent events), and
// so does a spectator, whose page applies what changed (event "move") and
// ends with the board, status and move list of a page loaded then.
func TestBrowserPlay(t *testing.T) {
	s, b := newBrowserSite(t, 90*time.Second)
	south, north := b.newTab(), b.newTab()

	pit := func(label string) string {
		return `document.querySelector('button[name="pit"][value="` + label + `"]') !== null`
	}
	lastMove := func(label string) string {
		return `(document.querySelector('.last-move') || {textContent: ''}).textContent.includes('Last move: ` + label + `')`
	}

	// South sets up the table and waits on the game page.
	b.do(south, "new game", chromedp.Navigate(s.srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`#seat-south`)),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")), markPage)
	invite, err := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil || !strings.HasPrefix(invite, s.srv.URL+"/join/") {
		t.Fatalf("invitation link %q: %v", invite, err)
	}
	// North opens the invitation and takes the seat.
	b.do(north, "join", chromedp.Navigate(invite),
		chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), markPage)
	// South's page starts by itself.
	b.waitFor(south, "South sees the opponent join", pit("C"))
	watchURL, err := chromedp.Run(south, chromedp.Evaluate[string](`document.querySelector('a[href*="/watch/"]').href`))
	if err != nil {
		t.Fatal(err)
	}
	spectator := b.newTab()
	b.do(spectator, "watch", chromedp.Navigate(watchURL), chromedp.WaitVisible(chromedp.CSS(`#game .board`)), markPage)
	b.do(spectator, "mark the page", chromedp.Evaluate[chromedp.Void](`window.kept = true`))

	for _, m := range []struct {
		mover, watcher context.Context
		label, name    string
	}{
		{south, north, "C", "South plays C"},
		{north, south, "f", "North plays f"},
		{south, north, "A", "South plays A"},
		{north, south, "a", "North plays a"},
	} {
		b.do(m.mover, m.name, chromedp.Click(chromedp.CSS(`button[name="pit"][value="`+m.label+`"]`)))
		b.waitFor(m.mover, m.name+": mover's board", lastMove(m.label))
		b.waitFor(m.watcher, m.name+": opponent's board", lastMove(m.label)+
			` && document.getElementById('turn').textContent.includes('Your turn')`)
	}
	txt, err := chromedp.Run(north, chromedp.Text(chromedp.CSS(`.move-list`)))
	if err != nil || !strings.Contains(txt, "1. C f") || !strings.Contains(txt, "2. A a") {
		t.Fatalf("move list %q: %v", txt, err)
	}
	b.waitFor(spectator, "the spectator sees the four moves", lastMove("a"))
	panel := `[...document.querySelectorAll('#turn, #game .board, #game .moves')].map(e => e.innerHTML.replace(/ class=""/g, '')).join('|')`
	live, err := chromedp.Run(spectator, chromedp.Evaluate[string](`window.kept ? `+panel+` : 'reloaded'`))
	if err != nil {
		t.Fatal(err)
	}
	b.do(spectator, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#game .board`)))
	if loaded, err := chromedp.Run(spectator, chromedp.Evaluate[string](panel)); err != nil || loaded != live {
		t.Fatalf("the spectator's live page:\n%s\nthe page loaded anew:\n%s (%v)", live, loaded, err)
	}

	// A refused move (a pit button altered to a bad label): htmx swaps in
	// the 422 answer with its message; nothing changes.
	b.do(south, "bad pit", chromedp.Evaluate[chromedp.Void](`document.querySelector('button[name="pit"]').value = 'Z'`),
		chromedp.Click(chromedp.CSS(`button[name="pit"]`)))
	b.waitFor(south, "South sees the refusal", `(document.querySelector('#game .error') || {textContent: ''}).textContent.includes('There is no such pit')`+
		` && `+lastMove("a"))

	// South resigns (with confirmation); North sees it live.
	oldGame, _ := chromedp.Run(south, chromedp.Location())
	b.do(south, "resign", chromedp.Click(chromedp.CSS(`a.button.danger`)),
		chromedp.WaitVisible(chromedp.CSS(`main form button.danger`)),
		chromedp.Click(chromedp.CSS(`main form button.danger`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), markPage)
	over := `document.querySelector('#turn .state.won, #turn .state.lost') !== null`
	b.waitFor(south, "South sees the result", over)
	b.waitFor(north, "North sees the result", over)
	// Rematch: both agree, both land on the new game, seats swapped.
	rematch := chromedp.Click(chromedp.CSS(`form[action$="/rematch"] button`))
	b.do(north, "North asks for a rematch", rematch)
	b.waitFor(south, "South sees the request", `document.body.textContent.includes('asks for a rematch')`)
	b.do(south, "South accepts", rematch)
	onNewGame := func(who context.Context, name string) string {
		t.Helper()
		// Evaluate again and again: the page navigates meanwhile.
		cond := `location.pathname !== '` + strings.TrimPrefix(oldGame, s.srv.URL) + `' && document.querySelector('.board') !== null`
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if ok, err := chromedp.Run(who, chromedp.Evaluate[bool](cond)); err == nil && ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not on the new game", name)
			}
		}
		loc, _ := chromedp.Run(who, chromedp.Location())
		return loc
	}
	ls, ln := onNewGame(south, "South goes to the rematch"), onNewGame(north, "North goes to the rematch")
	if ls != ln {
		t.Fatalf("rematch pages differ: %s, %s", ls, ln)
	}
	b.do(north, "North, now South, opens the rematch", chromedp.WaitVisible(chromedp.CSS(`button[name="pit"][value="A"]`)))
}
