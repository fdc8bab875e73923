package live_test

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
)

// TestReviewEvents: the replay of a game whose review is under way
// connects to the review's event stream (and keeps the poll as the
// fallback); the stream sends the progress stored in the reviews table at
// once and again when it changes, then "done" and ends; a subject without
// a review has no stream (404). The review's progress is written to the
// table by hand, as whichever process computes it writes it.
func TestReviewEvents(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	id, south, _ := s.NewAPIGame("abapa")
	s.Api("POST", "/api/v1/games/"+id+"/resign", south, nil)
	events := "/en/games/" + id + "/analysis/events"
	if code, _, _ := s.Get(s.Browser(), events); code != http.StatusNotFound {
		t.Errorf("a stream before the review is asked for: %d, want 404", code)
	}
	ctx := t.Context()
	key := "g/" + id
	if claimed, _, err := s.Db.ClaimReview(ctx, key, 3, time.Now().Add(-time.Hour)); err != nil || !claimed {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	_, _, page := s.Get(s.Browser(), "/en/games/"+id+"/replay?ply=0")
	for _, want := range []string{`sse-connect="` + events + `"`, `sse-swap="review"`, `hx-trigger="sse:done"`,
		`id="review-poll"`, "sse.min", "0 of 3 moves done"} {
		if !strings.Contains(page, want) {
			t.Errorf("replay of a review under way without %q", want)
		}
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", s.Srv.URL+events, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	got := make(chan string, 16)
	go func() {
		defer close(got)
		sc := bufio.NewScanner(res.Body)
		name := ""
		for sc.Scan() {
			switch line := sc.Text(); {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				got <- name + ": " + strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	next := func(want string) {
		t.Helper()
		select {
		case e, ok := <-got:
			if !ok || e != want {
				t.Fatalf("event %q (open %v), want %q", e, ok, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no event within 30 s, want %q", want)
		}
	}
	next("review: The computer is analysing the game: 0 of 3 moves done.")
	if err := s.Db.SaveReview(ctx, key, "running", "[]", 2); err != nil {
		t.Fatal(err)
	}
	next("review: The computer is analysing the game: 2 of 3 moves done.")
	if err := s.Db.SaveReview(ctx, key, "done", "[]", 3); err != nil {
		t.Fatal(err)
	}
	next("done: done")
	select {
	case e, ok := <-got:
		if ok {
			t.Errorf("after done: %q, want the end of the stream", e)
		}
	case <-time.After(30 * time.Second):
		t.Error("the stream goes on after done")
	}
}
