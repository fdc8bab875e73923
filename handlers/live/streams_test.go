package live_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
)

// TestStreamLimit: a client may open 6 event streams on one game; the 7th
// gets a localized 429 with Retry-After, while the 6 still get the next
// move, the client's stream on another game opens, and a stream closed
// makes room for a new one.
func TestStreamLimit(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, nil)
	id, south, _ := s.NewAPIGame("abapa")
	other, _, _ := s.NewAPIGame("abapa")
	open := func(game string) (*http.Response, context.CancelFunc) {
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, "GET", s.Srv.URL+"/en/games/"+game+"/events", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cancel(); res.Body.Close() })
		return res, cancel
	}
	events := make(chan string, 16)
	var cancels []context.CancelFunc
	for i := range 6 {
		res, cancel := open(id)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %d", i+1, res.StatusCode)
		}
		cancels = append(cancels, cancel)
		go func() {
			sc := bufio.NewScanner(res.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "id: ") {
					events <- sc.Text()
				}
			}
		}()
	}
	res, _ := open(id)
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(body), "Too many live games") {
		t.Errorf("7th stream: %d, Retry-After %q: %.300s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if res, _ := open(other); res.StatusCode != http.StatusOK {
		t.Errorf("a stream on another game: %d, want 200", res.StatusCode)
	}
	// Each of the 6 gets the move (its first event: the page asked for
	// version 0, so the current panel may come first).
	if code, g := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != http.StatusOK {
		t.Fatalf("move: %d %v", code, g)
	}
	got := map[string]int{}
	deadline := time.After(10 * time.Second)
	for got["id: 3"] < 6 {
		select {
		case e := <-events:
			got[e]++
		case <-deadline:
			t.Fatalf("the streams got %v, want version 3 six times", got)
		}
	}
	// A closed stream makes room (once the server has seen it close).
	cancels[0]()
	for try := 0; ; try++ {
		res, _ := open(id)
		if res.StatusCode == http.StatusOK {
			break
		}
		if try == 50 {
			t.Fatalf("no room after a stream closed: %d", res.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestStreamOutlivesTimeouts: an event stream lives past the server's read
// and write timeouts and still gets the next move.
func TestStreamOutlivesTimeouts(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, func(srv *http.Server) {
		srv.ReadTimeout, srv.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	}, nil)
	id, south, _ := s.NewAPIGame("abapa")
	req, _ := http.NewRequestWithContext(t.Context(), "GET", s.Srv.URL+"/en/games/"+id+"/events?v=2", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "id: ") {
				got <- sc.Text()
			}
		}
		close(got)
	}()
	time.Sleep(time.Second) // past both timeouts
	if code, g := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != http.StatusOK {
		t.Fatalf("move: %d %v", code, g)
	}
	select {
	case e, ok := <-got:
		if !ok || e != "id: 3" {
			t.Errorf("the stream got %q (open: %v), want the move's version 3", e, ok)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
}

// TestStreamMakesNoSession: a game's event stream opened without a
// cookie answers without one (no visitor id is made for a request that
// has no forms), while the game page opened the same way sets it.
func TestStreamMakesNoSession(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, nil)
	id, _, _ := s.NewAPIGame("abapa")
	req, _ := http.NewRequestWithContext(t.Context(), "GET", s.Srv.URL+"/en/games/"+id+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Set-Cookie") != "" {
		t.Errorf("the stream: %d, Set-Cookie %q; want 200 and none", res.StatusCode, res.Header.Get("Set-Cookie"))
	}
	page, err := http.Get(s.Srv.URL + "/en/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	page.Body.Close()
	if !strings.HasPrefix(page.Header.Get("Set-Cookie"), "oware=") {
		t.Errorf("the page: Set-Cookie %q, want the session", page.Header.Get("Set-Cookie"))
	}
}
