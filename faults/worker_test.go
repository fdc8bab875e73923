//go:build faults

package faults

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"oware/engine"
)

// TestWorkerProcess: a site instance that works no computer's jobs
// (-computer-jobs=false) serves a game against the computer; the reply
// asked for waits, durable, until a separate `oware worker` process on the
// same PostgreSQL starts, which searches and stores it, and the next one
// too; stopped with SIGTERM, the worker exits cleanly.
func TestWorkerProcess(t *testing.T) {
	pg := startPostgres(t)
	web := &instance{t: t, name: "web", addr: fmt.Sprintf("127.0.0.1:%d", freePort(t)), dsn: pg.URL(),
		log: filepath.Join(t.TempDir(), "web.log"), args: []string{"-computer-jobs=false"}}
	web.base = "http://" + web.addr
	web.start()

	var created struct{ ID, Token string }
	apiCall(t, http.DefaultClient, web.base, "POST", "/api/v1/games", map[string]any{"rules": "abapa", "seat": "south",
		"opponent": map[string]any{"computer": 2, "instant": true}}, http.StatusCreated, &created)
	path := "/api/v1/games/" + created.ID
	moves := func() int {
		var g struct{ Moves []string }
		apiCall(t, http.DefaultClient, web.base, "GET", path, nil, http.StatusOK, &g)
		return len(g.Moves)
	}
	var moved struct{ Moves []string }
	apiCall(t, bearer(created.Token), web.base, "POST", path+"/moves", map[string]string{"pit": "C"}, http.StatusOK, &moved)
	time.Sleep(3 * time.Second) // the web instance alone never replies
	if n := moves(); n != 1 {
		web.fail("%d moves without a worker, want the person's 1", n)
	}

	logFile := filepath.Join(t.TempDir(), "worker.log")
	f, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := exec.Command(binary, "worker", "-database", pg.URL(), "-table-seeds", "0", "-build-tables=false", "-computer", "1")
	w.Stdout, w.Stderr = f, f
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- w.Wait() }()
	t.Cleanup(func() {
		w.Process.Kill()
		<-done
	})
	workerFail := func(format string, args ...any) {
		b, _ := os.ReadFile(logFile)
		t.Fatalf(format+"\nworker log:\n%s", append(args, b)...)
	}
	if _, ok := waitFor(60*time.Second, func() bool { return moves() == 2 }); !ok {
		workerFail("the worker did not store the reply left waiting")
	}
	var g struct{ Position string }
	apiCall(t, http.DefaultClient, web.base, "GET", path, nil, http.StatusOK, &g)
	r := mustRules("abapa")
	pos, err := r.ParsePosition(g.Position)
	if err != nil {
		t.Fatal(err)
	}
	legal := r.LegalMoves(pos).Pits()
	apiCall(t, bearer(created.Token), web.base, "POST", path+"/moves", map[string]string{"pit": engine.Label(legal[0])}, http.StatusOK, &moved)
	if _, ok := waitFor(60*time.Second, func() bool { return moves() == 4 }); !ok {
		workerFail("the worker did not reply to the next move")
	}
	w.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		done <- err
		if err != nil {
			workerFail("the worker stopped with %v", err)
		}
	case <-time.After(30 * time.Second):
		workerFail("the worker did not stop within 30 s of SIGTERM")
	}
}

// bearer is a client of one seat: its requests carry the seat's token.
func bearer(token string) *http.Client {
	return &http.Client{Transport: tokenTransport(token)}
}

// tokenTransport adds "Authorization: Bearer <token>" to each request.
type tokenTransport string

// RoundTrip sends a copy of r with the token.
func (t tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(t))
	return http.DefaultTransport.RoundTrip(r)
}
