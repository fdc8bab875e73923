package game

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"oware/models"
)

// Outages: time when the site itself could not take a move (its database
// out of reach, or every instance down or restarting) is charged to
// nobody. Every instance's sweeper writes the site's heartbeat each
// second while a game in play has a deadline, every 2 s otherwise
// (RunSweeper, models.DB.Pulse and Beat); a heartbeat that finds the last one older than
// OutageAfter moves the clock of every game in play on by the gap and
// OutageGrace: the player to move gets the outage back and a few seconds
// to find the board again, and no deadline falls during the outage or
// just after it. An action that reaches an instance whose own last
// heartbeat is that old (it has just started, or the database has just
// come back) first beats itself (Service.caughtUp), so that no move is
// charged, and no flag falls, before the clocks are moved on.
//
// One instance cut off from the database while the others reach it is no
// outage (the others keep the heartbeat), but its players cannot move:
// every request it serves answers 503. Its own heartbeat fails meanwhile;
// the games it was asked about in that time (a load or a write that
// failed for the database) are given the cut back on the first heartbeat
// it writes again: each is written through runClock with the cut, which
// moves the turn's start on by the part of the cut the turn lived
// through (cut.credit), so the player to move is charged none of it.

// The outage rule (README, "Clocks, the lobby and ratings").
const (
	// OutageAfter: a heartbeat gap longer than this is an outage.
	OutageAfter = 3 * time.Second
	// OutageGrace is added to every running clock after an outage.
	OutageGrace = 5 * time.Second
)

// maxCutGames bounds the games one cut gives time back to (the first
// asked about).
const maxCutGames = 4096

// outages is a service's side of the heartbeat.
type outages struct {
	watch atomic.Bool  // WatchOutages was called
	last  atomic.Int64 // time.Now().UnixNano() of this instance's last heartbeat written
	mu    sync.Mutex   // one heartbeat at a time
	// Under cutMu: lastAt is the service's time of the last heartbeat
	// written; from is lastAt when a heartbeat first failed for the
	// database (zero while none fails); asked are the games whose load or
	// write failed for the database since.
	cutMu  sync.Mutex
	lastAt time.Time
	from   time.Time
	asked  map[string]bool
}

// cut is a time this instance could not reach the database, from its
// last heartbeat written to the next; the zero cut is none.
type cut struct{ from, to time.Time }

// credit returns the part of c that a turn begun at since lived through
// by now (the overlap of the two spans; never more than c's length nor
// the turn's time), 0 for none.
func (c cut) credit(since, now time.Time) time.Duration {
	if c.to.IsZero() || since.IsZero() {
		return 0
	}
	end := c.to
	if now.Before(end) {
		end = now
	}
	return max(end.Sub(later(since, c.from)), 0)
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// WatchOutages makes every load of a game wait for a heartbeat first when
// this instance has written none for OutageAfter (the server that runs
// RunSweeper calls it before serving).
func (s *Service) WatchOutages() { s.outages.watch.Store(true) }

// Beat writes the site's heartbeat now and, after an outage, moves the
// running clocks on (models.DB.Beat) and logs it; after this instance's
// own cut it gives the cut back (giveBack). RunSweeper calls it every
// second (every 2 s while no game in play has a deadline).
func (s *Service) Beat(ctx context.Context) error {
	_, _, err := s.pulse(ctx)
	return err
}

// pulse is Beat; it also reports whether a game may be due for the sweep
// and whether a game in play may have a deadline (clocks; models.DB.Pulse),
// so an idle site's heartbeat is one statement.
func (s *Service) pulse(ctx context.Context) (due, clocks bool, err error) {
	s.outages.mu.Lock()
	defer s.outages.mu.Unlock()
	return s.beat(ctx)
}

// beat is pulse, under outages.mu: the one-statement heartbeat, or
// models.DB.Beat when there was a gap (or on SQLite); then a game may be
// due and have a deadline.
func (s *Service) beat(ctx context.Context) (due, clocks bool, err error) {
	now := s.Now()
	beaten, due, clocks, err := s.db.Pulse(ctx, now, OutageAfter)
	var gap time.Duration
	var shifted []models.Shift
	if err == nil && !beaten {
		due, clocks = true, true
		gap, shifted, err = s.db.Beat(ctx, now, OutageAfter, OutageGrace)
	}
	if err != nil {
		if models.Unavailable(err) {
			s.cutOff()
		}
		return false, false, err
	}
	s.giveBack(ctx, now)
	s.outages.last.Store(time.Now().UnixNano())
	if gap > 0 {
		s.log.Warn("the site was away: clocks moved on", "gap", gap.Round(time.Millisecond), "grace", OutageGrace, "games", len(shifted))
	}
	return due, clocks, nil
}

// cutOff notes that this instance's heartbeat failed for the database:
// its cut began at its last heartbeat written.
func (s *Service) cutOff() {
	o := &s.outages
	o.cutMu.Lock()
	defer o.cutMu.Unlock()
	if o.from.IsZero() {
		o.from = o.lastAt
		if o.from.IsZero() {
			o.from = s.Now()
		}
	}
}

// asked notes game id, whose load or write just failed with err, when err
// is the database out of reach; it returns err.
func (s *Service) asked(id string, err error) error {
	if !models.Unavailable(err) {
		return err
	}
	o := &s.outages
	o.cutMu.Lock()
	defer o.cutMu.Unlock()
	if o.asked == nil {
		o.asked = map[string]bool{}
	}
	if len(o.asked) < maxCutGames {
		o.asked[id] = true
	}
	return err
}

// giveBack ends this instance's cut, if any, at now (a heartbeat was just
// written): each game asked about during it is written with the cut
// (runClock gives its player to move the part of the cut their turn lived
// through). Failures are logged: the game is then charged as before.
func (s *Service) giveBack(ctx context.Context, now time.Time) {
	o := &s.outages
	o.cutMu.Lock()
	c, ids := cut{from: o.from, to: now}, o.asked
	o.lastAt, o.from, o.asked = now, time.Time{}, nil
	o.cutMu.Unlock()
	if c.from.IsZero() || len(ids) == 0 {
		return
	}
	given := 0
	for id := range ids {
		ok, err := s.credit(ctx, id, c)
		if err != nil {
			s.log.Error("cut off: give the time back", "game", id, "err", err)
		}
		if ok {
			given++
		}
	}
	s.log.Warn("this instance was cut off from the database: clocks given back", "cut", now.Sub(c.from).Round(time.Millisecond),
		"games", given)
}

// credit writes game id, when in play with a clock whose turn lived
// through some of c, with c given back (runClock); it reports whether it
// did. It reads the game without caughtUp (it runs inside the heartbeat).
func (s *Service) credit(ctx context.Context, id string, c cut) (bool, error) {
	for range 3 {
		row, err := s.db.FindGame(ctx, id)
		g, err := s.build(ctx, row, err)
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		now := s.Now()
		if g.Status != Playing || !g.Clock.On() || c.credit(g.Clock.TurnSince, now) == 0 {
			return false, nil
		}
		g.cut = c
		err = s.write(ctx, g, now, nil, 0, nil)
		if !errors.Is(err, ErrConflict) {
			return err == nil, err
		}
	}
	return false, nil
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
	_, _, err := s.beat(ctx)
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
