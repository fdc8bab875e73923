package game

import (
	"context"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"oware/engine/search"
	"oware/models"
)

// PoolConfig sizes a Pool.
type PoolConfig struct {
	// Workers is the number of searches at a time in this process, at
	// most one per core; 0 is one per core. They run at the lowered
	// priority Nice, so that they take only what the site's requests
	// leave of the cores.
	Workers int
	// Nice is how far below the process's nice value the workers'
	// threads run (Linux; 0 to 19, 0 leaves them at the process's
	// priority; never past nice 19): see DefaultNice.
	Nice int
	// Idle puts the workers' threads under the SCHED_IDLE policy (Linux):
	// they get only the CPU time nobody else wants, so PostgreSQL and the
	// site's requests never wait behind a search; where the policy is
	// refused they keep Nice. On a machine busy with other work a search
	// may then wait long (a reply's ReplyTime bounds its search, not its
	// wait), hence off by default.
	Idle bool
	// NoJobs keeps this process from working the computer's jobs (the
	// replies and reviews): `oware worker` processes work them. The
	// workers then search the requests only (hints, analyses).
	NoJobs bool
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

// DefaultNice is the nice value of the computer's workers unless
// configured: a thread at nice 10 gets about a tenth of the CPU time of
// one at 0 when both want a core (the kernel's weights 110 and 1024), so
// the site's requests barely notice the searches.
const DefaultNice = 10

// Pool runs the searches of this process (the computer's replies, the
// hints, the analyses and the reviews' positions) on a bounded number of
// workers, each with its own search.Searcher on a thread of its own at a
// lowered priority. The work waiting is taken by class (a reply or a hint
// first, an analysis after), oldest first within a class. It is safe for
// concurrent use.
type Pool struct {
	svc  *Service
	cfg  PoolConfig
	log  *slog.Logger
	ctx  context.Context
	jobs *models.Jobs // the durable jobs: replies.go

	mu   sync.Mutex
	wake *sync.Cond
	// queue holds the work waiting for a worker, by class, oldest first.
	queue [classes][]*job
	// asked are the games whose reply this process asked for lately
	// (replies.go), by id.
	asked   map[string]asked
	running int
	waiting int // jobs of requests in the queue
	// waitingLater counts the analyses among them: at most half of
	// MaxWaiting (at least one), so that analyses, which anyone may ask
	// for, never leave a player's hint without room.
	waitingLater int
	closed       bool
	workers      sync.WaitGroup
}

// class is the order in which waiting searches get a worker.
type class int

// The classes of searches, first served first.
const (
	classReply    class = iota // a reply or a hint: a player waits in a game
	classAnalysis              // an analysis request, a review's position
	classes
)

// job is one search: fn, for the reply in game (or "" for a request).
type job struct {
	game    string
	fn      func(context.Context, *search.Searcher)
	ctx     context.Context
	request bool // a request's: counts against MaxWaiting
	class   class
	// started is set when a worker takes the job, cancelled when its
	// request went away before; done is closed when fn returned.
	started, cancelled bool
	done               chan struct{}
}

// PoolStats are a pool's figures at one moment, for metrics.
type PoolStats struct {
	Workers int // searches at a time
	Running int // searches running now
	Queued  int // searches waiting for a worker in this process
}

// StartComputer starts the computer of s with cfg: its pool of workers
// and, unless cfg.NoJobs, the workers of the computer's jobs (replies,
// reviews) in this process. From now on every game where the computer is
// to move that this process stores or loads gets its reply asked for. The
// workers stop when ctx ends or the database is closed. Call it once, before serving. Errors: the
// job client's (River's configuration).
func (s *Service) StartComputer(ctx context.Context, cfg PoolConfig) (*Pool, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU()
	}
	cfg.Workers = min(cfg.Workers, runtime.NumCPU())
	if cfg.HashMB <= 0 {
		cfg.HashMB = 32
	}
	if cfg.MaxWaiting <= 0 {
		cfg.MaxWaiting = 16 * cfg.Workers
	}
	if cfg.ReplyTime <= 0 {
		cfg.ReplyTime = 10 * time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	context.AfterFunc(s.db.Closed(), cancel)
	p := &Pool{svc: s, cfg: cfg, log: s.log, ctx: ctx, asked: map[string]asked{}}
	p.wake = sync.NewCond(&p.mu)
	jobs, err := s.db.NewJobs(p.jobConfig())
	if err != nil {
		cancel()
		return nil, err
	}
	p.jobs = jobs
	for range cfg.Workers {
		s := search.NewSearcher(cfg.HashMB, cfg.Tables)
		p.workers.Go(func() { p.work(s) })
	}
	if !cfg.NoJobs {
		if err := jobs.Start(ctx); err != nil {
			cancel()
			return nil, err
		}
	}
	go func() {
		<-ctx.Done()
		p.mu.Lock()
		p.closed = true
		p.wake.Broadcast()
		p.mu.Unlock()
	}()
	s.pool = p
	s.OnStore(func(_ context.Context, g *Game) { p.consider(g) })
	return p, nil
}

// Wait returns once the workers have stopped, after the context of
// StartComputer ended (a search under way stops soon after): then the
// endgame tables may be closed.
func (p *Pool) Wait() {
	p.workers.Wait()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.jobs.Stop(sctx); err != nil {
		p.log.Error("computer: stop the jobs", "err", err)
	}
}

// Computer returns the pool of StartComputer, or nil.
func (s *Service) Computer() *Pool { return s.pool }

// Stats returns the pool's figures now.
func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, q := range p.queue {
		n += len(q)
	}
	return PoolStats{Workers: p.cfg.Workers, Running: p.running, Queued: n}
}

// Do runs fn on a worker's searcher, after the replies and hints queued
// before it, and returns when fn has returned; fn must end soon after its
// ctx does. It returns ErrBusy when too many requests wait already (or the
// pool stopped), or ctx's error when ctx ends first.
func (p *Pool) Do(ctx context.Context, fn func(context.Context, *search.Searcher)) error {
	return p.do(ctx, &job{fn: fn, request: true, class: classReply})
}

// do queues j with ctx and waits as Do does.
func (p *Pool) do(ctx context.Context, j *job) error {
	j.ctx, j.done = ctx, make(chan struct{})
	p.mu.Lock()
	later := j.class > classReply
	if p.closed || j.request && (p.waiting >= p.cfg.MaxWaiting || later && p.waitingLater >= max(p.cfg.MaxWaiting/2, 1)) {
		p.mu.Unlock()
		return ErrBusy
	}
	if j.request {
		p.waiting++
		if later {
			p.waitingLater++
		}
	}
	p.queue[j.class] = append(p.queue[j.class], j)
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

// next takes the first job for a worker, or nil once the pool stopped.
func (p *Pool) next() *job {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		for c := range p.queue {
			q := &p.queue[c]
			for len(*q) > 0 {
				j := (*q)[0]
				(*q)[0] = nil
				*q = (*q)[1:]
				if j.request {
					p.waiting--
					if j.class > classReply {
						p.waitingLater--
					}
				}
				if j.cancelled {
					continue
				}
				j.started = true
				p.running++
				return j
			}
		}
		if p.closed {
			return nil
		}
		p.wake.Wait()
	}
}

// work is a worker: on a thread of its own at the pool's nice value, it
// runs the jobs with its searcher until the pool stops.
func (p *Pool) work(s *search.Searcher) {
	lowerThread(p.cfg.Nice, p.cfg.Idle)
	last := ""
	for {
		j := p.next()
		if j == nil {
			return
		}
		if j.game == "" || j.game != last {
			s.NewGame() // the table of another game or position set misleads
		}
		last = j.game
		j.fn(j.ctx, s)
		p.mu.Lock()
		p.running--
		p.mu.Unlock()
		close(j.done)
	}
}
