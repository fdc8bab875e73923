package game

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"oware/engine"
	"oware/engine/search"
	"oware/models"
)

// The computer's work as durable jobs (River, models.Jobs): a reply in a
// game at a version (replyArgs, queue "replies"), a game's review
// (reviewArgs, queue "reviews"). Every process with workers works them,
// the site's own and `oware worker`s alike, at most Workers replies and
// one review at a time each; River's priorities order the jobs of a queue
// (a reply 1, a review 2), the Pool's classes order the searches of a
// process (a reply or a hint, then an analysis or a review's position).
//
// A reply is dropped, never searched, when its game is over, changed
// (another reply, a takeback) or its player left: ReplyDeadline after the
// reply was asked for; the game's next load asks again.

// The queues of the computer's jobs.
const (
	replyQueue  = "replies"
	reviewQueue = "reviews"
)

// The River priorities of the jobs (1 is first).
const (
	replyPriority  = 1
	reviewPriority = 2
)

// ReplyDeadline is how long a reply asked for may wait for a worker
// before its player is taken to have left: the job is dropped, and the
// game's next load (its page opened again) asks again.
const ReplyDeadline = time.Minute

// ReplyFloor is the shortest search of a level 7 or 8 reply: with more
// replies waiting than the process has workers, such a reply searches
// for its level's time (1 s) times workers ÷ replies waiting, but not
// less than ReplyFloor. So with W workers in all and Q replies waiting a
// reply comes within about max(1 s, Q/W × ReplyFloor) plus its own
// search (docs/operating.md, "The computer's workers").
const ReplyFloor = 100 * time.Millisecond

// askAgain is how long a process remembers the reply it asked for in a
// game at a version before it asks again (a unique job is not inserted
// twice; this only spares the database the question on every load).
const askAgain = 5 * time.Second

// jobTimeout bounds a reply's job; jobRescue is how long after a job
// started, its process gone, another process may take it over (longer
// than any job: a review works in slices of reviewSlice).
const (
	jobTimeout = 45 * time.Second
	jobRescue  = 2 * time.Minute
)

// waitingStates are the states in which a reply or a review job keeps
// another like it from being inserted (River's required states and the
// retryable one; a finished job does not).
var waitingStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
	rivertype.JobStateRunning, rivertype.JobStateScheduled, rivertype.JobStateRetryable}

// replyArgs is the job of the computer's reply in Game at Version.
type replyArgs struct {
	Game    string `json:"game"`
	Version int    `json:"version"`
}

// Kind names the job in River's table.
func (replyArgs) Kind() string { return "computer_reply" }

// InsertOpts: the replies' queue, first priority, one job per game and
// version.
func (replyArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: replyQueue, Priority: replyPriority, MaxAttempts: 5,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: waitingStates}}
}

// asked is a reply a process asked for: at a game's version, at a time.
type asked struct {
	version int
	at      time.Time
}

// JobPoll is how often each job queue's producer looks for jobs without a
// notification (two queues: 0.2 statements a second of an idle site).
const JobPoll = 10 * time.Second

// jobConfig is the River configuration of p: its queues and workers
// unless cfg.NoJobs (then it only inserts).
func (p *Pool) jobConfig() *river.Config {
	cfg := &river.Config{
		JobTimeout:                  jobTimeout,
		RescueStuckJobsAfter:        jobRescue,
		CompletedJobRetentionPeriod: models.JobRetention,
		// A job waits at most this long for a fetch after another (River's
		// default 100 ms adds up to that to a reply's time).
		FetchCooldown: 5 * time.Millisecond,
		// The producer fetches on its insert's notification (LISTEN/NOTIFY;
		// on SQLite the client wakes its own producer), and its fetch
		// limiter fires again after the cooldown when a notification came
		// during it: the poll is only a fallback, and an idle site's
		// statements are mostly polls.
		FetchPollInterval: JobPoll,
		Logger:            slog.New(warnings{p.log.Handler()}),
	}
	if p.cfg.NoJobs {
		return cfg
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &replyWorker{p: p})
	river.AddWorker(workers, &reviewWorker{p: p})
	cfg.Workers = workers
	cfg.Queues = map[string]river.QueueConfig{
		// Twice the searchers: a reply's loads and stores overlap another's
		// search (the pool still runs Workers searches at a time).
		replyQueue:  {MaxWorkers: 2 * p.cfg.Workers},
		reviewQueue: {MaxWorkers: reviewsAtOnce},
	}
	return cfg
}

// computerTurn asks for the computer's reply in g when it is its turn.
func (s *Service) computerTurn(g *Game) {
	if s.pool != nil {
		s.pool.consider(g)
	}
}

// consider asks for the computer's reply in g when it is its turn and this
// process did not ask for it lately. The job is inserted in the
// background: the request that stored or loaded g does not wait for it.
func (p *Pool) consider(g *Game) {
	if g.ComputerToMove() == engine.Nobody {
		return
	}
	if !p.ask(g.ID, g.Version) {
		return
	}
	args := replyArgs{Game: g.ID, Version: g.Version}
	go func() {
		if _, err := p.jobs.Insert(p.ctx, args, nil); err != nil && p.ctx.Err() == nil {
			p.log.Error("computer: ask for a reply", "game", args.Game, "err", err)
		}
	}()
}

// ask records that this process asks for the reply in game id at version
// now; false when it did lately (or the pool stopped): nothing to ask.
func (p *Pool) ask(id string, version int) bool {
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if a, ok := p.asked[id]; p.closed || ok && a.version == version && now.Sub(a.at) < askAgain {
		return false
	}
	if len(p.asked) > maxAsked {
		clear(p.asked)
	}
	p.asked[id] = asked{version, now}
	return true
}

// maxAsked bounds the replies a process remembers asking for.
const maxAsked = 10000

// ScheduleWaiting looks for at most limit games in play against the
// computer (the latest started first) and asks for the replies of those
// where it is to move: at start, for the replies a stopped server left
// without a job. It returns how many it asked for.
func (p *Pool) ScheduleWaiting(ctx context.Context, limit int) (int, error) {
	ids, err := p.svc.db.ComputerGames(ctx, limit)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		g, err := p.svc.Load(ctx, id) // asks for the reply
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

// Await waits until the computer is no longer to move in game id (its
// reply, stored by any process, or the game's end), or ctx ends.
func (p *Pool) Await(ctx context.Context, id string) {
	events, stop := p.svc.db.Broker(p.ctx).Subscribe(id)
	defer stop()
	for {
		g, err := p.svc.Load(ctx, id)
		if err != nil || g.ComputerToMove() == engine.Nobody {
			return
		}
		select {
		case _, ok := <-events:
			if !ok {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// replyWorker works the reply jobs.
type replyWorker struct {
	river.WorkerDefaults[replyArgs]
	p *Pool
}

// Work searches and stores the reply of job, or drops it.
func (w *replyWorker) Work(ctx context.Context, j *river.Job[replyArgs]) error {
	err := w.p.reply(ctx, j.Args, j.CreatedAt)
	if err != nil && w.p.ctx.Err() != nil {
		return river.JobSnooze(0) // stopping: the next process takes it at once
	}
	return err
}

// reply searches the computer's move asked for by a, at the time asked,
// and has it stored once the minimum thinking time is over (without
// holding the worker). It drops a reply no longer due (nil error).
func (p *Pool) reply(ctx context.Context, a replyArgs, at time.Time) error {
	if time.Since(at) > ReplyDeadline {
		p.log.Info("computer: reply dropped, its player left", "game", a.Game, "asked", at)
		return nil
	}
	start := time.Now()
	// The job is the question: its own load must not ask for it again
	// (another process's job of the same game and version, skipped as a
	// duplicate, still cost an insert, its notification and the fetches
	// the notification wakes: 4-5 statements a reply of an oware worker).
	p.ask(a.Game, a.Version)
	g, err := p.svc.Load(ctx, a.Game)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	side := g.ComputerToMove()
	if side == engine.Nobody || g.Version != a.Version {
		return nil
	}
	level := g.Seats[side].Computer
	think := p.thinkTime(ctx, level)
	var pit int
	var serr error
	var clock search.Clock
	err = p.do(ctx, &job{game: g.ID, class: classReply, fn: func(ctx context.Context, s *search.Searcher) {
		sctx, cancel := context.WithTimeout(ctx, think)
		defer cancel()
		clock = g.replyClock(p.svc.Now())
		pit, serr = s.MoveOnClock(sctx, g.Engine, level, seedOf(g.ID), clock)
	}})
	if err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	wait := p.cfg.MinThink - time.Since(start)
	if g.Instant || wait <= 0 || clock.Left > 0 {
		p.store(g, side, pit)
		return nil
	}
	time.AfterFunc(wait, func() { p.store(g, side, pit) })
	return nil
}

// thinkTime is the longest search of a reply at level now: the pool's
// ReplyTime, or for levels 7 and 8 with more replies waiting than the
// pool has workers, their share of the level's time (at least
// ReplyFloor).
func (p *Pool) thinkTime(ctx context.Context, level search.Level) time.Duration {
	full := level.Options(0).MoveTime
	if full <= 0 {
		return p.cfg.ReplyTime
	}
	q, err := p.jobs.Waiting(ctx, replyQueue, maxCounted)
	if err != nil || q <= p.cfg.Workers {
		return min(p.cfg.ReplyTime, full)
	}
	return max(ReplyFloor, full*time.Duration(p.cfg.Workers)/time.Duration(q))
}

// maxCounted bounds the waiting jobs a process counts.
const maxCounted = 1000

// store plays the computer's move pit for side in g, as loaded before its
// search. When g changed meanwhile (a takeback, another process's reply)
// the game is loaded again, which asks for a new reply if one is due.
func (p *Pool) store(g *Game, side engine.Side, pit int) {
	err := p.svc.Move(p.ctx, g, side, engine.Label(pit))
	switch {
	case err == nil: // the store hook asks for the next reply (warri, a new round)
	case errors.Is(err, ErrConflict) || errors.Is(err, engine.ErrGameOver) || errors.Is(err, ErrNotYourTurn):
		if _, err := p.svc.Load(p.ctx, g.ID); err != nil && p.ctx.Err() == nil {
			p.log.Error("computer: load", "game", g.ID, "err", err)
		}
	case p.ctx.Err() != nil:
	default:
		// The database failed: load the game again a little later, which
		// asks for the reply again if it is still due.
		p.log.Error("computer: store", "game", g.ID, "err", err)
		p.forget(g.ID)
		time.AfterFunc(retryAfter, func() { p.svc.Load(p.ctx, g.ID) })
	}
}

// forget makes the next load of game id ask for its reply again.
func (p *Pool) forget(id string) {
	p.mu.Lock()
	delete(p.asked, id)
	p.mu.Unlock()
}

// retryAfter is how long the pool waits before it tries again a reply
// whose store failed.
const retryAfter = 5 * time.Second

// warnings passes River's warnings and errors to a handler, not its
// informational lines (a client started, a leader elected).
type warnings struct{ slog.Handler }

// Enabled reports whether level is a warning or above, and h takes it.
func (h warnings) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= slog.LevelWarn && h.Handler.Enabled(ctx, level)
}

// WithAttrs keeps the filter on the handler with attrs.
func (h warnings) WithAttrs(attrs []slog.Attr) slog.Handler {
	return warnings{h.Handler.WithAttrs(attrs)}
}

// WithGroup keeps the filter on the handler of group name.
func (h warnings) WithGroup(name string) slog.Handler { return warnings{h.Handler.WithGroup(name)} }
