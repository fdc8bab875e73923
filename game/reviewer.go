package game

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"oware/engine"
	"oware/engine/search"
	"oware/models"
)

// The reviewer computes the reviews asked for in the background: one at a
// time per instance (reviewsAtOnce), each position a search of the
// computer's pool queued after the replies and hints (so that a review
// never keeps a player waiting for the computer's move), the progress
// written to the reviews table after every ply. The table's row is the
// claim: whichever instance creates it (or finds it stale, its server
// stopped) computes it; asking again while it is under way or done
// changes nothing.

// The statuses of a review.
const (
	ReviewNone    = "none"    // never asked for
	ReviewQueued  = "queued"  // asked for, waiting for its turn
	ReviewRunning = "running" // being computed
	ReviewDone    = "done"    // complete
)

// ReviewStale is how long a queued or running review may go without
// progress before it is taken to be abandoned (its server stopped) and a
// new request starts it again.
const ReviewStale = 10 * time.Minute

// Bounds of the reviewer of an instance: reviews computed at once, and
// reviews waiting or running (more are refused with ErrBusy).
const (
	reviewsAtOnce     = 1
	maxReviewsWaiting = 32
)

// Review is a game's review as it stands.
type Review struct {
	Status string      // ReviewNone, ReviewQueued, ReviewRunning or ReviewDone
	Plies  []ReviewPly // the plies reviewed so far, in order
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

// reviewer holds the reviews this instance queued or computes.
type reviewer struct {
	pool   *Pool
	slots  chan struct{}
	mu     sync.Mutex
	active map[string]bool
}

// newReviewer returns the reviewer of pool.
func newReviewer(p *Pool) *reviewer {
	return &reviewer{pool: p, slots: make(chan struct{}, reviewsAtOnce), active: map[string]bool{}}
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
	return &Review{Status: row.Status, Reviewed: row.Reviewed, Total: row.Total}, nil
}

// reviewOf reads a stored review.
func reviewOf(row *models.Review) (*Review, error) {
	r := &Review{Status: row.Status, Reviewed: row.Reviewed, Total: row.Total}
	if err := json.Unmarshal([]byte(row.Plies), &r.Plies); err != nil {
		return nil, err
	}
	return r, nil
}

// RequestReview asks for the review of sub and returns it as it now is:
// queued when this request started it, else as it stands (asking again
// changes nothing). Errors: ErrReviewTooLong, ErrBusy (no computer, or
// too many reviews waiting in this instance).
func (s *Service) RequestReview(ctx context.Context, sub ReviewSubject) (*Review, error) {
	if len(sub.Moves) > MaxReviewPlies {
		return nil, ErrReviewTooLong
	}
	rv := s.reviews
	if rv == nil {
		return nil, ErrBusy
	}
	rv.mu.Lock()
	if rv.active[sub.Key] {
		rv.mu.Unlock()
		return s.LoadReview(ctx, sub.Key)
	}
	if len(rv.active) >= maxReviewsWaiting {
		rv.mu.Unlock()
		if r, err := s.LoadReview(ctx, sub.Key); err != nil || r.Status != ReviewNone {
			return r, err
		}
		return nil, ErrBusy
	}
	rv.active[sub.Key] = true
	rv.mu.Unlock()
	claimed, row, err := s.db.ClaimReview(ctx, sub.Key, len(sub.Moves), time.Now().Add(-ReviewStale))
	if err != nil || !claimed {
		rv.done(sub.Key)
		if err != nil {
			return nil, err
		}
		return reviewOf(row)
	}
	go s.runReview(sub)
	return reviewOf(row)
}

// done forgets the review under key.
func (rv *reviewer) done(key string) {
	rv.mu.Lock()
	delete(rv.active, key)
	rv.mu.Unlock()
}

// runReview computes the review of sub when its turn comes and stores its
// progress after every ply. A failure leaves the row as it was last
// written: ReviewStale later, a new request starts it again.
func (s *Service) runReview(sub ReviewSubject) {
	rv := s.reviews
	defer rv.done(sub.Key)
	ctx := rv.pool.ctx
	select {
	case rv.slots <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-rv.slots }()
	plies := make([]ReviewPly, 0, len(sub.Moves))
	save := func(status string) error {
		b, err := json.Marshal(plies)
		if err != nil {
			return err
		}
		return s.db.SaveReview(ctx, sub.Key, status, string(b), len(plies))
	}
	if err := save(ReviewRunning); err != nil {
		s.log.Error("review: store", "subject", sub.Key, "err", err)
		return
	}
	lim := search.Limits{MoveTime: ReviewPlyTime(len(sub.Moves))}
	find := func(ctx context.Context, g *engine.Game) (search.Result, error) { return rv.pool.search(ctx, g, lim) }
	err := reviewMoves(ctx, sub.Rules, sub.Start, sub.Moves, sub.Agreed, find, func(p ReviewPly) error {
		plies = append(plies, p)
		return save(ReviewRunning)
	})
	if err == nil {
		err = save(ReviewDone)
	}
	if err != nil && ctx.Err() == nil {
		s.log.Error("review", "subject", sub.Key, "err", err)
	}
}

// reviewRetry is how long a review's search waits before it asks a full
// pool again.
const reviewRetry = 500 * time.Millisecond

// search searches g within lim on a worker, after the replies and hints
// waiting, and waits for room while the pool is full. Errors: ctx's and
// those of search.Searcher.Search.
func (p *Pool) search(ctx context.Context, g *engine.Game, lim search.Limits) (search.Result, error) {
	for {
		var res search.Result
		var serr error
		err := p.do(ctx, func(ctx context.Context, s *search.Searcher) {
			res, serr = s.Search(ctx, g, search.Options{Limits: lim})
		}, true)
		if !errors.Is(err, ErrBusy) {
			if err != nil {
				return res, err
			}
			return res, serr
		}
		select {
		case <-time.After(reviewRetry):
		case <-ctx.Done():
			return res, ctx.Err()
		}
	}
}
