//go:build browser

package handlers_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserLobby: two visitors who do not know each other press the same
// quick-pairing button and meet in a game on the clock: the first waits in
// the lobby and is taken to the game when the second arrives; both see the
// two clocks, the first-move clock counting, then the clock of the player
// to move running, and the tab title of the player to move says so.
func TestBrowserLobby(t *testing.T) {
	s, b := newBrowserSite(t, 90*time.Second)
	first, second := b.newTab(), b.newTab()
	quick := chromedp.Click(chromedp.CSS(`form.quick button[value="1+1"]`))
	b.do(first, "first press", chromedp.Navigate(s.srv.URL+"/en/lobby"), quick,
		chromedp.WaitVisible(chromedp.ID("mine-h")), markPage)
	b.do(second, "second press", chromedp.Navigate(s.srv.URL+"/en/lobby"), quick,
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
	b.do(first, "first on the game", markPage)
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
	b.do(north, "North's page marked", markPage)
	b.do(south, "South's page marked", markPage)
	b.waitFor(south, "South's tab title", `document.title === '• Your turn - Oware'`)
	b.waitFor(south, "the first-move clock counts down", `(function(){var t=document.querySelector('.first-move .clock .t');return t && /^0:2\d$/.test(t.textContent)})()`)
	for _, m := range []struct {
		mover, watcher context.Context
		label          string
	}{{south, north, "C"}, {north, south, "f"}} {
		b.do(m.mover, "move "+m.label, chromedp.Click(chromedp.CSS(`button[name="pit"][value="`+m.label+`"]`)))
		b.waitFor(m.watcher, "the opponent sees "+m.label, `document.getElementById('turn').textContent.includes('Your turn')`)
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
	b.waitFor(north, "North's title is the page's", `document.title !== '• Your turn - Oware'`)
}
