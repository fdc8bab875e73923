package core_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"oware/engine"
	"oware/engine/search"
	"oware/game"
	"oware/handlers"
	"oware/handlers/handlerstest"
)

// TestBusyIsNoServerError: an analysis refused because the computer's
// queue is full is 503 with Retry-After, and is no error of the server in
// the log (a client asking in a loop must not flood it with ERROR lines).
func TestBusyIsNoServerError(t *testing.T) {
	db := handlerstest.ModelsOpenSQLite(t)
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	games := game.New(db, log)
	pool, err := games.StartComputer(t.Context(), game.PoolConfig{Workers: 1, HashMB: 1, MaxWaiting: 2})
	if err != nil {
		t.Fatal(err)
	}
	e, err := handlers.New(handlerstest.WithServices(t, db, handlers.Config{Games: games, Secret: []byte("0123456789abcdef0123456789abcdef"), Log: log}))
	if err != nil {
		t.Fatal(err)
	}
	block := make(chan struct{})
	defer close(block)
	go pool.Do(t.Context(), func(context.Context, *search.Searcher) { <-block })
	for end := time.Now().Add(20 * time.Second); pool.Stats().Running != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the worker busy: not within 20 s")
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r, _ := engine.RulesByName("abapa")
	go pool.Analyze(ctx, engine.NewGame(r, r.Start()), search.Limits{Depth: 1})
	for end := time.Now().Add(20 * time.Second); pool.Stats().Queued != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("an analysis queued: not within 20 s")
		}
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/analysis?rules=abapa&depth=1", nil))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("analysis with the queue full: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if strings.Contains(buf.String(), "level=ERROR") {
		t.Errorf("logged as an error: %s", buf.String())
	}
}
