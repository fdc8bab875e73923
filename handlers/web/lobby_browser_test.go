//go:build browser

package web_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserLobby: two visitors who do not know each other press the same
// quick-pairing button and meet in a game on the clock: the first waits in
// the lobby and is taken to the game when the second arrives; both see the
// two clocks, the first-move clock counting, then the clock of the player
// to move running, and the tab title of the player to move says so.
func TestBrowserLobby(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	first, second := b.NewTab(), b.NewTab()
	quick := chromedp.Click(chromedp.CSS(`form.quick button[value="1+1"]`))
	b.Do(first, "first press", chromedp.Navigate(s.Srv.URL+"/en/lobby"), quick,
		chromedp.WaitVisible(chromedp.ID("mine-h")), handlerstest.MarkPage)
	b.Do(second, "second press", chromedp.Navigate(s.Srv.URL+"/en/lobby"), quick,
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)))
	// The first visitor's lobby notices within its 2 s poll.
	onGame := `location.pathname.includes('/games/') && document.querySelectorAll('#game .clock[role=timer]').length === 2`
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if ok, err := chromedp.Run(first, chromedp.Evaluate[bool](onGame)); err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first visitor was not taken to the game")
		}
	}
	b.Do(first, "first on the game", handlerstest.MarkPage)
	loc1, _ := chromedp.Run(first, chromedp.Location())
	loc2, _ := chromedp.Run(second, chromedp.Location())
	if loc1 != loc2 {
		t.Fatalf("the visitors are in different games: %s, %s", loc1, loc2)
	}
	// Who is South (to move first)?
	south, north := first, second
	if ok, _ := chromedp.Run(first, chromedp.Evaluate[bool](`document.querySelector('button[name="pit"][value="C"]') !== null`)); !ok {
		south, north = second, first
	}
	b.Do(north, "North's page marked", handlerstest.MarkPage)
	b.Do(south, "South's page marked", handlerstest.MarkPage)
	b.WaitFor(south, "South's tab title", `document.title === '• Your turn - Oware'`)
	b.WaitFor(south, "the first-move clock counts down", `(function(){var t=document.querySelector('.first-move .clock .t');return t && /^0:2\d$/.test(t.textContent)})()`)
	for _, m := range []struct {
		mover, watcher context.Context
		label          string
	}{{south, north, "C"}, {north, south, "f"}} {
		b.Do(m.mover, "move "+m.label, chromedp.Click(chromedp.CSS(`button[name="pit"][value="`+m.label+`"]`)))
		b.WaitFor(m.watcher, "the opponent sees "+m.label, `document.getElementById('turn').textContent.includes('Your turn')`)
	}
	// Now South's clock runs, on both pages.
	running := func(who context.Context) string {
		txt, err := chromedp.Run(who, chromedp.Text(chromedp.CSS(`#game .clock.running .t`)))
		if err != nil {
			t.Fatalf("no running clock: %v", err)
		}
		return txt
	}
	a1, b1 := running(south), running(north)
	time.Sleep(1500 * time.Millisecond)
	a2, b2 := running(south), running(north)
	if a1 == a2 || b1 == b2 || a2 > "1:00" {
		t.Errorf("South's clock does not run: %q then %q (South's page), %q then %q (North's)", a1, a2, b1, b2)
	}
	b.WaitFor(north, "North's title is the page's", `document.title !== '• Your turn - Oware'`)
}
