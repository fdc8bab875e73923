//go:build faults

package faults

import (
	"net/http"
	"testing"
	"time"
)

// TestPostgresRestart: bots play on one instance while its PostgreSQL is
// restarted, once in fast and once in immediate mode. Meanwhile answers
// are 2xx, 4xx or 503 with Retry-After, never another 5xx; the server
// comes back by itself (same process) and every move acknowledged with
// 2xx is stored once.
func TestPostgresRestart(t *testing.T) {
	pg := startPostgres(t)
	in := startInstance(t, "oware", pg.URL())
	l := newLedger()
	_, stop := startBots(l, 6, in.base)
	defer stop()
	time.Sleep(2 * time.Second)
	began := time.Now()
	for _, mode := range []string{"fast", "immediate"} {
		before, at := l.moves(), time.Now()
		pg.ctl("restart", "-m", mode)
		restarted, returned := time.Since(at), time.Now()
		ready, ok := waitFor(30*time.Second, in.ready)
		if !ok {
			in.fail("not ready 30 s after the %s restart", mode)
		}
		back := time.Now()
		if _, ok := waitFor(30*time.Second, func() bool { return l.acksAfter(back) >= 20 }); !ok {
			in.fail("no moves after the %s restart", mode)
		}
		if !in.alive() {
			in.fail("the server stopped")
		}
		t.Logf("%s restart: pg_ctl took %v; then /readyz 200 after %v, the first move after %v; longest time without a move %v; %d moves acknowledged before it, %d 503 answers so far",
			mode, restarted.Round(time.Millisecond), ready.Round(time.Millisecond),
			l.firstAckAfter(returned).Round(time.Millisecond),
			l.longestGap(at, time.Now()).Round(time.Millisecond), before, l.count(http.StatusServiceUnavailable))
		time.Sleep(time.Second)
	}
	stop()
	t.Logf("%d moves acknowledged in %v, answers by status %v (0: none)", l.moves(), time.Since(began).Round(time.Second), l.statuses)
	if l.count(http.StatusServiceUnavailable) == 0 {
		t.Error("no 503 seen while PostgreSQL restarted")
	}
	if n := l.count(0); n != 0 {
		t.Errorf("%d requests got no answer: the server must answer while the database restarts", n)
	}
	verify(t, pg, l, in.base)
}

// TestKillInstance: bots play on two instances of one database; one is
// killed with SIGKILL under load and its bots go on on the other. No
// answer is a 5xx other than 503 and no acknowledged move is lost or
// stored twice.
func TestKillInstance(t *testing.T) {
	pg := startPostgres(t)
	a := startInstance(t, "a", pg.URL())
	b := startInstance(t, "b", pg.URL())
	l := newLedger()
	bots, stop := startBots(l, 8, a.base, b.base)
	defer stop()
	time.Sleep(3 * time.Second)
	before, at := l.moves(), time.Now()
	a.kill()
	// Every bot, those of the dead instance too, goes on on the live one.
	if _, ok := waitFor(30*time.Second, func() bool {
		for _, bot := range bots {
			if !bot.ackedSince(at) {
				return false
			}
		}
		return true
	}); !ok {
		b.fail("not every bot went on playing on the live instance")
	}
	time.Sleep(2 * time.Second)
	stop()
	t.Logf("kill -9 after %d moves; %d moves acknowledged in all, longest time without a move %v, answers by status %v (0: none)",
		before, l.moves(), l.longestGap(at, time.Now()).Round(time.Millisecond), l.statuses)
	if !b.alive() {
		b.fail("the live instance stopped")
	}
	verify(t, pg, l, b.base)
}
