//go:build browser

package web_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"oware/handlers/handlerstest"
)

// TestBrowserTutorial walks tutorial 1 from the first step to the last in
// a real browser: it answers every task on the board (a wrong pit first,
// for its hint), sees the sowing drawn seed by seed, and goes on with the
// Next button and the → key, all by htmx swaps without a page load. The
// last step leads to a new game. Then it walks tutorial 2 in Czech.
// OWARE_SCREENSHOTS=dir keeps a picture of every answered step of
// tutorial 1.
func TestBrowserTutorial(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second, chromedp.WindowSize(1100, 1000))
	b.Wait = 10 * time.Second
	ctx := b.Ctx

	text := func(sel string) string {
		return `(document.querySelector('` + sel + `') || {textContent: ''}).textContent`
	}
	shots := os.Getenv("OWARE_SCREENSHOTS")
	// bound: htmx has bound the swapped-in links (a click before that
	// would load the page).
	const bound = `document.querySelector('#tutorial .step-nav a[hx-get]')['htmx-internal-data'] !== undefined`

	tu := tutorialSources(t)["oware-step-by-step"]["en"]
	n := len(tu.Steps)
	b.Do(ctx, "open the tutorials", chromedp.Navigate(s.Srv.URL+"/en/tutorials"),
		chromedp.Click(chromedp.CSS(`.tutorial-card a[href="/en/tutorials/oware-step-by-step/1"]`)),
		chromedp.WaitVisible(chromedp.ID("step-title")),
		handlerstest.MarkPage)
	for i, st := range tu.Steps {
		name := "step " + strconv.Itoa(i+1) + " (" + st.Title + ")"
		b.WaitFor(ctx, name, text(".tut-progress")+`.includes('Step `+strconv.Itoa(i+1)+` of `+strconv.Itoa(n)+`')`+
			` && `+text("#step-title")+` === `+strconv.Quote(st.Title)+
			` && `+bound)
		accept := strings.Fields(st.Accept)
		switch st.Task {
		case "play", "capture", "feed":
			// A pit of North's row first: the hint says why not.
			b.Do(ctx, name+": wrong pit", chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="f"]`)))
			b.WaitFor(ctx, name+": hint", text("#feedback.wrong")+`.includes("on your opponent's row")`+
				` && document.querySelector('#tutorial form.board-form')['htmx-internal-data'] !== undefined`)
			b.Do(ctx, name+": answer "+accept[0], chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="`+accept[0]+`"]`)))
			b.WaitFor(ctx, name+": right", `document.querySelector('#feedback.ok') !== null`+
				` && document.querySelectorAll('#tutorial .board .drop').length > 0`+
				` && getComputedStyle(document.querySelector('#tutorial .drop')).animationName === 'sow-drop'`+
				` && document.querySelector('#tutorial button[name="pit"]') === null && `+bound)
		case "legal":
			for _, l := range accept {
				b.Do(ctx, name+": tick "+l, chromedp.Click(chromedp.CSS(`.legal-form input[value="`+l+`"]`)))
			}
			b.Do(ctx, name+": check", chromedp.Click(chromedp.CSS(`.legal-form button[type=submit]`)))
			b.WaitFor(ctx, name+": right", `document.querySelector('#feedback.ok') !== null && `+bound)
		}
		if shots != "" && st.Task != "" {
			if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
				_ = os.WriteFile(shots+"/tutorial-"+strconv.Itoa(i+1)+".png", png, 0o644)
			}
		}
		if i == n-1 {
			break
		}
		if i%2 == 0 {
			b.Do(ctx, name+": next", chromedp.Click(chromedp.CSS(`#tutorial a[rel="next"]`)))
		} else {
			b.Do(ctx, name+": → key", chromedp.KeyEvent(kb.ArrowRight))
		}
	}
	// The → key went to the next step's URL too (history), and ← goes back.
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	if !strings.HasSuffix(loc, "/en/tutorials/oware-step-by-step/"+strconv.Itoa(n)) {
		t.Errorf("at the last step the URL is %s", loc)
	}
	if tip, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.querySelector('.keys-tip').hidden`)); err != nil || !tip {
		t.Errorf("the keyboard tip is hidden (%v)", err)
	}
	last := tu.Steps[n-1].Title
	b.WaitFor(ctx, "title and language links follow the step", `document.title.startsWith(`+strconv.Quote(last)+`)`+
		` && document.querySelector('.langs a[hreflang="cs"]').getAttribute('href') === '/cs/tutorials/oware-step-by-step/`+strconv.Itoa(n)+`'`)
	b.Do(ctx, "← key", chromedp.KeyEvent(kb.ArrowLeft))
	b.WaitFor(ctx, "back one step", text(".tut-progress")+`.includes('Step `+strconv.Itoa(n-1)+` of') && `+bound)
	b.Do(ctx, "→ key", chromedp.KeyEvent(kb.ArrowRight))
	b.WaitFor(ctx, "the last step again", text(".tut-progress")+`.includes('Step `+strconv.Itoa(n)+` of') && `+bound)
	// The last step leads to a new game; the index says the tutorial is done.
	b.Do(ctx, "play a game", chromedp.Click(chromedp.CSS(`#tutorial a[href="/en/games/new"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.settings-form`)))
	b.Do(ctx, "index", chromedp.Navigate(s.Srv.URL+"/en/tutorials"), chromedp.WaitVisible(chromedp.CSS(`.tutorials`)))
	if txt, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.tutorials`))); err != nil || !strings.Contains(txt, "Done") {
		t.Errorf("index after the walk: %q %v", txt, err)
	}

	// Tutorial 2 in Czech, answering each task right away.
	tu = tutorialSources(t)["grand-slam"]["cs"]
	n = len(tu.Steps)
	b.Do(ctx, "tutorial 2", chromedp.Navigate(s.Srv.URL+"/cs/tutorials/grand-slam/1"),
		chromedp.WaitVisible(chromedp.ID("step-title")),
		handlerstest.MarkPage)
	for i, st := range tu.Steps {
		name := "cs step " + strconv.Itoa(i+1) + " (" + st.Title + ")"
		b.WaitFor(ctx, name, text(".tut-progress")+`.includes('Krok `+strconv.Itoa(i+1)+` z `+strconv.Itoa(n)+`') && `+bound)
		accept := strings.Fields(st.Accept)
		switch st.Task {
		case "play", "capture", "feed":
			b.Do(ctx, name+": answer", chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="`+accept[len(accept)-1]+`"]`)))
		case "legal":
			for _, l := range accept {
				b.Do(ctx, name+": tick "+l, chromedp.Click(chromedp.CSS(`.legal-form input[value="`+l+`"]`)))
			}
			b.Do(ctx, name+": check", chromedp.Click(chromedp.CSS(`.legal-form button[type=submit]`)))
		}
		if st.Task != "" {
			b.WaitFor(ctx, name+": right", text("#feedback.ok")+`.includes('Správně!') && `+bound)
		}
		if i < n-1 {
			b.Do(ctx, name+": next", chromedp.Click(chromedp.CSS(`#tutorial a[rel="next"]`)))
		}
	}
	b.Do(ctx, "cs: play a game", chromedp.Click(chromedp.CSS(`#tutorial a[href="/cs/games/new"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.settings-form`)))
}
