package game

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"oware/engine"
	"oware/engine/search"
	"oware/models"
	"oware/play"
)

// The reviews asked for are durable jobs (reviewArgs, replies.go), worked
// by any process with the computer's workers: one at a time per process
// (reviewsAtOnce), each position a search of its pool queued after the
// replies and hints (so that a review never keeps a player waiting for
// the computer's move), the progress written to the reviews table after
// every ply (Review.Reviewed of Review.Total: what the live progress
// reads), in slices of reviewSlice that go on from it. The table's row is
// the claim: whichever request creates it (or finds it stale, its job
// lost) inserts the job; asking again while it is under way or done
// changes nothing.

// The statuses of a review: play's, so that views share them.
const (
	ReviewNone    = play.ReviewNone    // never asked for
	ReviewQueued  = play.ReviewQueued  // asked for, waiting for its turn
	ReviewRunning = play.ReviewRunning // being computed
	ReviewDone    = play.ReviewDone    // complete
)

// ReviewStale is how long a queued or running review may go without
// progress before it is taken to be abandoned (its server stopped) and a
// new request starts it again.
const ReviewStale = 10 * time.Minute

// Bounds of the reviews: computed at once by a process, and waiting for a
// worker in all (more are refused with ErrBusy).
const (
	reviewsAtOnce     = 1
	maxReviewsWaiting = 32
)

// Review is a game's review as it stands.
type Review struct {
	Status play.ReviewStatus // ReviewNone, ReviewQueued, ReviewRunning or ReviewDone
	Plies  []ReviewPly       // the plies reviewed so far, in order
	// Reviewed counts the plies reviewed of Total (the moves to review).
	Reviewed, Total int
}

// Summary sums up the review's plies per player.
func (r *Review) Summary() ReviewSummary { return Summarize(r.Plies) }

// Ply returns the review of move ply (1-based), if reviewed.
func (r *Review) Ply(ply int) (ReviewPly, bool) {
	if ply < 1 || ply > len(r.Plies) || r.Plies[ply-1].Ply != ply {
		return ReviewPly{}, false
	}
	return r.Plies[ply-1], true
}

// ReviewSubject is what a review replays: a game's rule set, its start,
// its moves and agreements (engine.ReplayMatch), under a key naming it.
type ReviewSubject struct {
	Key    string // "g/<game id>" or "i/<import id>"
	Rules  engine.Rules
	Start  engine.Position
	Moves  []int
	Agreed []int
}

// GameSubject is the subject of g's review.
func GameSubject(g *Game) ReviewSubject {
	if g.Engine == nil { // never started
		return ReviewSubject{Key: "g/" + g.ID, Rules: g.Rules, Start: g.Position}
	}
	return ReviewSubject{Key: "g/" + g.ID, Rules: g.Rules, Start: g.Engine.Start, Moves: g.Engine.Moves, Agreed: g.Engine.Agreements}
}

// ImportSubject is the subject of the review of the imported record id.
func ImportSubject(id string, rec *engine.Record) ReviewSubject {
	return ReviewSubject{Key: "i/" + id, Rules: rec.Rules, Start: rec.Start, Moves: rec.Moves, Agreed: rec.Agreements}
}

// LoadReview returns the review under key (ReviewSubject.Key): Status
// ReviewNone when none was asked for.
func (s *Service) LoadReview(ctx context.Context, key string) (*Review, error) {
	row, err := s.db.LoadReview(ctx, key)
	if errors.Is(err, models.ErrNotFound) {
		return &Review{Status: ReviewNone}, nil
	}
	if err != nil {
		return nil, err
	}
	return reviewOf(row)
}

// ReviewProgress returns how far the review under key is, without its
// plies (Status, Reviewed and Total only): one light read, for the
// progress streams. Status ReviewNone when none was asked for.
func (s *Service) ReviewProgress(ctx context.Context, key string) (*Review, error) {
	row, err := s.db.LoadReviewProgress(ctx, key)
	if errors.Is(err, models.ErrNotFound) {
		return &Review{Status: ReviewNone}, nil
	}
	if err != nil {
		return nil, err
	}
	return &Review{Status: play.ReviewStatus(row.Status), Reviewed: row.Reviewed, Total: row.Total}, nil
}

// reviewOf reads a stored review.
func reviewOf(row *models.Review) (*Review, error) {
	r := &Review{Status: play.ReviewStatus(row.Status), Reviewed: row.Reviewed, Total: row.Total}
	if err := json.Unmarshal([]byte(row.Plies), &r.Plies); err != nil {
		return nil, err
	}
	return r, nil
}

// RequestReview asks for the review of sub and returns it as it now is:
// queued when this request started it, else as it stands (asking again
// changes nothing). Errors: ErrReviewTooLong, ErrBusy (no computer, or
// maxReviewsWaiting reviews wait already).
func (s *Service) RequestReview(ctx context.Context, sub ReviewSubject) (*Review, error) {
	if len(sub.Moves) > MaxReviewPlies {
		return nil, ErrReviewTooLong
	}
	p := s.pool
	if p == nil {
		return nil, ErrBusy
	}
	n, err := p.jobs.Waiting(ctx, reviewQueue, maxReviewsWaiting)
	if err != nil {
		return nil, err
	}
	if n >= maxReviewsWaiting {
		if r, err := s.LoadReview(ctx, sub.Key); err != nil || r.Status != ReviewNone {
			return r, err
		}
		return nil, ErrBusy
	}
	claimed, row, err := s.db.ClaimReview(ctx, sub.Key, len(sub.Moves), time.Now().Add(-ReviewStale))
	if err != nil {
		return nil, err
	}
	if claimed {
		if _, err := p.jobs.Insert(ctx, reviewArgsOf(sub), nil); err != nil {
			return nil, err
		}
	}
	return reviewOf(row)
}

// reviewArgs is the job of a review: its subject, in writing.
type reviewArgs struct {
	Key    string `json:"key" river:"unique"`
	Rules  string `json:"rules"` // the rule set's name
	Start  string `json:"start"` // the start position, RULES.md's position string
	Moves  []int  `json:"moves"`
	Agreed []int  `json:"agreed,omitempty"`
}

// Kind names the job in River's table.
func (reviewArgs) Kind() string { return "review" }

// InsertOpts: the reviews' queue, after the replies, one job per subject.
func (reviewArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: reviewQueue, Priority: reviewPriority, MaxAttempts: 5,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: waitingStates}}
}

// reviewArgsOf writes sub as a job's arguments.
func reviewArgsOf(sub ReviewSubject) reviewArgs {
	return reviewArgs{Key: sub.Key, Rules: sub.Rules.Name(), Start: sub.Rules.FormatPosition(sub.Start),
		Moves: sub.Moves, Agreed: sub.Agreed}
}

// subject reads a job's arguments back.
func (a reviewArgs) subject() (ReviewSubject, error) {
	r, err := engine.RulesByName(a.Rules)
	if err != nil {
		return ReviewSubject{}, err
	}
	start, err := r.ParsePosition(a.Start)
	if err != nil {
		return ReviewSubject{}, err
	}
	return ReviewSubject{Key: a.Key, Rules: r, Start: start, Moves: a.Moves, Agreed: a.Agreed}, nil
}

// reviewSlice is how long a review job computes before it gives its
// worker back (River's JobSnooze(0)): it goes on from its stored progress
// at its next turn, so that no job outlasts jobRescue.
const reviewSlice = 30 * time.Second

// reviewWorker works the review jobs.
type reviewWorker struct {
	river.WorkerDefaults[reviewArgs]
	p *Pool
}

// Timeout lets a review slice run its last ply, however long it waited
// for a worker behind the replies.
func (w *reviewWorker) Timeout(*river.Job[reviewArgs]) time.Duration {
	return jobRescue - 10*time.Second
}

// Work computes the review of job's subject from its stored progress on,
// storing it after every ply, for at most reviewSlice.
func (w *reviewWorker) Work(ctx context.Context, j *river.Job[reviewArgs]) error {
	sub, err := j.Args.subject()
	if err != nil {
		return river.JobCancel(err)
	}
	more, err := w.p.svc.runReview(ctx, sub, time.Now().Add(reviewSlice))
	if more || err != nil && w.p.ctx.Err() != nil {
		return river.JobSnooze(0)
	}
	return err
}

// runReview computes the review of sub from its stored plies on, and
// stores its progress after every ply, until it is done or the time is
// past until; it reports whether plies are left to review. A failure
// leaves the row as it was last written.
func (s *Service) runReview(ctx context.Context, sub ReviewSubject, until time.Time) (bool, error) {
	r, err := s.LoadReview(ctx, sub.Key)
	if err != nil {
		return false, err
	}
	plies := r.Plies
	if r.Status == ReviewDone || r.Status == ReviewNone {
		return false, nil
	}
	save := func(status play.ReviewStatus) error {
		b, err := json.Marshal(plies)
		if err != nil {
			return err
		}
		return s.db.SaveReview(ctx, sub.Key, string(status), string(b), len(plies))
	}
	if err := save(ReviewRunning); err != nil {
		return false, err
	}
	lim := search.Limits{MoveTime: ReviewPlyTime(len(sub.Moves))}
	find := func(ctx context.Context, g *engine.Game) (search.Result, error) { return s.pool.search(ctx, g, lim) }
	err = reviewMoves(ctx, sub.Rules, sub.Start, sub.Moves, sub.Agreed, len(plies), find, func(p ReviewPly) error {
		plies = append(plies, p)
		if err := save(ReviewRunning); err != nil {
			return err
		}
		if time.Now().After(until) {
			return errSliceOver
		}
		return nil
	})
	switch {
	case errors.Is(err, errSliceOver):
		return len(plies) < len(sub.Moves), nil
	case err != nil:
		return false, err
	}
	return false, save(ReviewDone)
}

// errSliceOver stops a review whose slice of time is over.
var errSliceOver = errors.New("game: the review's slice is over")

// search searches g within lim on a worker, after the replies and hints
// waiting, and waits for room while the pool is full. Errors: ctx's and
// those of search.Searcher.Search.
func (p *Pool) search(ctx context.Context, g *engine.Game, lim search.Limits) (search.Result, error) {
	var res search.Result
	var serr error
	err := p.do(ctx, &job{class: classAnalysis, fn: func(ctx context.Context, s *search.Searcher) {
		res, serr = s.Search(ctx, g, search.Options{Limits: lim})
	}})
	if err != nil {
		return res, err
	}
	return res, serr
}

// ImportRecord returns the text of the kept imported record id, or
// ErrNotFound.
func (s *Service) ImportRecord(ctx context.Context, id string) (string, error) {
	im, err := s.db.LoadImport(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", err
	}
	return im.Record, nil
}
