//go:build browser

package web_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// TestBrowserMoveUnsure: with htmx, a move answered 503 because the
// database is out of reach shows the page that says it may have been
// stored and offers to reload the game, instead of nothing at all (issue
// 19, item 10).
func TestBrowserMoveUnsure(t *testing.T) {
	dsn := modelstest.DSN(t, modelstest.Open(t, models.Postgres))
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p := newCutProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	q := u.Query()
	q.Set("connect_timeout", "5")
	u.RawQuery = q.Encode()
	db, err := models.Open(context.Background(), u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, b := handlerstest.NewBrowserSiteOn(t, db, 60*time.Second)
	me := b.NewTab()
	b.Do(me, "start a game against the computer", chromedp.Navigate(s.Srv.URL+"/en/computer"),
		chromedp.Click(chromedp.ID("level-1")), chromedp.Click(chromedp.ID("seat-south")),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game button[name="pit"]`)), handlerstest.MarkPage)
	game, err := chromedp.Run(me, chromedp.Evaluate[string](`location.pathname`))
	if err != nil {
		t.Fatal(err)
	}
	p.cut()
	b.Do(me, "move with the database gone", chromedp.Click(chromedp.CSS(`#game button[name="pit"]`)))
	b.WaitFor(me, "the page of a move that may have been stored",
		`document.getElementById('main').textContent.includes('Your move may have been stored all the same')`+
			` && document.querySelector('main a[href="`+game+`"]') !== null`)
}
