//go:build browser

package handlerstest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/models"
)

// chromiumPath is Debian's chromium (apt-get install chromium).
const chromiumPath = "/usr/bin/chromium"

// chromium is the headless browser of one browser test: a browser of its
// own, or tabs of the package's shared one (RunSharing).
type chromium struct {
	t *testing.T
	// Ctx is the browser's first tab, bounded by the test's timeout; the
	// tabs of newTab derive from it.
	Ctx context.Context
	// Wait bounds waitFor: 15 seconds unless the test sets it.
	Wait time.Duration
}

// NewBrowserSite starts a test site on a fresh SQLite database and a
// headless chromium (StartChromium; opts add to the usual flags) whose
// tabs stop after timeout. Both close at the end of the test, the
// browser's tabs (or the browser) first.
func NewBrowserSite(t *testing.T, timeout time.Duration, opts ...chromedp.ExecAllocatorOption) (*Site, *chromium) {
	t.Helper()
	return NewBrowserSiteOn(t, ModelsOpenSQLite(t), timeout, opts...)
}

// NewBrowserSiteOn is newBrowserSite on the database db.
func NewBrowserSiteOn(t *testing.T, db *models.DB, timeout time.Duration, opts ...chromedp.ExecAllocatorOption) (*Site, *chromium) {
	t.Helper()
	return NewSite(t, db), StartChromium(t, timeout, opts...)
}

// StartChromium returns a headless chromium whose tabs stop after timeout
// and close at the end of the test. Without opts, in a package whose
// TestMain runs RunSharing, it is the package's one shared chromium and
// the test's tabs are in browser contexts of their own (cookies, storage
// and cache apart from the other tests'); with opts (flags added to the
// usual ones), or without RunSharing, it is a chromium of its own, stopped
// at the end of the test.
func StartChromium(t *testing.T, timeout time.Duration, opts ...chromedp.ExecAllocatorOption) *chromium {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("no %s: apt-get install -y chromium", chromiumPath)
	}
	if len(opts) == 0 && shared.on {
		root, err := shared.browser()
		if err != nil {
			t.Fatalf("the shared chromium: %v", err)
		}
		tab, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		// Open the tab outside the timeout, as the first tab of a browser
		// of its own is opened.
		if err := chromedp.Do(tab); err != nil {
			t.Fatalf("a tab of the shared chromium: %v", err)
		}
		ctx, cancel := context.WithTimeout(tab, timeout)
		t.Cleanup(cancel)
		return &chromium{t: t, Ctx: ctx, Wait: 15 * time.Second}
	}
	actx, cancel := chromedp.NewExecAllocator(t.Context(), allocatorOptions(opts)...)
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

// allocatorOptions are chromedp's defaults, Debian's chromium, headless
// with --no-sandbox --disable-gpu --disable-background-networking, then
// opts.
func allocatorOptions(opts []chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	return append(append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
	), opts...)
}

// sharedChromium is the chromium of a package's tests under RunSharing,
// started by the first test that asks for it.
type sharedChromium struct {
	on     bool // RunSharing runs the tests
	once   sync.Once
	root   context.Context // the browser's first tab
	err    error           // of the start
	cancel []context.CancelFunc
}

var shared sharedChromium

// browser starts the shared chromium on the first call and returns its
// first tab, from which the tests' tabs derive, or the error of its start.
func (sh *sharedChromium) browser() (context.Context, error) {
	sh.once.Do(func() {
		actx, cancel := chromedp.NewExecAllocator(context.Background(), allocatorOptions(nil)...)
		sh.cancel = append(sh.cancel, cancel)
		root, cancel := chromedp.NewContext(actx)
		sh.cancel = append(sh.cancel, cancel)
		sh.root, sh.err = root, chromedp.Do(root)
	})
	return sh.root, sh.err
}

// RunSharing runs the tests of m (call it from TestMain: os.Exit(
// handlerstest.RunSharing(m))) with one chromium shared by the tests that
// call StartChromium without options, instead of one started and stopped
// per test; it stops the browser after the last test and returns m.Run's
// code.
func RunSharing(m *testing.M) int {
	shared.on = true
	code := m.Run()
	for i := len(shared.cancel) - 1; i >= 0; i-- {
		shared.cancel[i]()
	}
	return code
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
