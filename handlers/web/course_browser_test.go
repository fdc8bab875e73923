//go:build browser

package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
	"oware/tutor"
)

// TestBrowserCourse walks the lesson "captures" with clicks (htmx swaps:
// a wrong pit first, whose reason names the pit, then the answer), and
// then the course page, a
// step with its verdict and a practice step pass the checks of TestLooks
// (axe's WCAG 2.2 AA rules, no horizontal scrolling, 44 px pits) at the
// phone and the desktop size. OWARE_SCREENSHOTS=dir keeps their pictures.
func TestBrowserCourse(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 8*time.Minute, chromedp.WindowSize(1100, 1000))
	b.Wait = 15 * time.Second
	ctx := b.Ctx
	text := func(sel string) string {
		return `(document.querySelector('` + sel + `') || {textContent: ''}).textContent`
	}
	const bound = `document.querySelector('#tutorial .step-nav a[hx-get]')['htmx-internal-data'] !== undefined`

	tu := tutorialSources(t)["captures"]["en"]
	n := len(tu.Steps)
	b.Do(ctx, "open the course", chromedp.Navigate(s.Srv.URL+"/en/tutorials"),
		chromedp.Click(chromedp.CSS(`.tutorial-card a[href="/en/tutorials/captures/1"]`)),
		chromedp.WaitVisible(chromedp.ID("step-title")), handlerstest.MarkPage)
	for i, st := range tu.Steps {
		name := "captures step " + strconv.Itoa(i+1)
		b.WaitFor(ctx, name, text(".tut-progress")+`.includes('Step `+strconv.Itoa(i+1)+` of `+strconv.Itoa(n)+`') && `+bound)
		if st.Task != "" {
			accept := strings.Fields(st.Accept)
			b.Do(ctx, name+": wrong pit", chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="f"]`)))
			b.WaitFor(ctx, name+": reason", `document.querySelector('#feedback[data-verdict="wrong"]') !== null`+
				` && `+text("#feedback")+`.includes('f')`+
				` && document.querySelector('#tutorial form.board-form')['htmx-internal-data'] !== undefined`)
			b.Do(ctx, name+": answer "+accept[0], chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="`+accept[0]+`"]`)))
			b.WaitFor(ctx, name+": right", `document.querySelector('#feedback[data-verdict="right"]') !== null && `+bound)
		}
		if i < n-1 {
			b.Do(ctx, name+": next", chromedp.Click(chromedp.CSS(`#tutorial a[rel="next"]`)))
		}
	}
	b.Do(ctx, "the course page", chromedp.Navigate(s.Srv.URL+"/en/tutorials"), chromedp.WaitVisible(chromedp.CSS(`.course-stage`)))
	if txt, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.tutorial-card:nth-child(3)`))); err != nil || !strings.Contains(txt, "Done") {
		t.Errorf("captures after its tasks: %q %v", txt, err)
	}
	b.Do(ctx, "the home page", chromedp.Navigate(s.Srv.URL+"/en/"), chromedp.WaitVisible(chromedp.CSS(`.course-continue`)))

	// The looks of the course's pages.
	dir := screenshotDir(t)
	look := b.NewTab()
	b.Do(look, "record the policy's blocks", recordCSP)
	for _, sc := range screens {
		b.Do(look, sc.name, emulate(sc, "light"))
		for _, pg := range []lookPage{
			{"course", "/en/tutorials"},
			{"lesson-step", "/en/tutorials/captures/6"},
			{"practice", "/cs/tutorials/rules-practice/6"},
		} {
			name := pg.name + "-" + sc.name
			b.Do(look, name, chromedp.Navigate(s.Srv.URL+pg.path), chromedp.WaitReady(chromedp.CSS(`footer`)))
			checkLooks(t, look, name, sc, "light")
			screenshot(t, look, dir+"/"+name+".png")
		}
	}
	t.Logf("screenshots in %s", dir)
}

// TestBrowserCourseNoScript walks the lesson "feeding" in a browser whose
// pages run no script (Blink's scripts off: no htmx, no app.js): every
// answer is the board's form POST and the page comes back whole, its
// feedback carrying data-verdict as with htmx; Next is a plain link.
func TestBrowserCourseNoScript(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 3*time.Minute, chromedp.WindowSize(1100, 1000), chromedp.Flag("blink-settings", "scriptEnabled=false"))
	b.Wait = 15 * time.Second
	text := func(sel string) string {
		return `(document.querySelector('` + sel + `') || {textContent: ''}).textContent`
	}
	b.Do(b.Ctx, "open", chromedp.Navigate(s.Srv.URL+"/en/tutorials/feeding/1"), chromedp.WaitReady(chromedp.CSS(`footer`)))
	if on, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](`typeof htmx !== 'undefined'`)); err != nil || on {
		t.Fatalf("htmx loaded: %v (%v): the page runs scripts", on, err)
	}
	// Without JavaScript: every answer is a form POST, the page comes back
	// whole with the verdict.
	tab := b.Ctx
	tu := tutorialSources(t)["feeding"]["en"]
	n := len(tu.Steps)
	b.Do(tab, "feeding", chromedp.Navigate(s.Srv.URL+"/en/tutorials/feeding/1"), chromedp.WaitReady(chromedp.CSS(`footer`)))
	for i, st := range tu.Steps {
		name := "feeding step " + strconv.Itoa(i+1)
		waitEval(t, tab, name, text(".tut-progress")+`.includes('Step `+strconv.Itoa(i+1)+` of `+strconv.Itoa(n)+`')`)
		g, _ := tutor.ParseGoal(st.Task)
		switch g.Kind {
		case tutor.GoalLegal:
			for _, l := range strings.Fields(st.Accept) {
				b.Do(tab, name+": tick "+l, chromedp.Click(chromedp.CSS(`.legal-form input[value="`+l+`"]`)))
			}
			b.Do(tab, name+": check", chromedp.Click(chromedp.CSS(`.legal-form button[type=submit]`)))
		case "":
		default:
			b.Do(tab, name+": wrong A", chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="A"]`)))
			waitEval(t, tab, name+": reason", `document.querySelector('#feedback[data-verdict="wrong"]') !== null`)
			b.Do(tab, name+": answer", chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="`+strings.Fields(st.Accept)[0]+`"]`)))
		}
		if st.Task != "" {
			waitEval(t, tab, name+": right", `document.querySelector('#feedback[data-verdict="right"]') !== null`)
		}
		if i < n-1 {
			b.Do(tab, name+": next", chromedp.Click(chromedp.CSS(`#tutorial a[rel="next"]`)))
		}
	}

}

// waitEval waits (at most 20 s) until cond, evaluated in the page of ctx,
// is true. It polls from the test: chromedp's own waits run in the page,
// which runs no script in TestBrowserCourseNoScript.
func waitEval(t *testing.T, ctx context.Context, name, cond string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s never held (%v)", name, cond, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
