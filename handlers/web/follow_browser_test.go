//go:build browser

package web_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserFollowAndSettings: alice follows bob with the button of his
// page; her list of the followed, bob's page with the challenge form open
// and the board settings page (with the defaults, then with the slate
// board, counts on hover and fast sowing chosen through the form) have no
// axe violation and no horizontal scroll on the phone and the desktop in
// both themes; the chosen settings show on the board (slate wood, counts
// hidden until hovered).
func TestBrowserFollowAndSettings(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 6*time.Minute)
	s.Account("alice")
	bob, carol := s.Account("bob"), s.Account("carol")
	south, north := s.ClockGameWith(bob, carol, "5", "0")
	s.Move(south, "C", nil)
	s.Move(north, "f", nil)
	dir := screenshotDir(t)
	tab := b.NewTab()
	b.Do(tab, "record the policy's blocks", recordCSP)
	b.Do(tab, "log in", chromedp.Navigate(s.Srv.URL+"/en/login"),
		chromedp.SendKeys(chromedp.ID("username"), "alice"),
		chromedp.SendKeys(chromedp.ID("password"), handlerstest.TestPassword),
		chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
		chromedp.WaitReady(chromedp.CSS(`.top .me`)))
	b.Do(tab, "follow bob", chromedp.Navigate(s.Srv.URL+"/en/players/bob"),
		chromedp.Click(chromedp.CSS(`form.follow button[type=submit]`)), chromedp.WaitReady(chromedp.CSS(`form.follow input[value=off]`)))
	b.Do(tab, "bob's page again", chromedp.Navigate(s.Srv.URL+"/en/players/bob"), chromedp.WaitReady(chromedp.CSS(`footer`)), handlerstest.MarkPage)
	b.WaitFor(tab, "unfollow offered", `document.querySelector('form.follow button').textContent.startsWith('Unfollow')`)
	looks := func(settings string) {
		for _, sc := range screens {
			for _, theme := range []string{"light", "dark"} {
				b.Do(tab, sc.name+" "+theme, emulate(sc, theme))
				for _, pg := range []lookPage{{"following", "/en/following"}, {"player-follow", "/en/players/bob"}, {"settings" + settings, "/en/settings"}} {
					name := pg.name + "-" + sc.name + "-" + theme
					b.Do(tab, name, chromedp.Navigate(s.Srv.URL+pg.path), chromedp.WaitReady(chromedp.CSS(`footer`)))
					if pg.name == "player-follow" {
						b.Do(tab, "open the challenge", chromedp.Click(chromedp.CSS(`.challenge-player summary`)))
					}
					checkLooks(t, tab, name, sc, theme)
					screenshot(t, tab, filepath.Join(dir, name+".png"))
				}
			}
		}
	}
	looks("")
	b.Do(tab, "choose", emulate(screens[0], "light"), chromedp.Navigate(s.Srv.URL+"/en/settings"),
		chromedp.Click(chromedp.ID("set-counts-hover")), chromedp.Click(chromedp.ID("set-speed-fast")),
		chromedp.Click(chromedp.ID("set-theme-slate")), chromedp.Click(chromedp.CSS(`.board-settings button[type=submit]`)),
		chromedp.WaitReady(chromedp.CSS(`.notice`)), handlerstest.MarkPage)
	b.WaitFor(tab, "slate, counts hidden", `getComputedStyle(document.querySelector('.board .rows')).backgroundImage.includes('rgb(159, 177, 186)')
	  && getComputedStyle(document.querySelector('.board .pit .count')).opacity === '0'`)
	looks("-slate")
}
