//go:build browser

package web_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserTournament: alice makes an arena through the form and joins
// it; bob, in another browser, joins it too; alice's page, never
// reloaded, shows their game as soon as it is paired; alice plays her
// first move and comes back; bob goes to the game, plays his and
// resigns; alice's page then shows her first with 2 points, without a
// reload.
func TestBrowserTournament(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 2*time.Minute)
	s.Account("alice")
	s.Account("bob")
	alice, bob := b.NewTab(), b.NewTab()
	for who, tab := range map[string]context.Context{"alice": alice, "bob": bob} {
		b.Do(tab, who+" logs in", chromedp.Navigate(s.Srv.URL+"/en/login"),
			chromedp.SendKeys(chromedp.ID("username"), who),
			chromedp.SendKeys(chromedp.ID("password"), handlerstest.TestPassword),
			chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
			chromedp.WaitReady(chromedp.CSS(`.top .me`)))
	}
	b.Do(alice, "alice makes an arena", chromedp.Navigate(s.Srv.URL+"/en/tournaments"),
		chromedp.SendKeys(chromedp.ID("trn-name"), "Browser arena"),
		chromedp.SetValue(chromedp.ID("trn-start"), "0"),
		// Casual: a rated game resigned before two moves each is aborted.
		chromedp.Click(chromedp.ID("trn-rated")),
		chromedp.Click(chromedp.CSS(`form.trn-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action$="/join"] button`)))
	page, err := chromedp.Run(alice, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	b.Do(alice, "alice joins", chromedp.Click(chromedp.CSS(`form[action$="/join"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action$="/withdraw"] button`)), handlerstest.MarkPage)
	b.Do(bob, "bob joins", chromedp.Navigate(page), chromedp.Click(chromedp.CSS(`form[action$="/join"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`.your-game a`)))
	b.WaitFor(alice, "alice's page shows the game live", `document.querySelector('#trn-live .trn-games a') !== null`)
	// The first moves (a game over before both moved scores nobody):
	// alice, South, plays A and comes back to the tournament's page.
	b.Do(alice, "alice plays A", chromedp.Click(chromedp.CSS(`#trn-live .trn-games a`)),
		chromedp.WaitVisible(chromedp.CSS(`button[name="pit"][value="A"]`)),
		chromedp.Click(chromedp.CSS(`button[name="pit"][value="A"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`button[name="pit"][value="A"]`)),
		chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`#trn-live`)), handlerstest.MarkPage)
	b.Do(bob, "bob plays a and resigns", chromedp.Click(chromedp.CSS(`.your-game a`)),
		chromedp.WaitVisible(chromedp.CSS(`button[name="pit"][value="a"]`)),
		chromedp.Click(chromedp.CSS(`button[name="pit"][value="a"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`button[name="pit"][value="a"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)),
		chromedp.Click(chromedp.CSS(`a.button.danger`)),
		chromedp.WaitVisible(chromedp.CSS(`main form button.danger`)),
		chromedp.Click(chromedp.CSS(`main form button.danger`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)))
	b.WaitFor(alice, "alice's standings move live", `(function(){
		var row = document.querySelector('#trn-live table.standings tbody tr');
		return row && row.classList.contains('mine') && row.cells[2].textContent.trim() === '2'
	})()`)
}
