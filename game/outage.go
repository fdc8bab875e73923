package game

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"oware/models"
)

// Outages: time when the site itself could not take a move (its database
// out of reach, or every instance down or restarting) is charged to
// nobody. Every instance's sweeper writes the site's heartbeat each
// second (models.DB.Beat); a heartbeat that finds the last one older than
// OutageAfter moves the clock of every game in play on by the gap and
// OutageGrace: the player to move gets the outage back and a few seconds
// to find the board again, and no deadline falls during the outage or
// just after it. An action that reaches an instance whose own last
// heartbeat is that old (it has just started, or the database has just
// come back) first beats itself (Service.caughtUp), so that no move is
// charged, and no flag falls, before the clocks are moved on.

// The outage rule (README, "Clocks, the lobby and ratings").
const (
	// OutageAfter: a heartbeat gap longer than this is an outage.
	OutageAfter = 3 * time.Second
	// OutageGrace is added to every running clock after an outage.
	OutageGrace = 5 * time.Second
)

// outages is a service's side of the heartbeat.
type outages struct {
	watch atomic.Bool  // WatchOutages was called
	last  atomic.Int64 // time.Now().UnixNano() of this instance's last heartbeat written
	mu    sync.Mutex   // one catching-up heartbeat at a time
}

// WatchOutages makes every load of a game wait for a heartbeat first when
// this instance has written none for OutageAfter (the server that runs
// RunSweeper calls it before serving).
func (s *Service) WatchOutages() { s.outages.watch.Store(true) }

// Beat writes the site's heartbeat now and, after an outage, moves the
// running clocks on (models.DB.Beat) and logs it. RunSweeper calls it
// every second.
func (s *Service) Beat(ctx context.Context) error {
	gap, shifted, err := s.db.Beat(ctx, s.Now(), OutageAfter, OutageGrace)
	if err != nil {
		return err
	}
	s.outages.last.Store(time.Now().UnixNano())
	if gap > 0 {
		s.log.Warn("the site was away: clocks moved on", "gap", gap.Round(time.Millisecond), "grace", OutageGrace, "games", len(shifted))
	}
	return nil
}

// caughtUp makes sure, when outages are watched, that this instance has
// written a heartbeat within OutageAfter, beating first otherwise: a game
// is never acted on with a clock that still counts an outage.
func (s *Service) caughtUp(ctx context.Context) error {
	if !s.outages.watch.Load() || s.fresh() {
		return nil
	}
	s.outages.mu.Lock()
	defer s.outages.mu.Unlock()
	if s.fresh() {
		return nil
	}
	err := s.Beat(ctx)
	switch {
	case err == nil, models.Unavailable(err), ctx.Err() != nil:
		return err // the database away: the load would fail the same way
	}
	// Any other fault of the heartbeat must not take the site down with it.
	s.log.Error("heartbeat", "err", err)
	return nil
}

// fresh reports whether this instance wrote a heartbeat within
// OutageAfter.
func (s *Service) fresh() bool {
	return time.Since(time.Unix(0, s.outages.last.Load())) <= OutageAfter
}
