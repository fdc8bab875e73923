//go:build browser

package handlers_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// longName is the longest username registration takes (20 characters),
// of wide letters.
const longName = "WWWWWWWWWWMMMMMMMMMM"

// TestLooksLoggedIn is TestLooks for a player with the longest username, in
// each language, on the phone and the desktop: the header with the
// account menu fits a 390 px phone (it was 404-411 px wide logged in:
// 410 in Czech, 404 in Italian), with axe's checks, in both themes.
func TestLooksLoggedIn(t *testing.T) {
	s, b := newBrowserSite(t, 4*time.Minute)
	s.account(longName)
	dir := screenshotDir(t)
	tab := b.newTab()
	b.do(tab, "record the policy's blocks", recordCSP)
	b.do(tab, "log in", chromedp.Navigate(s.srv.URL+"/en/login"),
		chromedp.SendKeys(chromedp.ID("username"), longName),
		chromedp.SendKeys(chromedp.ID("password"), testPassword),
		chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
		chromedp.WaitReady(chromedp.CSS(`.top .me`)))
	for _, sc := range screens {
		for _, theme := range []string{"light", "dark"} {
			b.do(tab, sc.name+" "+theme, emulate(sc, theme))
			for _, lang := range []string{"cs", "it", "en"} {
				for _, pg := range []lookPage{{"home", "/"}, {"new-game", "/games/new"}, {"rules", "/rules"}} {
					path := pg.path
					name := "long-name-" + lang + "-" + pg.name + "-" + sc.name + "-" + theme
					b.do(tab, name, chromedp.Navigate(s.srv.URL+"/"+lang+path), chromedp.WaitReady(chromedp.CSS(`footer`)))
					checkLooks(t, tab, name, sc, theme)
					if path == "/" && theme == "light" {
						screenshot(t, tab, filepath.Join(dir, name+".png"))
					}
				}
			}
		}
	}
}
