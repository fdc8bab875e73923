//go:build browser

package handlers_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserFollowAndSettings: alice follows bob with the button of his
// page; her list of the followed, bob's page with the challenge form open
// and the board settings page (with the defaults, then with the slate
// board, counts on hover and fast sowing chosen through the form) have no
// axe violation and no horizontal scroll on the phone and the desktop in
// both themes; the chosen settings show on the board (slate wood, counts
// hidden until hovered).
func TestBrowserFollowAndSettings(t *testing.T) {
	s, b := newBrowserSite(t, 6*time.Minute)
	s.account("alice")
	bob, carol := s.account("bob"), s.account("carol")
	south, north := s.clockGameWith(bob, carol, "5", "0")
	s.move(south, "C", nil)
	s.move(north, "f", nil)
	dir := screenshotDir(t)
	tab := b.newTab()
	b.do(tab, "record the policy's blocks", recordCSP)
	b.do(tab, "log in", chromedp.Navigate(s.srv.URL+"/en/login"),
		chromedp.SendKeys(chromedp.ID("username"), "alice"),
		chromedp.SendKeys(chromedp.ID("password"), testPassword),
		chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
		chromedp.WaitReady(chromedp.CSS(`.top .me`)))
	b.do(tab, "follow bob", chromedp.Navigate(s.srv.URL+"/en/players/bob"),
		chromedp.Click(chromedp.CSS(`form.follow button[type=submit]`)), chromedp.WaitReady(chromedp.CSS(`form.follow input[value=off]`)))
	b.do(tab, "bob's page again", chromedp.Navigate(s.srv.URL+"/en/players/bob"), chromedp.WaitReady(chromedp.CSS(`footer`)), markPage)
	b.waitFor(tab, "unfollow offered", `document.querySelector('form.follow button').textContent.startsWith('Unfollow')`)
	looks := func(settings string) {
		for _, sc := range screens {
			for _, theme := range []string{"light", "dark"} {
				b.do(tab, sc.name+" "+theme, emulate(sc, theme))
				for _, pg := range []lookPage{{"following", "/en/following"}, {"player-follow", "/en/players/bob"}, {"settings" + settings, "/en/settings"}} {
					name := pg.name + "-" + sc.name + "-" + theme
					b.do(tab, name, chromedp.Navigate(s.srv.URL+pg.path), chromedp.WaitReady(chromedp.CSS(`footer`)))
					if pg.name == "player-follow" {
						b.do(tab, "open the challenge", chromedp.Click(chromedp.CSS(`.challenge-player summary`)))
					}
					checkLooks(t, tab, name, sc, theme)
					screenshot(t, tab, filepath.Join(dir, name+".png"))
				}
			}
		}
	}
	looks("")
	b.do(tab, "choose", emulate(screens[0], "light"), chromedp.Navigate(s.srv.URL+"/en/settings"),
		chromedp.Click(chromedp.ID("set-counts-hover")), chromedp.Click(chromedp.ID("set-speed-fast")),
		chromedp.Click(chromedp.ID("set-theme-slate")), chromedp.Click(chromedp.CSS(`.board-settings button[type=submit]`)),
		chromedp.WaitReady(chromedp.CSS(`.notice`)), markPage)
	b.waitFor(tab, "slate, counts hidden", `getComputedStyle(document.querySelector('.board .rows')).backgroundImage.includes('rgb(159, 177, 186)')
	  && getComputedStyle(document.querySelector('.board .pit .count')).opacity === '0'`)
	looks("-slate")
}
