package game_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"oware/game"
	"oware/models"
	"oware/models/modelstest"
)

// pulses records when each one-statement heartbeat (models.DB.Pulse) was
// sent to PostgreSQL.
type pulses struct {
	mu sync.Mutex
	at []time.Time
}

func (p *pulses) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.HasPrefix(d.SQL, "UPDATE heartbeat SET seen_at = GREATEST") {
		p.mu.Lock()
		p.at = append(p.at, time.Now())
		p.mu.Unlock()
	}
	return ctx
}

func (p *pulses) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// gaps waits for n more pulses than now and returns the n-1 gaps between
// them.
func (p *pulses) gaps(t *testing.T, n int) []time.Duration {
	t.Helper()
	p.mu.Lock()
	from := len(p.at)
	p.mu.Unlock()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		p.mu.Lock()
		at := p.at[from:]
		p.mu.Unlock()
		if len(at) >= n {
			var out []time.Duration
			for i := 1; i < n; i++ {
				out = append(out, at[i].Sub(at[i-1]))
			}
			return out
		}
	}
	t.Fatalf("fewer than %d heartbeats in a minute", n)
	return nil
}

// TestSweeperIdlePace: while no game in play has a deadline the sweeper
// beats every second interval (two intervals, under game.OutageAfter, so
// an idle site sends half the heartbeats); once a game with a clock is in
// play, every interval again. The first pulse finds no heartbeat (Beat
// writes it), and the next comes one interval later. A timer never fires early, so the idle gaps
// are never shorter than two intervals.
func TestSweeperIdlePace(t *testing.T) {
	p := &pulses{}
	db, err := models.OpenWith(t.Context(), modelstest.EmptyPostgres(t), nil, models.Options{Tracer: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := game.New(db, quiet)
	const every = 300 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go s.RunSweeper(ctx, every)
	p.gaps(t, 2) // the first finds no heartbeat: Beat writes it
	for _, g := range p.gaps(t, 4) {
		if g < 2*every {
			t.Errorf("idle: a heartbeat %v after the last, want at least %v", g, 2*every)
		}
	}
	timedGame(t, ctx, s, game.TimeControl{Initial: 60})
	shortest := time.Hour
	for _, g := range p.gaps(t, 7) {
		shortest = min(shortest, g)
	}
	if shortest >= 2*every {
		t.Errorf("a clock running: the shortest gap between heartbeats %v, want under %v", shortest, 2*every)
	}
}
