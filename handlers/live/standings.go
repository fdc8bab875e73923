package live

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"oware/game"
	"oware/tournament"
)

// standings shares the count of a tournament's standings among this
// instance's event streams of the tournament: the first stream starts a
// feed, which follows the tournament's channel of the broker and counts
// the standings once per change (tournament.Service.ViewOf), and every
// stream gets that one count and renders it for its viewer. The feed
// stops with its last stream.
type standings struct {
	events game.Broker
	count  func(ctx context.Context, id string) (*tournament.View, error)
	log    *slog.Logger
	// poll is how often a feed counts again without an event, for the
	// changes that reach it no other way (a start or a round's time).
	poll time.Duration

	mu    sync.Mutex
	feeds map[string]*feed
}

// feed is the shared count of one tournament.
type feed struct {
	watchers map[chan *tournament.View]bool
	last     *tournament.View // nil before the first count
	stop     context.CancelFunc
}

// tournamentPoll is the default poll of the standings' feeds.
const tournamentPoll = 10 * time.Second

func newStandings(events game.Broker, count func(context.Context, string) (*tournament.View, error), log *slog.Logger) *standings {
	return &standings{events: events, count: count, log: log, poll: tournamentPoll, feeds: map[string]*feed{}}
}

// watch returns a channel that gets the view of tournament id as soon as
// it is counted (at once when a count is at hand) and after each change,
// holding only the latest, and the function that ends the watch (to call
// once). The channel is closed when the broker stops.
func (s *standings) watch(id string) (<-chan *tournament.View, func()) {
	ch := make(chan *tournament.View, 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.feeds[id]
	if f == nil {
		ctx, stop := context.WithCancel(context.Background())
		f = &feed{watchers: map[chan *tournament.View]bool{}, stop: stop}
		s.feeds[id] = f
		events, unsubscribe := s.events.Subscribe(tournamentChannel(id))
		go s.run(ctx, id, f, events, unsubscribe)
	} else if f.last != nil {
		ch <- f.last
	}
	f.watchers[ch] = true
	return ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !f.watchers[ch] {
			return
		}
		delete(f.watchers, ch)
		if len(f.watchers) == 0 {
			f.stop()
			if s.feeds[id] == f {
				delete(s.feeds, id)
			}
		}
	}
}

// run counts tournament id's standings for feed f, subscribed to events
// before its first count so that no change slips in between: at once, on
// every event and every poll, until ctx is done or the broker stops.
func (s *standings) run(ctx context.Context, id string, f *feed, events <-chan int, unsubscribe func()) {
	defer unsubscribe()
	poll := time.NewTicker(s.poll)
	defer poll.Stop()
	for {
		v, err := s.count(ctx, id)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("tournament standings", "tournament", id, "err", err)
		}
		s.mu.Lock()
		if err == nil {
			f.last = v
			for ch := range f.watchers {
				select { // only the latest is kept
				case <-ch:
				default:
				}
				ch <- v
			}
		}
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case _, ok := <-events:
			if !ok {
				s.closeFeed(id, f)
				return
			}
		case <-poll.C:
		}
	}
}

// closeFeed ends feed f of tournament id and its watches (the broker
// stopped: the server is shutting down).
func (s *standings) closeFeed(id string, f *feed) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range f.watchers {
		close(ch)
		delete(f.watchers, ch)
	}
	if s.feeds[id] == f {
		delete(s.feeds, id)
	}
}
