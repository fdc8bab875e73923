package game

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"oware/engine"
	"oware/engine/search"
)

// The computer opponent: a seat held by a level of package search. Its
// replies are searched by a Pool of workers, at most one search per core
// and queued beyond that, never in a request: the hook of every stored
// change (OnStore) and every load of a game (build) schedule the reply of
// a game where the computer is to move, so a restart or a crash while it
// thinks leaves no game stuck. The reply is stored with Move like any
// move: the version check keeps one move per ply, whichever instances
// searched it.

// ComputerSide returns the side the computer holds in g, or engine.Nobody
// in a game between people.
func (g *Head) ComputerSide() engine.Side {
	for _, s := range []engine.Side{engine.South, engine.North} {
		if g.Seats[s].Computer != 0 {
			return s
		}
	}
	return engine.Nobody
}

// VsComputer reports whether the computer holds a seat of g.
func (g *Head) VsComputer() bool { return g.ComputerSide() != engine.Nobody }

// ComputerToMove returns the computer's side when it is its turn in g, a
// game in play; engine.Nobody otherwise.
func (g *Game) ComputerToMove() engine.Side {
	side := g.ComputerSide()
	if g.Status != Playing || side == engine.Nobody || g.Engine == nil || g.Engine.Over || g.Position.ToMove != side {
		return engine.Nobody
	}
	return side
}

// seatComputer seats the computer of set, if any, at side of the new game
// g, which then starts at once. ErrComputerClock when set has a clock.
func (g *Game) seatComputer(side engine.Side, set Settings) error {
	if set.Computer == 0 {
		return nil
	}
	if !set.Computer.Valid() {
		return fmt.Errorf("%w: level %d", ErrBadSettings, set.Computer)
	}
	if set.Clock.On() {
		return ErrComputerClock
	}
	g.Seats[side].Computer = set.Computer
	g.Status, g.Instant = Playing, set.Instant
	return nil
}

// seedOf is the seed of the computer's play in game id: each game its
// own, the same for every instance that searches it.
func seedOf(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// PoolConfig sizes a Pool.
type PoolConfig struct {
	// Workers is the number of searches at a time, at most one per core;
	// 0 is one per core but one (at least one), so that a core stays free
	// for the requests: with every core searching, the site's requests
	// wait for the Go scheduler to preempt a search (on two cores, a move
	// request's p99 went from 6 ms to 50-100 ms; with one worker, 9-15 ms).
	Workers int
	// HashMB is each worker's transposition table; 0 is 32 MB.
	HashMB int
	// Tables are the endgame tables (nil for none), shared by the workers.
	Tables search.Tables
	// MinThink is the shortest time between a player's move and the
	// computer's reply, so that it never feels instant (the search runs
	// first, the wait after it holds no worker); 0 for none. Games created
	// with Settings.Instant have none.
	MinThink time.Duration
	// MaxWaiting bounds the searches of requests (hints, analyses) waiting
	// for a worker; past it they fail with ErrBusy. Analyses may take at
	// most half of it (at least one). 0 is 16 per worker.
	MaxWaiting int
	// ReplyTime bounds one reply's search, whatever its level; 0 is 10 s.
	ReplyTime time.Duration
}

// Pool searches the computer's replies, the hints and the analyses on a
// bounded number of workers, each with its own search.Searcher. It is safe
// for concurrent use.
type Pool struct {
	svc *Service
	cfg PoolConfig
	log *slog.Logger
	ctx context.Context

	mu   sync.Mutex
	wake *sync.Cond
	// queue holds the work waiting for a worker, oldest first: the
	// replies and hints, someone waits for them in a game; later the
	// analyses, which come after them.
	queue, later []*job
	// games are the games whose reply is queued, searched or about to be
	// stored, each with a channel closed when that is over.
	games   map[string]chan struct{}
	running int
	waiting int // jobs of requests in the queue
	// waitingLater counts the analyses among them: at most half of
	// MaxWaiting (at least one), so that analyses, which anyone may ask
	// for, never leave a player's hint without room.
	waitingLater int
	closed       bool
	workers      sync.WaitGroup
}

// job is one piece of work: the reply in game, or a request's search fn.
type job struct {
	game string
	fn   func(context.Context, *search.Searcher)
	ctx  context.Context
	// started is set when a worker takes the job, cancelled when its
	// request went away before; done is closed when fn returned.
	started, cancelled bool
	done               chan struct{}
}

// PoolStats are a pool's figures at one moment, for metrics.
type PoolStats struct {
	Workers int // searches at a time
	Running int // searches running now
	Queued  int // work waiting for a worker (replies, hints, analyses)
}

// StartComputer starts the computer's pool of s with cfg: from now on,
// every game where the computer is to move that this instance stores or
// loads gets its reply. The workers stop when ctx ends. Call it once,
// before serving.
func (s *Service) StartComputer(ctx context.Context, cfg PoolConfig) *Pool {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU() - 1
	}
	cfg.Workers = min(max(cfg.Workers, 1), runtime.NumCPU())
	if cfg.HashMB <= 0 {
		cfg.HashMB = 32
	}
	if cfg.MaxWaiting <= 0 {
		cfg.MaxWaiting = 16 * cfg.Workers
	}
	if cfg.ReplyTime <= 0 {
		cfg.ReplyTime = 10 * time.Second
	}
	p := &Pool{svc: s, cfg: cfg, log: s.log, ctx: ctx, games: map[string]chan struct{}{}}
	p.wake = sync.NewCond(&p.mu)
	for range cfg.Workers {
		s := search.NewSearcher(cfg.HashMB, cfg.Tables)
		p.workers.Go(func() { p.work(s) })
	}
	go func() {
		<-ctx.Done()
		p.mu.Lock()
		p.closed = true
		p.wake.Broadcast()
		p.mu.Unlock()
	}()
	s.pool = p
	s.reviews = newReviewer(p)
	s.OnStore(func(_ context.Context, g *Game) { p.consider(g) })
	return p
}

// Wait returns once the workers have stopped, after the context of
// StartComputer ended (a search under way stops soon after): then the
// endgame tables may be closed.
func (p *Pool) Wait() { p.workers.Wait() }

// Computer returns the pool of StartComputer, or nil.
func (s *Service) Computer() *Pool { return s.pool }

// computerTurn schedules the computer's reply in g when it is its turn.
func (s *Service) computerTurn(g *Game) {
	if s.pool != nil {
		s.pool.consider(g)
	}
}

// Stats returns the pool's figures now.
func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PoolStats{Workers: p.cfg.Workers, Running: p.running, Queued: len(p.queue) + len(p.later)}
}

// consider queues the computer's reply in g when it is its turn and the
// reply is not already under way in this instance.
func (p *Pool) consider(g *Game) {
	if g.ComputerToMove() == engine.Nobody {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.games[g.ID] != nil {
		return
	}
	p.games[g.ID] = make(chan struct{})
	p.queue = append(p.queue, &job{game: g.ID})
	p.wake.Signal()
}

// ScheduleWaiting looks for at most limit games in play against the
// computer (the latest started first) and schedules the replies of those
// where it is to move: at start, for the replies a stopped server left.
// It returns how many it scheduled.
func (p *Pool) ScheduleWaiting(ctx context.Context, limit int) (int, error) {
	ids, err := p.svc.db.ComputerGames(ctx, limit)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		g, err := p.svc.Load(ctx, id) // schedules the reply
		if err != nil {
			p.log.Error("computer: load", "game", id, "err", err)
			continue
		}
		if g.ComputerToMove() != engine.Nobody {
			n++
		}
	}
	return n, nil
}

// Await waits until the reply under way in game id in this instance, if
// any, is stored (or given up), or ctx ends.
func (p *Pool) Await(ctx context.Context, id string) {
	p.mu.Lock()
	done := p.games[id]
	p.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// Do runs fn on a worker's searcher, after the work queued before it, and
// returns when fn has returned; fn must end soon after its ctx does. It
// returns ErrBusy when too many requests wait already (or the pool
// stopped), or ctx's error when ctx ends first.
func (p *Pool) Do(ctx context.Context, fn func(context.Context, *search.Searcher)) error {
	return p.do(ctx, fn, false)
}

// do is Do; a job that can wait goes after the replies and hints queued,
// even those queued later.
func (p *Pool) do(ctx context.Context, fn func(context.Context, *search.Searcher), canWait bool) error {
	j := &job{fn: fn, ctx: ctx, done: make(chan struct{})}
	p.mu.Lock()
	if p.closed || p.waiting >= p.cfg.MaxWaiting || canWait && p.waitingLater >= max(p.cfg.MaxWaiting/2, 1) {
		p.mu.Unlock()
		return ErrBusy
	}
	p.waiting++
	if canWait {
		p.waitingLater++
		p.later = append(p.later, j)
	} else {
		p.queue = append(p.queue, j)
	}
	p.wake.Signal()
	p.mu.Unlock()
	select {
	case <-j.done:
		return nil
	case <-ctx.Done():
	}
	p.mu.Lock()
	started := j.started
	j.cancelled = !started
	p.mu.Unlock()
	if started {
		<-j.done // fn sees ctx end too
	}
	return ctx.Err()
}

// next takes the oldest job for a worker, or nil once the pool stopped.
func (p *Pool) next() *job {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		for len(p.queue)+len(p.later) > 0 {
			q := &p.queue
			if len(p.queue) == 0 {
				q = &p.later
				p.waitingLater--
			}
			j := (*q)[0]
			(*q)[0] = nil
			*q = (*q)[1:]
			if j.fn != nil {
				p.waiting--
				if j.cancelled {
					continue
				}
			}
			j.started = true
			p.running++
			return j
		}
		if p.closed {
			return nil
		}
		p.wake.Wait()
	}
}

// work is a worker: it runs the jobs with its searcher until the pool
// stops.
func (p *Pool) work(s *search.Searcher) {
	last := ""
	for {
		j := p.next()
		if j == nil {
			return
		}
		if j.fn != nil || j.game != last {
			s.NewGame() // the table of another game or position set misleads
		}
		last = j.game
		if j.fn != nil {
			j.fn(j.ctx, s)
			p.ran()
			close(j.done)
			continue
		}
		p.reply(j.game, s)
	}
}

// ran frees the worker's place in the running count.
func (p *Pool) ran() {
	p.mu.Lock()
	p.running--
	p.mu.Unlock()
}

// reply searches the computer's move in game id and has it stored once
// the minimum thinking time is over (without holding the worker).
func (p *Pool) reply(id string, s *search.Searcher) {
	start := time.Now()
	g, err := p.svc.Load(p.ctx, id)
	side := engine.Nobody
	if err == nil {
		side = g.ComputerToMove()
	}
	if side == engine.Nobody {
		p.ran()
		p.settled(id, nil)
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, p.cfg.ReplyTime)
	pit, err := s.Move(ctx, g.Engine, g.Seats[side].Computer, seedOf(id), false)
	cancel()
	p.ran()
	if err != nil {
		if p.ctx.Err() == nil {
			p.log.Error("computer: search", "game", id, "err", err)
		}
		p.settled(id, nil)
		return
	}
	wait := p.cfg.MinThink - time.Since(start)
	if g.Instant || wait <= 0 {
		p.store(g, side, pit)
		return
	}
	time.AfterFunc(wait, func() { p.store(g, side, pit) })
}

// store plays the computer's move pit for side in g, as loaded before its
// search. When g changed meanwhile (a takeback, another instance's reply)
// the game is loaded again, which schedules a new reply if one is due.
func (p *Pool) store(g *Game, side engine.Side, pit int) {
	err := p.svc.Move(p.ctx, g, side, engine.Label(pit))
	switch {
	case err == nil:
		p.settled(g.ID, g) // the computer may be to move again (warri, a new round)
	case errors.Is(err, ErrConflict) || errors.Is(err, engine.ErrGameOver) || errors.Is(err, ErrNotYourTurn):
		p.settled(g.ID, nil)
		if _, err := p.svc.Load(p.ctx, g.ID); err != nil && p.ctx.Err() == nil {
			p.log.Error("computer: load", "game", g.ID, "err", err)
		}
	default:
		p.settled(g.ID, nil)
		if p.ctx.Err() != nil {
			return
		}
		// The database failed: load the game again a little later, which
		// schedules the reply again if it is still due.
		p.log.Error("computer: store", "game", g.ID, "err", err)
		time.AfterFunc(retryAfter, func() { p.svc.Load(p.ctx, g.ID) })
	}
}

// retryAfter is how long the pool waits before it tries again a reply
// whose store failed.
const retryAfter = 5 * time.Second

// settled ends the reply under way in game id; g, the game just stored,
// is considered again.
func (p *Pool) settled(id string, g *Game) {
	p.mu.Lock()
	if done := p.games[id]; done != nil {
		close(done)
		delete(p.games, id)
	}
	p.mu.Unlock()
	if g != nil {
		p.consider(g)
	}
}
