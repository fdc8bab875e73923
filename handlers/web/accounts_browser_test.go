//go:build browser

package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"oware/handlers/handlerstest"
)

// TestBrowserAccountHistory: a player registers, plays a short game
// against a second browser context (which registers too), resigns, opens
// the history and steps through the replay with the keyboard (htmx swaps,
// no reload).
func TestBrowserAccountHistory(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	alice, bob := b.NewTab(), b.NewTab()

	// waitFor evaluates cond again and again (the page may be navigating)
	// until it holds.
	waitFor := func(who context.Context, name, cond string) {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if ok, err := chromedp.Run(who, chromedp.Evaluate[bool](cond)); err == nil && ok {
				return
			}
			if time.Now().After(deadline) {
				html, _ := chromedp.Run(who, chromedp.OuterHTML(chromedp.CSS("main")))
				loc, _ := chromedp.Run(who, chromedp.Location())
				t.Fatalf("%s: timeout at %s\n%s", name, loc, html)
			}
		}
	}
	register := func(who context.Context, name string) {
		t.Helper()
		b.Do(who, "register "+name, chromedp.Navigate(s.Srv.URL+"/en/register"),
			chromedp.SendKeys(chromedp.ID("username"), name),
			chromedp.SendKeys(chromedp.ID("password"), handlerstest.TestPassword),
			chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
			chromedp.WaitVisible(chromedp.CSS(`.top .me`)))
	}
	register(alice, "alice")
	register(bob, "bob")

	// Alice sets up the table; Bob takes the seat over the invitation.
	b.Do(alice, "new game", chromedp.Navigate(s.Srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`#seat-south`)),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")))
	invite, err := chromedp.Run(alice, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil {
		t.Fatal(err)
	}
	b.Do(bob, "join", chromedp.Navigate(invite),
		chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)))
	pit := func(label string) string {
		return `document.querySelector('button[name="pit"][value="` + label + `"]') !== null`
	}
	waitFor(alice, "Alice sees Bob join", pit("C"))
	b.Do(alice, "Alice plays C", chromedp.Click(chromedp.CSS(`button[name="pit"][value="C"]`)))
	waitFor(bob, "Bob may move", pit("f"))
	b.Do(bob, "Bob plays f", chromedp.Click(chromedp.CSS(`button[name="pit"][value="f"]`)))
	waitFor(alice, "Alice may move", pit("A"))
	b.Do(alice, "Alice resigns", chromedp.Click(chromedp.CSS(`a.button.danger`)),
		chromedp.WaitVisible(chromedp.CSS(`main form button.danger`)),
		chromedp.Click(chromedp.CSS(`main form button.danger`)))
	waitFor(alice, "the game is over", `(document.getElementById('turn') || {textContent: ''}).textContent.includes('You lost by resignation')`)

	// The history lists the game; its replay steps with the arrow keys.
	b.Do(alice, "history", chromedp.Click(chromedp.CSS(`.top .account summary`)), chromedp.Click(chromedp.CSS(`.top .my-games`)),
		chromedp.WaitVisible(chromedp.CSS(`tr.outcome-lost`)))
	row, _ := chromedp.Run(alice, chromedp.Text(chromedp.CSS(`tr.outcome-lost`)))
	if !strings.Contains(row, "bob") || !strings.Contains(row, "Lost") {
		t.Errorf("history row %q", row)
	}
	b.Do(alice, "replay", chromedp.Click(chromedp.CSS(`tr.outcome-lost a[href$="/replay"]`)),
		chromedp.WaitVisible(chromedp.ID("replay")),
		handlerstest.MarkPage)
	turn := func(text string) string {
		return `document.querySelector('#replay .turn').textContent.includes('` + text + `') && window.owareMarker === 1`
	}
	waitFor(alice, "replay at the end", turn("Move 2 of 2: f"))
	for _, step := range []struct{ key, want, ply string }{
		{kb.ArrowLeft, "Move 1 of 2: C", "ply=1"},
		{kb.ArrowLeft, "Start position", "ply=0"},
		{kb.ArrowRight, "Move 1 of 2: C", "ply=1"},
		{kb.End, "Move 2 of 2: f", "ply=2"},
		{kb.Home, "Start position", "ply=0"},
	} {
		b.Do(alice, "key "+step.want, chromedp.KeyEvent(step.key))
		waitFor(alice, "after the key: "+step.want, turn(step.want)+` && location.search.includes('`+step.ply+`')`+
			` && document.getElementById('replay-live').textContent.includes('`+step.want+`')`)
	}
	// Tab to "Next" and press Enter: the focus stays on "Next" in the new panel.
	b.Do(alice, "focus Next", chromedp.Focus(chromedp.CSS(`#replay a[data-nav="next"]`)), chromedp.KeyEvent(kb.Enter))
	waitFor(alice, "Enter on Next", turn("Move 1 of 2: C")+` && document.activeElement.dataset.nav === 'next'`)
	// Bob's history has the win.
	b.Do(bob, "Bob's history", chromedp.Navigate(s.Srv.URL+"/en/players/bob"),
		chromedp.WaitVisible(chromedp.CSS(`tr.outcome-won`)))
}
