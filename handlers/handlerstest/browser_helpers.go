//go:build browser

package handlerstest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/models"
)

// chromiumPath is Debian's chromium (apt-get install chromium).
const chromiumPath = "/usr/bin/chromium"

// chromium is the headless browser of one browser test.
type chromium struct {
	t *testing.T
	// Ctx is the browser's first tab, bounded by the test's timeout; the
	// tabs of newTab derive from it.
	Ctx context.Context
	// Wait bounds waitFor: 15 seconds unless the test sets it.
	Wait time.Duration
}

// NewBrowserSite starts a test site on a fresh SQLite database and a
// headless chromium (opts add to the usual flags) whose tabs stop after
// timeout. Both close at the end of the test, the browser first.
func NewBrowserSite(t *testing.T, timeout time.Duration, opts ...chromedp.ExecAllocatorOption) (*Site, *chromium) {
	t.Helper()
	return NewBrowserSiteOn(t, ModelsOpenSQLite(t), timeout, opts...)
}

// NewBrowserSiteOn is newBrowserSite on the database db.
func NewBrowserSiteOn(t *testing.T, db *models.DB, timeout time.Duration, opts ...chromedp.ExecAllocatorOption) (*Site, *chromium) {
	t.Helper()
	return NewSite(t, db), StartChromium(t, timeout, opts...)
}

// StartChromium starts a headless chromium (opts add to the usual flags)
// whose tabs stop after timeout; it closes at the end of the test.
func StartChromium(t *testing.T, timeout time.Duration, opts ...chromedp.ExecAllocatorOption) *chromium {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("no %s: apt-get install -y chromium", chromiumPath)
	}
	opts = append(append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
	), opts...)
	actx, cancel := chromedp.NewExecAllocator(t.Context(), opts...)
	t.Cleanup(cancel)
	root, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	// The first action starts the browser; under the timeout, the timeout
	// would stop the whole browser.
	if err := chromedp.Do(root); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(root, timeout)
	t.Cleanup(cancel)
	return &chromium{t: t, Ctx: ctx, Wait: 15 * time.Second}
}

// NewTab opens a tab in a new browser context: a visitor with cookies of
// their own.
func (b *chromium) NewTab() context.Context {
	ctx, cancel := chromedp.NewContext(b.Ctx, chromedp.WithNewBrowserContext())
	b.t.Cleanup(cancel)
	return ctx
}

// Do runs the steps in the tab who; on an error the test fails with name
// and the page's main element.
func (b *chromium) Do(who context.Context, name string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(who, steps...); err != nil {
		html, _ := chromedp.Run(who, chromedp.OuterHTML(chromedp.CSS("main")))
		b.t.Fatalf("%s: %v\n%s", name, err, html)
	}
}

// MarkPage sets a marker in the page that a page load clears (see
// waitFor).
var MarkPage = chromedp.Evaluate[chromedp.Void](`window.owareMarker = 1`)

// WaitFor waits until the JavaScript condition holds in the tab who, with
// no page load since markPage: the marker must still be there.
func (b *chromium) WaitFor(who context.Context, name, cond string) {
	b.t.Helper()
	_, err := chromedp.Run(who, chromedp.Poll[chromedp.Void](cond+` && window.owareMarker === 1`,
		chromedp.WithPollingTimeout(b.Wait), chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		html, _ := chromedp.Run(who, chromedp.OuterHTML(chromedp.CSS("main")))
		b.t.Fatalf("%s: %v\n%s", name, err, html)
	}
}
