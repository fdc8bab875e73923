package game

import (
	"fmt"
	"log/slog"
	"testing"
	"time"

	"oware/engine/search"
	"oware/models"
	"oware/models/modelstest"
)

// TestReplyFloor: a level 7-8 reply thinks for its level's 1 s while no
// more replies wait than the process has workers, then for 1 s × workers
// ÷ replies waiting, never less than ReplyFloor (0.1 s); levels 1-6
// have only the pool's ReplyTime.
func TestReplyFloor(t *testing.T) {
	db := modelstest.Open(t, models.SQLite)
	s := New(db, slog.New(slog.DiscardHandler))
	p, err := s.StartComputer(t.Context(), PoolConfig{Workers: 1, HashMB: 1, NoJobs: true})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(n int) { // n more replies waiting, for games of no one
		for range n {
			if _, err := p.jobs.Insert(t.Context(), replyArgs{Game: fmt.Sprint(time.Now().UnixNano()), Version: 1}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		more, level int
		want        time.Duration
	}{
		{1, 8, time.Second},             // 1 waiting, 1 worker
		{3, 8, 250 * time.Millisecond},  // 4 waiting: 1 s ÷ 4
		{0, 7, 250 * time.Millisecond},  // level 7 alike
		{0, 6, 10 * time.Second},        // level 6: depth, not time
		{16, 8, 100 * time.Millisecond}, // 20 waiting: 50 ms, floored
		{80, 8, 100 * time.Millisecond}, // 100 waiting
	} {
		ask(c.more)
		if got := p.thinkTime(t.Context(), search.Level(c.level)); got != c.want {
			t.Errorf("after %d more waiting, level %d thinks %v, want %v", c.more, c.level, got, c.want)
		}
	}
}

// TestReplyDropped: a reply whose player left (asked for more than
// ReplyDeadline ago) or whose game changed since is dropped unsearched.
func TestReplyDropped(t *testing.T) {
	db := modelstest.Open(t, models.SQLite)
	s := New(db, slog.New(slog.DiscardHandler))
	p, err := s.StartComputer(t.Context(), PoolConfig{Workers: 1, HashMB: 1, NoJobs: true})
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := s.Create(t.Context(), Settings{Rules: "abapa", Seat: "north", Computer: 1, Instant: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what    string
		version int
		at      time.Time
	}{
		{"asked 61 s ago", g.Version, time.Now().Add(-ReplyDeadline - time.Second)},
		{"for an older version", g.Version - 1, time.Now()},
	} {
		if err := p.reply(t.Context(), replyArgs{Game: g.ID, Version: c.version}, c.at); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if moves, err := db.Moves(t.Context(), g.ID); err != nil || len(moves) != 0 {
			t.Fatalf("%s: %d moves stored (%v), want none", c.what, len(moves), err)
		}
	}
	// Due and fresh, it is searched and stored: South, the computer, opens.
	if err := p.reply(t.Context(), replyArgs{Game: g.ID, Version: g.Version}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if moves, err := db.Moves(t.Context(), g.ID); err != nil || len(moves) != 1 || moves[0].Pit > 5 {
		t.Fatalf("the due reply: %+v (%v), want one move of South", moves, err)
	}
}

// TestJobPollAtLeastASecond: the job queues poll for jobs once a second
// at most (issue 37: an idle site sends at most 2 statements a second);
// a reply is fetched on its insert's notification, not by the poll.
func TestJobPollAtLeastASecond(t *testing.T) {
	p := &Pool{cfg: PoolConfig{Workers: 2}, log: slog.New(slog.DiscardHandler)}
	cfg := p.jobConfig()
	if cfg.FetchPollInterval < time.Second {
		t.Errorf("the job queues poll every %v, want 1 s or more", cfg.FetchPollInterval)
	}
	for name, q := range cfg.Queues {
		if q.FetchPollInterval != 0 && q.FetchPollInterval < time.Second {
			t.Errorf("queue %s polls every %v, want 1 s or more", name, q.FetchPollInterval)
		}
	}
}
