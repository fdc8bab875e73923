//go:build browser

package web_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserStudy: alice writes a study in the browser (the new study's
// form with its first chapter, then a chapter with a task, which the
// engine first refuses with a wrong answer), bob opens it by its share
// link in another browser context, answers the task with clicks on the
// board (wrong, then right: data-verdict, swapped in by htmx without a
// page load) and copies it into his own studies, a private copy; the
// study's page, the answered task and the editor have no axe violation
// and no horizontal scroll on the desktop and the phone, in both themes.
func TestBrowserStudy(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 4*time.Minute)
	b.Wait = 10 * time.Second
	s.Account("alice")
	s.Account("bob")
	dir := screenshotDir(t)
	login := func(tab context.Context, name string) {
		b.Do(tab, name+" logs in", recordCSP, chromedp.Navigate(s.Srv.URL+"/en/login"),
			chromedp.SendKeys(chromedp.ID("username"), name),
			chromedp.SendKeys(chromedp.ID("password"), handlerstest.TestPassword),
			chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
			chromedp.WaitReady(chromedp.CSS(`.top .me`)))
	}
	alice, bob := b.NewTab(), b.NewTab()
	login(alice, "alice")
	login(bob, "bob")
	b.Do(alice, "a new study", chromedp.Navigate(s.Srv.URL+"/en/studies"),
		chromedp.Click(chromedp.CSS(`a.button.primary[href="/en/studies/new"]`)), chromedp.WaitReady(chromedp.ID("study-title")),
		chromedp.SendKeys(chromedp.ID("study-title"), "Counting to a capture"),
		chromedp.SendKeys(chromedp.ID("ch-title"), "The start"),
		chromedp.SendKeys(chromedp.ID("ch-text"), "Every pit holds **four** seeds."),
		chromedp.Click(chromedp.CSS(`.study-editor form button[type=submit]`)),
		chromedp.WaitReady(chromedp.ID("chapters-h")))
	addTask := func(accept string) {
		b.Do(alice, "a task accepting "+accept, chromedp.SetValue(chromedp.ID("ch-title"), "Take two"),
			chromedp.SetValue(chromedp.ID("ch-position"), studyCapture),
			chromedp.SetValue(chromedp.ID("ch-text"), "Which pit captures two?"),
			chromedp.SetValue(chromedp.ID("ch-goal"), "capture"), chromedp.SetValue(chromedp.ID("ch-n"), "2"),
			chromedp.SetValue(chromedp.ID("ch-accept"), accept),
			chromedp.Click(chromedp.CSS(`form[action$="/chapters"] button[type=submit]`)))
	}
	addTask("E")
	b.Do(alice, "the engine's refusal", chromedp.WaitReady(chromedp.ID("study-error")), handlerstest.MarkPage)
	b.WaitFor(alice, "the reason", `document.getElementById('study-error').textContent.includes('The moves that do: F.')`)
	addTask("F")
	b.Do(alice, "the chapter added", chromedp.WaitReady(chromedp.CSS(`.editor-chapters li:nth-child(2)`)), handlerstest.MarkPage)
	b.WaitFor(alice, "two chapters", `document.querySelectorAll('.editor-chapters li').length === 2 && !document.getElementById('study-error')`)
	view, err := chromedp.Run(alice, chromedp.Evaluate[string](`location.pathname.replace(/\/edit$/, '')`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the study: %s", view)
	b.Do(alice, "the study's page", chromedp.Navigate(s.Srv.URL+view), chromedp.WaitReady(chromedp.ID("share-url")))
	share, err := chromedp.Run(alice, chromedp.Value(chromedp.ID("share-url")))
	if err != nil || share == "" {
		t.Fatalf("the share link: %q %v", share, err)
	}
	b.Do(bob, "bob opens the link", chromedp.Navigate(share), chromedp.WaitReady(chromedp.CSS(`.study-toc`)),
		chromedp.Click(chromedp.CSS(`.step-nav a[rel=next]`)), chromedp.WaitReady(chromedp.ID("pit-F")), handlerstest.MarkPage)
	b.Do(bob, "a wrong move", chromedp.Click(chromedp.ID("pit-E")))
	b.WaitFor(bob, "wrong", `document.querySelector('[data-verdict="wrong"]') !== null`)
	b.Do(bob, "the right move", chromedp.Click(chromedp.ID("pit-F")))
	b.WaitFor(bob, "right", `document.querySelector('[data-verdict="right"]') !== null`)
	for _, sc := range screens {
		for _, theme := range []string{"light", "dark"} {
			b.Do(bob, sc.name+" "+theme, emulate(sc, theme))
			name := "study-answered-" + sc.name + "-" + theme
			b.Do(bob, name, chromedp.Reload(), chromedp.WaitReady(chromedp.CSS(`footer`)),
				chromedp.Click(chromedp.ID("pit-F")), chromedp.WaitReady(chromedp.CSS(`[data-verdict="right"]`)))
			checkLooks(t, bob, name, sc, theme)
			screenshot(t, bob, filepath.Join(dir, name+".png"))
			b.Do(alice, sc.name+" "+theme, emulate(sc, theme))
			name = "study-editor-" + sc.name + "-" + theme
			b.Do(alice, name, chromedp.Navigate(s.Srv.URL+"/en/studies"), chromedp.Click(chromedp.CSS(`#st-mine ~ ul a`)),
				chromedp.Click(chromedp.CSS(`.study-actions a.button`)), chromedp.WaitReady(chromedp.ID("chapters-h")))
			checkLooks(t, alice, name, sc, theme)
			screenshot(t, alice, filepath.Join(dir, name+".png"))
		}
	}
	b.Do(bob, "bob copies it", emulate(screens[0], "light"), chromedp.Click(chromedp.CSS(`.study-actions form button`)),
		chromedp.WaitReady(chromedp.ID("chapters-h")), handlerstest.MarkPage)
	b.WaitFor(bob, "his private copy", `document.getElementById('vis-private').checked && document.querySelectorAll('.editor-chapters li').length === 2`)
}
