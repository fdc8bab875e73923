//go:build browser

package web_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserComputer: a visitor starts a game against the computer from
// the home page, plays, sees each reply appear without a reload (server-
// sent events), asks for a hint and takes a move back.
func TestBrowserComputer(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	me := b.NewTab()
	moves := func(n int) string {
		return `document.getElementById('moves-h').textContent.startsWith('` + strconv.Itoa(n) + ` move')` +
			` && document.getElementById('turn').textContent.includes('Your turn')`
	}
	b.Do(me, "start from the home page", chromedp.Navigate(s.Srv.URL+"/en/"),
		chromedp.Click(chromedp.CSS(`.play-ways a[href="/en/computer"]`)),
		chromedp.WaitVisible(chromedp.ID("level-1")),
		chromedp.Click(chromedp.ID("level-1")), chromedp.Click(chromedp.ID("seat-south")),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	name, err := chromedp.Run(me, chromedp.Text(chromedp.CSS(`.top-side .name`)))
	if err != nil || name != "Computer, level 1" {
		t.Fatalf("the opponent's plate: %q %v", name, err)
	}
	for i := 1; i <= 3; i++ {
		b.Do(me, "move "+strconv.Itoa(i), chromedp.Click(chromedp.CSS(`button[name="pit"]`)))
		b.WaitFor(me, "the computer's reply "+strconv.Itoa(i), moves(2*i))
	}
	// A hint: the line says which pit and why, the pit is marked.
	b.Do(me, "hint", chromedp.Click(chromedp.CSS(`form[action$="/hint"] button`)))
	b.WaitFor(me, "the hint", `(document.querySelector('#game .notice') || {textContent: ''}).textContent.startsWith('Hint: sow ')`+
		` && document.querySelector('button[name="pit"].hl') !== null`)
	b.Do(me, "play the hint", chromedp.Click(chromedp.CSS(`button[name="pit"].hl`)))
	b.WaitFor(me, "the reply to the hinted move", moves(8)+` && document.querySelector('#game .notice') === null`)
	// Take back the move and the reply.
	b.Do(me, "take back", chromedp.Click(chromedp.CSS(`form[action$="/takeback"] button`)))
	b.WaitFor(me, "after the takeback", moves(6))
}
