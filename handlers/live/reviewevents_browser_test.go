//go:build browser

package live_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserReviewLive: the replay of a game whose review is under way
// shows its progress as the reviews table changes, through the event
// stream (the poll asks nothing while the stream is open), and the review
// itself once done, all without a reload.
func TestBrowserReviewLive(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 90*time.Second)
	id, south, _ := s.NewAPIGame("abapa")
	s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"})
	s.Api("POST", "/api/v1/games/"+id+"/resign", south, nil)
	ctx, key := t.Context(), "g/"+id
	if claimed, _, err := s.Db.ClaimReview(ctx, key, 1, time.Now().Add(-time.Hour)); err != nil || !claimed {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	tab := b.NewTab()
	b.Do(tab, "replay", chromedp.Navigate(s.Srv.URL+"/en/games/"+id+"/replay?ply=1"), handlerstest.MarkPage,
		chromedp.Evaluate[chromedp.Void](`window.polls = 0; document.addEventListener("htmx:beforeSend", function (e) {
			if (e.target.id === "review-poll") window.polls++; })`))
	b.WaitFor(tab, "the stream open", `document.querySelector('#review-live').dataset.open === "1"`)
	if err := s.Db.SaveReview(ctx, key, "running", "[]", 1); err != nil {
		t.Fatal(err)
	}
	b.WaitFor(tab, "the progress", `document.querySelector('#review').textContent.includes('1 of 1 moves done')`)
	plies := `[{"ply":1,"move":"C","mover":"south","value":0,"best":"C","best_value":0,"pv":["C"],"exact":false,"loss":0,"mark":"best","refutation":[],"position":"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"}]`
	if err := s.Db.SaveReview(ctx, key, "done", plies, 1); err != nil {
		t.Fatal(err)
	}
	b.WaitFor(tab, "the review", `document.querySelector('#review caption') !== null && document.querySelector('#review-live') === null`)
	polls, err := chromedp.Run(tab, chromedp.Evaluate[int](`window.polls`))
	if err != nil || polls != 0 {
		t.Errorf("the poll asked %d times while the stream was open (%v)", polls, err)
	}
}
