package live_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// TestTwoInstancesLive: two instances on one PostgreSQL. A move stored
// through instance A reaches a watcher of instance B (the event goes
// after the commit, through A's publisher and B's listener). Then A's
// publisher is killed: the next move is stored all the same (the API
// says so, and the database holds it), only its event is lost, and B's
// watcher still gets its version (B's listener repairs it).
func TestTwoInstancesLive(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	a, b := handlerstest.NewSite(t, db), handlerstest.NewSite(t, modelstest.Reopen(t, db))
	id, south, north := a.NewAPIGame("abapa") // version 2: created, joined
	got := watch(t, b, "/en/games/"+id+"/events?v=2")
	// B keeps the game's page for spectators; from the second view on it
	// knows the game's version from its events, without a query.
	for range 2 {
		if _, _, page := b.Get(nil, "/en/games/"+id); strings.Contains(page, "Last move") {
			t.Fatalf("B's page shows a move before any:\n%s", page)
		}
	}

	if code, g := a.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != http.StatusOK {
		t.Fatalf("move on A: %d %v", code, g)
	}
	waitEvent(t, got, "id: 3", 10*time.Second)
	keptPageShows(t, b, id, "Last move: C")

	err := db.Gorm.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = 'oware publisher'`).Error
	if err != nil {
		t.Fatal(err)
	}
	if code, g := a.Api("POST", "/api/v1/games/"+id+"/moves", north, map[string]string{"pit": "c"}); code != http.StatusOK {
		t.Fatalf("move on A after its publisher was killed: %d %v", code, g)
	}
	if moves, version := handlerstest.Stored(t, db, id); moves != 2 || version != 4 {
		t.Fatalf("stored: %d moves at version %d, want 2 at 4", moves, version)
	}
	waitEvent(t, got, "id: 4", 15*time.Second)
	keptPageShows(t, b, id, "Last move: c")
}

// keptPageShows checks that the page of game id that s keeps for
// spectators shows want within 5 s (the event that says the game changed
// reaches the page cache and the stream alike, in either order).
func keptPageShows(t *testing.T, s *handlerstest.Site, id, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, _, page := s.Get(nil, "/en/games/"+id)
		if strings.Contains(page, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the kept page does not show %q", want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// watch opens the event stream at path of s and returns the "id: N"
// lines it sends.
func watch(t *testing.T, s *handlerstest.Site, path string) <-chan string {
	t.Helper()
	all, got := events(t, s, path), make(chan string, 16)
	go func() {
		defer close(got)
		for e := range all {
			got <- e[:strings.IndexByte(e, '\n')]
		}
	}()
	return got
}

// waitEvent waits until got sends want, failing after within.
func waitEvent(t *testing.T, got <-chan string, want string, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case e, ok := <-got:
			if !ok {
				t.Fatalf("the stream ended before %q", want)
			}
			if e == want {
				return
			}
		case <-deadline:
			t.Fatalf("no %q within %s", want, within)
		}
	}
}
