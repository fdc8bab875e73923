package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/search"
	"oware/game"
	"oware/models"
)

// defaultTableSeeds is the size of the endgame tables a server builds when
// none is given: every board of up to 16 seeds, 30 MB a rule set, built in
// a few minutes of one core (see docs/engine.md for larger ones).
const defaultTableSeeds = 16

// tables are the endgame tables of the server: opened from their folder,
// the missing ones built in the background while the computer plays by
// search alone.
type tables struct {
	cache *endgame.Cache // nil without tables
	stop  context.CancelFunc
	built chan struct{} // closed when the background build is over
}

// openTables opens the tables of up to seeds seeds in dir (none when seeds
// is 0) and, when build, starts building the missing ones in one goroutine
// (one core), logging its progress. It returns at once.
func openTables(dir string, seeds int, build bool, log *slog.Logger) (*tables, error) {
	t := &tables{stop: func() {}, built: make(chan struct{})}
	if seeds == 0 {
		close(t.built)
		return t, nil
	}
	c, missing, err := endgame.OpenCache(dir, seeds)
	if err != nil {
		return nil, err
	}
	t.cache = c
	if len(missing) == 0 {
		log.Info("endgame tables loaded", "dir", dir, "seeds", seeds)
		close(t.built)
		return t, nil
	}
	names := make([]string, len(missing))
	for i, r := range missing {
		names[i] = r.Name()
	}
	if !build {
		log.Warn("endgame tables missing: the computer plays those rules by search alone (-build-tables=false)",
			"dir", dir, "seeds", seeds, "rules", strings.Join(names, ","))
		close(t.built)
		return t, nil
	}
	log.Info("endgame tables missing: the computer plays by search alone while they are built in the background",
		"dir", dir, "seeds", seeds, "rules", strings.Join(names, ","))
	ctx, stop := context.WithCancel(context.Background())
	t.stop = stop
	go func() {
		defer close(t.built)
		start := time.Now()
		err := c.BuildMissing(ctx, buildLogger(log))
		switch {
		case errors.Is(err, context.Canceled):
			log.Info("endgame tables: build stopped; it starts again at the next start")
		case err != nil:
			log.Error("endgame tables: build failed", "err", err)
		default:
			log.Info("endgame tables built", "dir", dir, "seeds", seeds, "took", time.Since(start).Round(time.Second))
		}
	}()
	return t, nil
}

// buildLogger returns the progress function of a build: a line when a
// rule set's table is done, at most one every 30 s in between.
func buildLogger(log *slog.Logger) func(endgame.Progress) {
	last := time.Now()
	return func(p endgame.Progress) {
		finished := p.Step == "done" && p.Done == p.Total
		if !finished && time.Since(last) < 30*time.Second {
			return
		}
		last = time.Now()
		log.Info("endgame tables: building", "rules", p.Rules, "seeds", p.MaxSeeds, "step", p.Step,
			"boards_done", p.Done, "boards", p.Total, "percent", p.Done*100/max(p.Total, 1))
	}
}

// Table returns the table of rules, or nil (search.Tables).
func (t *tables) Table(rules engine.Oware) *endgame.Table { return t.cache.Table(rules) }

// close stops a build under way and releases the tables; no search may
// use them after.
func (t *tables) close() error {
	t.stop()
	<-t.built
	if t.cache == nil {
		return nil
	}
	return t.cache.Close()
}

// startComputer returns the game service with the computer's pool (a
// worker per core, the endgame tables of cfg) and the function that stops
// them; it schedules, in the background, the replies that games left by a
// stopped server wait for.
func startComputer(db *models.DB, cfg config, log *slog.Logger) (*game.Service, func(), error) {
	t, err := openTables(cfg.tables, cfg.tableSeeds, cfg.buildTables, log)
	if err != nil {
		return nil, nil, fmt.Errorf("endgame tables: %w (remove a damaged file to have it built again)", err)
	}
	games := game.New(db, log)
	ctx, stop := context.WithCancel(context.Background())
	pool := games.StartComputer(ctx, game.PoolConfig{Workers: cfg.computer, Tables: t, MinThink: search.MinThinkTime})
	go func() {
		n, err := pool.ScheduleWaiting(ctx, waitingReplies)
		if err != nil && ctx.Err() == nil {
			log.Error("computer: games waiting for a reply", "err", err)
		} else if n > 0 {
			log.Info("computer: replies scheduled for games left waiting", "games", n)
		}
	}()
	return games, func() {
		stop()
		pool.Wait()
		if err := t.close(); err != nil {
			log.Error("endgame tables: close", "err", err)
		}
	}, nil
}

// waitingReplies bounds the games a server looks at, at start, for a
// computer's reply left waiting (the latest changed first; older ones get
// theirs when next loaded).
const waitingReplies = 500
