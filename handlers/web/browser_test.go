//go:build browser

package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserPlay: two browser contexts play over the invitation link; each
// sees the other's move appear without a reload (server-sent events), and
// so does a spectator, whose page applies what changed (event "move") and
// ends with the board, status and move list of a page loaded then.
func TestBrowserPlay(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	south, north := b.NewTab(), b.NewTab()

	pit := func(label string) string {
		return `document.querySelector('button[name="pit"][value="` + label + `"]') !== null`
	}
	lastMove := func(label string) string {
		return `(document.querySelector('.last-move') || {textContent: ''}).textContent.includes('Last move: ` + label + `')`
	}

	// South sets up the table and waits on the game page.
	b.Do(south, "new game", chromedp.Navigate(s.Srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`#seat-south`)),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")), handlerstest.MarkPage)
	invite, err := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil || !strings.HasPrefix(invite, s.Srv.URL+"/join/") {
		t.Fatalf("invitation link %q: %v", invite, err)
	}
	// North opens the invitation and takes the seat.
	b.Do(north, "join", chromedp.Navigate(invite),
		chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	// South's page starts by itself.
	b.WaitFor(south, "South sees the opponent join", pit("C"))
	watchURL, err := chromedp.Run(south, chromedp.Evaluate[string](`document.querySelector('a[href*="/watch/"]').href`))
	if err != nil {
		t.Fatal(err)
	}
	spectator := b.NewTab()
	b.Do(spectator, "watch", chromedp.Navigate(watchURL), chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	b.Do(spectator, "mark the page", chromedp.Evaluate[chromedp.Void](`window.kept = true`))

	for _, m := range []struct {
		mover, watcher context.Context
		label, name    string
	}{
		{south, north, "C", "South plays C"},
		{north, south, "f", "North plays f"},
		{south, north, "A", "South plays A"},
		{north, south, "a", "North plays a"},
	} {
		b.Do(m.mover, m.name, chromedp.Click(chromedp.CSS(`button[name="pit"][value="`+m.label+`"]`)))
		b.WaitFor(m.mover, m.name+": mover's board", lastMove(m.label))
		b.WaitFor(m.watcher, m.name+": opponent's board", lastMove(m.label)+
			` && document.getElementById('turn').textContent.includes('Your turn')`)
	}
	txt, err := chromedp.Run(north, chromedp.Text(chromedp.CSS(`.move-list`)))
	if err != nil || !strings.Contains(txt, "1. C f") || !strings.Contains(txt, "2. A a") {
		t.Fatalf("move list %q: %v", txt, err)
	}
	b.WaitFor(spectator, "the spectator sees the four moves", lastMove("a"))
	panel := `[...document.querySelectorAll('#turn, #game .board, #game .moves')].map(e => e.innerHTML.replace(/ class=""/g, '')).join('|')`
	live, err := chromedp.Run(spectator, chromedp.Evaluate[string](`window.kept ? `+panel+` : 'reloaded'`))
	if err != nil {
		t.Fatal(err)
	}
	b.Do(spectator, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#game .board`)))
	if loaded, err := chromedp.Run(spectator, chromedp.Evaluate[string](panel)); err != nil || loaded != live {
		t.Fatalf("the spectator's live page:\n%s\nthe page loaded anew:\n%s (%v)", live, loaded, err)
	}

	// A refused move (a pit button altered to a bad label): htmx swaps in
	// the 422 answer with its message; nothing changes.
	b.Do(south, "bad pit", chromedp.Evaluate[chromedp.Void](`document.querySelector('button[name="pit"]').value = 'Z'`),
		chromedp.Click(chromedp.CSS(`button[name="pit"]`)))
	b.WaitFor(south, "South sees the refusal", `(document.querySelector('#game .error') || {textContent: ''}).textContent.includes('There is no such pit')`+
		` && `+lastMove("a"))

	// South resigns (with confirmation); North sees it live.
	oldGame, _ := chromedp.Run(south, chromedp.Location())
	b.Do(south, "resign", chromedp.Click(chromedp.CSS(`a.button.danger`)),
		chromedp.WaitVisible(chromedp.CSS(`main form button.danger`)),
		chromedp.Click(chromedp.CSS(`main form button.danger`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	over := `document.querySelector('#turn .state.won, #turn .state.lost') !== null`
	b.WaitFor(south, "South sees the result", over)
	b.WaitFor(north, "North sees the result", over)
	// Rematch: both agree, both land on the new game, seats swapped.
	rematch := chromedp.Click(chromedp.CSS(`form[action$="/rematch"] button`))
	b.Do(north, "North asks for a rematch", rematch)
	b.WaitFor(south, "South sees the request", `document.body.textContent.includes('asks for a rematch')`)
	b.Do(south, "South accepts", rematch)
	onNewGame := func(who context.Context, name string) string {
		t.Helper()
		// Evaluate again and again: the page navigates meanwhile.
		cond := `location.pathname !== '` + strings.TrimPrefix(oldGame, s.Srv.URL) + `' && document.querySelector('.board') !== null`
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
	b.Do(north, "North, now South, opens the rematch", chromedp.WaitVisible(chromedp.CSS(`button[name="pit"][value="A"]`)))
}
