package live

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"oware/tournament"
)

// countBroker is a broker of one channel whose events the test sends by
// hand; it counts the subscriptions.
type countBroker struct {
	ch   chan int
	mu   sync.Mutex
	subs int
}

func (b *countBroker) Publish(context.Context, string, int) error { return nil }

func (b *countBroker) Known(string) (int, bool) { return 0, false }

func (b *countBroker) Note(string, int) {}

func (b *countBroker) Subscribe(string) (<-chan int, func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs++
	return b.ch, func() {}
}

// TestStandingsCountedOncePerChange: three streams of one tournament
// share one subscription and one count per change: the first count goes
// to all three, an event makes the second, which all three get; a stream
// that comes later gets the last count without a new one.
func TestStandingsCountedOncePerChange(t *testing.T) {
	b := &countBroker{ch: make(chan int, 1)}
	var mu sync.Mutex
	n := 0
	count := func(context.Context, string) (*tournament.View, error) {
		mu.Lock()
		defer mu.Unlock()
		n++ // the view of the n-th count has n standings
		return &tournament.View{Standings: make([]tournament.Standing, n)}, nil
	}
	s := newStandings(b, count, slog.New(slog.DiscardHandler))
	s.poll = time.Hour
	var chans []<-chan *tournament.View
	for range 3 {
		ch, stop := s.watch("t")
		defer stop()
		chans = append(chans, ch)
	}
	want := func(ch <-chan *tournament.View, counted int) {
		t.Helper()
		select {
		case v := <-ch:
			if len(v.Standings) != counted {
				t.Fatalf("got count %d, want %d", len(v.Standings), counted)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no count %d", counted)
		}
	}
	for _, ch := range chans {
		want(ch, 1)
	}
	b.ch <- 7
	for _, ch := range chans {
		want(ch, 2)
	}
	late, stop := s.watch("t")
	defer stop()
	want(late, 2)
	mu.Lock()
	defer mu.Unlock()
	if n != 2 || b.subs != 1 {
		t.Errorf("%d counts and %d subscriptions, want 2 and 1", n, b.subs)
	}
}
