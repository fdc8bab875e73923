package game

import (
	"context"
	"errors"
	"time"

	"oware/models"
)

// The sweeper ends the games whose time ran out without any request from
// their players: every instance runs one (RunSweeper), and
// models.DB.DueGames leases each due game to one of them, so a game is
// ended by one instance, with the versioned write of every change (a move
// stored in time wins over it), and a game leased by an instance that
// stopped is taken over when the lease ends.

// SweepLease is how long a sweeper holds a due game before another
// instance may take it over.
const SweepLease = 30 * time.Second

// sweepBatch bounds the games one sweep ends.
const sweepBatch = 100

// Sweep ends the games in play whose deadline passed at the service's now
// (clock.go: a flag fell, a first move did not come) and returns how many
// it ended.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	now := s.Now()
	ids, err := s.db.DueGames(ctx, now, SweepLease, sweepBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		ended, err := s.expireGame(ctx, id, now)
		if err != nil {
			s.log.Error("sweep", "game", id, "err", err)
			continue
		}
		if ended {
			n++
		}
	}
	return n, nil
}

// expireGame ends game id if its time ran out at now; it reports whether
// it did. A change stored meanwhile (a move in time) is loaded and checked
// again.
func (s *Service) expireGame(ctx context.Context, id string, now time.Time) (bool, error) {
	for range 3 {
		g, err := s.Load(ctx, id)
		if err != nil {
			return false, err
		}
		if !g.expired(now) {
			return false, nil
		}
		g.flagFall()
		err = s.write(ctx, g, now, nil, 0, nil)
		if !errors.Is(err, ErrConflict) {
			return err == nil, err
		}
	}
	return false, nil
}

// idleBeats is how many of RunSweeper's intervals it waits between two
// heartbeats while no game in play has a deadline (models.DB.Pulse's
// clocks): 2 with the server's 1 s, under OutageAfter, so an idle site's
// heartbeat is no outage. Nothing is lost meanwhile: no game can end by
// itself nor have a clock moved on by an outage, and a game that gets a
// deadline gets one at least FirstMove (or its correspondence days) away,
// by which time the heartbeat is back to every interval.
const idleBeats = 2

// visitorSweepEvery is how often the sweeper deletes the visitors that
// expired (models.VisitorLifetime) with their seats.
const visitorSweepEvery = time.Hour

// RunSweeper writes the site's heartbeat (Beat) every interval until ctx
// is done, and sweeps when a game is due; while no game in play has a
// deadline it beats every idleBeats intervals instead (an idle site's
// statements). Every minute it also closes the lobby's challenges whose
// creators left and applies the ratings of games whose end was stored
// without them, and every visitorSweepEvery it deletes the expired
// visitors.
func (s *Service) RunSweeper(ctx context.Context, every time.Duration) {
	idle := idleBeats * every
	if idle >= OutageAfter {
		idle = every
	}
	t := time.NewTimer(every)
	defer t.Stop()
	var chores, visitors time.Time
	away := false // the database was out of reach at the last sweep
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// The heartbeat first: after an outage the clocks move on before
		// any flag falls. It tells whether a game is due: an idle beat is
		// one statement.
		due, clocks, err := s.pulse(ctx)
		if err != nil && !models.Unavailable(err) && ctx.Err() == nil {
			s.log.Error("heartbeat", "err", err)
			err, due = nil, true
		}
		if err == nil && due {
			_, err = s.Sweep(ctx)
		}
		if clocks || err != nil {
			t.Reset(every)
		} else {
			t.Reset(idle)
		}
		switch {
		case ctx.Err() != nil:
		case err != nil && models.Unavailable(err):
			if !away { // once, not every second while it lasts
				s.log.Warn("sweep: the database is out of reach; trying again every interval", "err", err)
			}
			away = true
			continue
		case err != nil:
			s.log.Error("sweep", "err", err)
		case away:
			s.log.Info("sweep: the database is back")
			away = false
		}
		if now := s.Now(); now.Sub(chores) >= time.Minute {
			chores = now
			if _, err := s.db.GoneChallenges(ctx, now); err != nil && ctx.Err() == nil {
				s.log.Error("sweep: challenges", "err", err)
			}
			if err := s.RateMissed(ctx, now.Add(-24*time.Hour)); err != nil && ctx.Err() == nil {
				s.log.Error("sweep: ratings", "err", err)
			}
			if now.Sub(visitors) >= visitorSweepEvery {
				visitors = now
				s.deleteExpiredVisitors(ctx, now)
			}
		}
	}
}

// deleteExpiredVisitors deletes the visitors (and their seats) whose
// lifetime ended before now, and the puzzle rows of the guests who
// attempted no puzzle in that lifetime.
func (s *Service) deleteExpiredVisitors(ctx context.Context, now time.Time) {
	n, err := s.db.DeleteExpiredVisitors(ctx, now.Add(-models.VisitorLifetime))
	switch {
	case err != nil && ctx.Err() == nil:
		s.log.Error("sweep: expired visitors", "err", err)
	case n > 0:
		s.log.Info("sweep: expired visitors deleted", "count", n)
	}
	if err := s.db.DeleteIdlePuzzleGuests(ctx, now.Add(-models.VisitorLifetime)); err != nil && ctx.Err() == nil {
		s.log.Error("sweep: idle puzzle guests", "err", err)
	}
}
