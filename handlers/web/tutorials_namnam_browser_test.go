//go:build browser

package web_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserTutorialNamNam walks tutorial 3 (Nam-nam) in a real browser:
// every board shows the pit owners; each move task is answered first with
// a pit of North's (the hint says it is not yours), then right, and the
// relay is drawn seed by seed; the legal tasks are ticked. The last step
// leads to the new-game form with Nam-nam chosen. OWARE_SCREENSHOTS=dir
// keeps a picture of every step.
func TestBrowserTutorialNamNam(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second, chromedp.WindowSize(1100, 1000))
	b.Wait = 10 * time.Second
	ctx := b.Ctx
	text := func(sel string) string {
		return `(document.querySelector('` + sel + `') || {textContent: ''}).textContent`
	}
	const bound = `document.querySelector('#tutorial .step-nav a[hx-get]')['htmx-internal-data'] !== undefined`

	shots := os.Getenv("OWARE_SCREENSHOTS")
	tu := tutorialSources(t)["namnam"]["en"]
	n := len(tu.Steps)
	b.Do(ctx, "open the tutorials", chromedp.Navigate(s.Srv.URL+"/en/tutorials"),
		chromedp.Click(chromedp.CSS(`.tutorial-card a[href="/en/tutorials/namnam/1"]`)),
		chromedp.WaitVisible(chromedp.ID("step-title")),
		handlerstest.MarkPage)
	for i, st := range tu.Steps {
		name := "step " + strconv.Itoa(i+1) + " (" + st.Title + ")"
		b.WaitFor(ctx, name, text(".tut-progress")+`.includes('Step `+strconv.Itoa(i+1)+` of `+strconv.Itoa(n)+`')`+
			` && `+text("#step-title")+` === `+strconv.Quote(st.Title)+
			` && document.querySelectorAll('#tutorial .board .pit .owner').length === 12`+
			` && document.querySelector('#tutorial .owner-legend') !== null && `+bound)
		accept := strings.Fields(st.Accept)
		switch st.Task {
		case "play", "capture":
			b.Do(ctx, name+": wrong pit", chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="a"]`)))
			b.WaitFor(ctx, name+": hint", text("#feedback.wrong")+`.includes("belongs to your opponent")`+
				` && document.querySelector('#tutorial form.board-form')['htmx-internal-data'] !== undefined`)
			b.Do(ctx, name+": answer "+accept[0], chromedp.Click(chromedp.CSS(`#tutorial button[name="pit"][value="`+accept[0]+`"]`)))
			b.WaitFor(ctx, name+": right", `document.querySelector('#feedback.ok') !== null`+
				` && document.querySelectorAll('#tutorial .board .drop').length > 0`+
				` && document.querySelector('#tutorial button[name="pit"]') === null && `+bound)
		case "legal":
			for _, l := range accept {
				b.Do(ctx, name+": tick "+l, chromedp.Click(chromedp.CSS(`.legal-form input[value="`+l+`"]`)))
			}
			b.Do(ctx, name+": check", chromedp.Click(chromedp.CSS(`.legal-form button[type=submit]`)))
			b.WaitFor(ctx, name+": right", `document.querySelector('#feedback.ok') !== null && `+bound)
		}
		if st.Task == "play" && st.Accept == "A" {
			// The relay of step 4: 7 seeds drawn, through C and F into b.
			b.WaitFor(ctx, name+": relay drawn", `document.querySelectorAll('#tutorial .board .drop').length === 7`)
		}
		if shots != "" {
			if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
				_ = os.WriteFile(shots+"/namnam-"+strconv.Itoa(i+1)+".png", png, 0o644)
			}
		}
		if i < n-1 {
			b.Do(ctx, name+": next", chromedp.Click(chromedp.CSS(`#tutorial a[rel="next"]`)))
		}
	}
	// The last step says the match is won.
	if txt, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#feedback.ok`))); err != nil || !strings.Contains(txt, "South wins the match") {
		t.Errorf("last step's verdict: %q %v", txt, err)
	}
	b.Do(ctx, "play a Nam-nam game", chromedp.Click(chromedp.CSS(`#tutorial a[href="/en/games/new?rules=namnam"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.settings-form`)))
	if checked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#rules-namnam').checked`)); err != nil || !checked {
		t.Errorf("the new-game form does not have Nam-nam chosen (%v)", err)
	}
}
