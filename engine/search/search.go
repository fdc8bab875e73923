package search

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"oware/engine"
	"oware/engine/endgame"
)

// Search bounds.
const (
	MaxDepth = 96  // the deepest iteration, in plies
	maxPly   = 128 // the longest line, quiescence included
	// qDepth bounds the quiescence search (captures only) below the depth.
	qDepth = 8
	inf    = int32(1 << 20)
)

// Limits bound a search. A zero field is no bound; with none at all the
// search stops at MaxDepth, when the result is proven, or when its context
// ends.
type Limits struct {
	Depth    int           // plies
	MoveTime time.Duration // wall-clock time
	Nodes    uint64        // positions visited
	// Clock, when its Left is above zero, is the mover's real-time clock:
	// the search spends its share of it (ClockTime), within MoveTime when
	// that is set too.
	Clock Clock
}

// Clock is a player's real-time clock at the start of their move: the
// time Left and the Increment added after the move (UCI's wtime/winc).
type Clock struct {
	Left, Increment time.Duration
}

// ClockTime returns how long a move on clock c may take: a 30th of what
// is left and three quarters of the increment, at most a quarter of what
// is left and at most cap when cap is above zero, at least 10 ms; zero for
// no clock. Spending up to three times as much on a move whose best move
// or value moved between iterations measured -15 Elo (-57 to +26) over
// 250 games on 10 s + 0.1 s clocks and lost on time 40 times against 5
// (docs/engine.md): it was left out.
func ClockTime(c Clock, cap time.Duration) time.Duration {
	if c.Left <= 0 {
		return 0
	}
	t := max(min(c.Left/30+c.Increment*3/4, c.Left/4), 10*time.Millisecond)
	if cap > 0 {
		t = min(t, cap)
	}
	return t
}

// Options are one search's settings beyond its Limits.
type Options struct {
	Limits
	// Noise, in centi-seeds, adds to every evaluation a pseudo-random term
	// in [-Noise, Noise], fixed for a position and Seed: the weaker levels'
	// blunders. Seed also orders the first moves tried, so that equal
	// moves are chosen differently from game to game. The same Seed, limits
	// other than time, and position give the same result.
	Noise int
	Seed  uint64
	// NoTables keeps the endgame tables out of the search.
	NoTables bool
	// Info, when not nil, is called after each finished iteration with the
	// result so far.
	Info func(Result)
	// Threads is how many threads search at once, sharing the
	// transposition table (lazy SMP: the helpers search the same
	// position, every other one a ply deeper, and what they store speeds
	// up the first thread, whose result it is); 0 or 1 is one thread, at
	// most MaxThreads. With more than one a search is no longer
	// reproducible: the same position may give another move or depth.
	Threads int
}

// MaxThreads bounds Options.Threads.
const MaxThreads = 64

// Result is what a search found. Scores are in centi-seeds (100 = one
// seed) from the side of the player to move: the capture difference the
// search expects at the end of the game (the evaluation where the search
// stops short of the end).
type Result struct {
	Best  int   // the pit to sow, 0..11
	Score int   // centi-seeds
	Depth int   // plies of the last finished iteration
	PV    []int // the principal variation, Best first
	// Exact: Score is proven, every line behind it played to the end of the
	// game or to a position the endgame tables decide exactly. The result
	// (win, draw or loss) is then certain; see the package documentation
	// for the number itself.
	Exact bool
	// Proven is the result for the player to move when the search proved
	// it even though the value is not exact: "win" (a move is proven to
	// win), "loss" (every move is proven to lose), "draw"; "" when not.
	Proven string
	Nodes  uint64
	Time   time.Duration
	// Cutoffs counts the nodes whose search stopped at a move reaching
	// beta, FirstCutoffs those where it was the first move tried: their
	// ratio measures the move ordering.
	Cutoffs, FirstCutoffs uint64
}

// ErrGameOver is returned for a game that is over: there is nothing to
// search.
var ErrGameOver = errors.New("search: the game is over")

// Tables gives the search its endgame tables; *endgame.Cache is one. A
// nil Table (none for these rules yet) is fine.
type Tables interface {
	Table(rules engine.Oware) *endgame.Table
}

// Searcher searches positions of any rule set. It keeps its transposition
// table from one search to the next (its entries keyed by the rule set and
// its setting too, so that searches of different rules never share one),
// so it is not safe for concurrent use: give each worker its own.
type Searcher struct {
	// Weights are the evaluation terms (DefaultWeights by NewSearcher).
	Weights Weights
	// Book is the opening book levels 6 to 8 play from (DefaultBook by
	// NewSearcher; nil for none).
	Book   *Book
	tt     *table
	keys   *keys
	tables Tables
	// newPlay gives a search the moves of its rules (playFor; tests make
	// them slow).
	newPlay func(engine.Rules, *engine.Budget) play
}

// NewSearcher returns a searcher with a transposition table of about
// hashMB megabytes (at least 64 KB) and the endgame tables (nil for none).
func NewSearcher(hashMB int, tables Tables) *Searcher {
	return &Searcher{Weights: DefaultWeights(), Book: DefaultBook(), tt: newTable(hashMB), keys: newKeys(), tables: tables, newPlay: playFor}
}

// NewGame forgets what the transposition table learned (before a new game
// against a different opponent, or to make searches independent).
func (s *Searcher) NewGame() { s.tt.clear() }

// Search finds the best move of g's player to move within opt's limits, by
// iterative deepening principal variation search (RULES.md applied exactly,
// the repetition rule along the game and the search path). It returns
// ErrGameOver for a finished game, or ctx's error when ctx is cancelled
// before the first iteration is done (Result.Best is then still a legal
// move, the first of the seed's order, unsearched). A search cut short
// otherwise (its MoveTime, its node limit, ctx's deadline) returns its best
// so far, always a legal move, without error: Depth 0 when no iteration
// finished.
//
// A search stops within a few milliseconds of its MoveTime or ctx's end
// (it looks every 128 nodes, and at once in a costly check), in every
// rule set: Nam-nam's legality checks (RULES.md 4.4, which a
// position can make cost millions of relay laps) run within a budget of
// the search's own that the deadline or ctx's end stops (engine.Budget),
// in place of the budget of g's rules (their cache is kept). Only the
// legal moves of g's own position are decided with g's rules, before the
// search starts: bound that cost with g's budget.
func (s *Searcher) Search(ctx context.Context, g *engine.Game, opt Options) (Result, error) {
	legal := g.LegalMoves()
	if g.Over || legal == 0 {
		return Result{}, ErrGameOver
	}
	s.tt.age++
	r := s.newRun(ctx, g, opt)
	defer r.release()
	if opt.Threads <= 1 {
		return r.iterate(legal)
	}
	return r.withHelpers(g, legal, min(opt.Threads, MaxThreads)-1)
}

// withHelpers runs r's search and n helpers' (lazy SMP, Options.Threads)
// and returns r's result, with the nodes of all.
func (r *run) withHelpers(g *engine.Game, legal engine.Moves, n int) (Result, error) {
	var halt atomic.Bool
	var wg sync.WaitGroup
	helpers := make([]*run, n)
	opt := r.opt
	opt.Info, opt.Nodes = nil, 0 // the first thread's node limit stops all
	for i := range helpers {
		h := r.newRun(r.ctx, g, opt)
		h.halt, h.helper, h.skip = &halt, true, (i+1)%2
		helpers[i] = h
		wg.Go(func() {
			defer h.release()
			h.iterate(legal)
		})
	}
	r.halt = &halt
	res, err := r.iterate(legal)
	halt.Store(true)
	wg.Wait()
	for _, h := range helpers {
		res.Nodes += h.nodes
	}
	return res, err
}

// run is the state of one search.
type run struct {
	*Searcher
	ctx      context.Context
	opt      Options
	rules    engine.Rules
	play     play
	oware    bool
	table    *endgame.Table
	start    time.Time
	deadline time.Time
	nodes    uint64
	// cutoffs and firstCutoffs count the beta cutoffs, and those by the
	// first move tried (Result.Cutoffs).
	cutoffs, firstCutoffs uint64
	stopped               bool
	noiseKey              uint64
	// halt, when not nil, stops the search when set: the lazy SMP helpers'
	// and the first thread's (withHelpers). A helper (helper) keeps
	// deepening until halted, skip plies deeper than the first thread.
	halt   *atomic.Bool
	helper bool
	skip   int
	// budget bounds Nam-nam's legality checks (nil for Oware); the deadline
	// and ctx's end stop it. release stops watching them.
	budget  *engine.Budget
	release func()
	// rulesKey sets the rule set's entries of the transposition table
	// apart from the others' (see rulesKey).
	rulesKey uint64
	// reps holds the board keys the repetition rule compares: the game's
	// positions since its last capture, then the search path.
	reps []uint64
	// repLow is the lowest index in reps that a repetition found in the
	// subtree searched now went back to (noRepetition when none). A node
	// whose subtree went back above the node itself has a value that holds
	// on this path only: the table keeps its move, not its value (see
	// node).
	repLow int
	// historyKey mixes the game's positions since its last capture into
	// the table's keys of the positions searched before any capture on
	// the path: their values depend on that history (a search of another
	// move of the game, or of another game, has another).
	historyKey uint64
	pos        [maxPly + 1]engine.Position
	killers    [maxPly][2]int8
	history    [2][engine.NumPits]int32
	pv         [maxPly + 1][maxPly + 1]int8
	pvLen      [maxPly + 1]int
}

func (s *Searcher) newRun(ctx context.Context, g *engine.Game, opt Options) *run {
	r := &run{Searcher: s, ctx: ctx, opt: opt, rules: g.Rules, start: time.Now(), release: func() {}}
	if opt.Clock.Left > 0 {
		r.opt.MoveTime = ClockTime(opt.Clock, opt.MoveTime)
	}
	replay := g.Rules
	if n, ok := g.Rules.(engine.NamNam); ok {
		r.budget = engine.NewBudget(math.MaxInt64 / 2)
		n.Budget = r.budget
		replay = n
		stopCtx := context.AfterFunc(ctx, r.budget.Stop)
		r.release = func() { stopCtx() }
		if r.opt.MoveTime > 0 {
			timer := time.AfterFunc(r.opt.MoveTime, r.budget.Stop)
			r.release = func() { stopCtx(); timer.Stop() }
		}
	}
	r.play = s.newPlay(g.Rules, r.budget)
	if o, ok := g.Rules.(engine.Oware); ok {
		r.oware = true
		if s.tables != nil && !opt.NoTables {
			r.table = s.tables.Table(o)
		}
	}
	if opt := r.opt; opt.MoveTime > 0 {
		r.deadline = r.start.Add(opt.MoveTime - min(time.Duration(float64(opt.MoveTime)*stopMargin), maxMargin))
	}
	state := opt.Seed
	r.noiseKey = splitmix64(&state)
	r.rulesKey = rulesKey(g.Rules)
	for _, p := range sinceCapture(g, replay) {
		r.reps = append(r.reps, s.keys.board(&p))
		r.historyKey ^= mixKey(s.keys.board(&p))
	}
	r.pos[0] = g.Position
	r.repLow = noRepetition
	return r
}

// rootMove is a move of the root position and what the last iteration
// found for it.
type rootMove struct {
	pit   int
	score int32
	exact bool
}

// iterate runs the iterations of deepening search.
func (r *run) iterate(legal engine.Moves) (Result, error) {
	moves := r.rootMoves(legal)
	best := Result{Best: moves[0].pit, PV: []int{moves[0].pit}}
	maxDepth := MaxDepth
	if r.opt.Depth > 0 {
		maxDepth = min(r.opt.Depth, MaxDepth)
	}
	for depth := 1 + r.skip; depth <= maxDepth; depth++ {
		score, exact, done := r.aspire(depth, moves, int32(best.Score))
		if done == 0 {
			break // stopped before the first move of this depth was searched
		}
		best = Result{Best: moves[0].pit, Score: int(score), Depth: depth, Exact: exact && done == len(moves)}
		best.Proven = outcome(moves[:done], best.Exact)
		best.PV = r.line(0)
		if done < len(moves) {
			best.Depth = depth - 1 // partial: the best so far, as deep as the last full iteration
			break
		}
		best.Nodes, best.Time, best.Cutoffs, best.FirstCutoffs = r.nodes, time.Since(r.start), r.cutoffs, r.firstCutoffs
		if r.opt.Info != nil {
			r.opt.Info(best)
		}
		if best.Exact || r.stopped || r.noTimeForMore() {
			break
		}
	}
	best.Nodes, best.Time, best.Cutoffs, best.FirstCutoffs = r.nodes, time.Since(r.start), r.cutoffs, r.firstCutoffs
	if best.Depth == 0 && errors.Is(r.ctx.Err(), context.Canceled) {
		return best, r.ctx.Err()
	}
	return best, nil
}

// outcome tells the result the root moves prove: the first holds the best
// value (proven or not), the others an upper bound or their value.
func outcome(moves []rootMove, exact bool) string {
	best := moves[0]
	switch {
	case best.exact && best.score > 0:
		return "win"
	case exact && best.score < 0:
		return "loss"
	case exact:
		return "draw"
	}
	return ""
}

// line returns the principal variation below the root, from ply.
func (r *run) line(ply int) []int {
	var pits []int
	for _, m := range r.pv[ply][:r.pvLen[ply]] {
		pits = append(pits, int(m))
	}
	return pits
}

// Time use: a timed search starts another iteration while less than
// startMore of its time is spent (an iteration cut short still gives the
// best move it found, the previous best first), and stops stopMargin of
// its time (at most maxMargin) before the end, so that the answer is out
// in time.
const (
	startMore  = 0.7
	stopMargin = 1.0 / 64
	maxMargin  = 15 * time.Millisecond
)

// noTimeForMore: the next iteration should not start.
func (r *run) noTimeForMore() bool {
	return !r.helper && !r.deadline.IsZero() && float64(time.Since(r.start)) > startMore*float64(r.opt.MoveTime)
}

// rootMoves lists the legal moves in an order drawn from the seed.
func (r *run) rootMoves(legal engine.Moves) []rootMove {
	var moves []rootMove
	for _, pit := range legal.Pits() {
		moves = append(moves, rootMove{pit: pit})
	}
	state := r.opt.Seed
	for i := len(moves) - 1; i > 0; i-- {
		j := int(splitmix64(&state) % uint64(i+1))
		moves[i], moves[j] = moves[j], moves[i]
	}
	return moves
}

// Aspiration windows: from depth aspireFrom on, an iteration searches the
// root within aspireWindow centi-seeds of the last iteration's score; a
// score outside makes it search again with that side of the window
// aspireGrow times as wide, then open.
const (
	aspireFrom   = 4
	aspireWindow = 50
	aspireGrow   = 4
)

// aspire searches the root moves at depth within an aspiration window
// around prev, the last iteration's score, widened until the score falls
// inside it. It returns as root does; a search stopped after the first
// move failed high returns that move's bound as one move searched.
func (r *run) aspire(depth int, moves []rootMove, prev int32) (int32, bool, int) {
	p := &r.pos[0]
	most := 100 * int32(finalDiff(p, p.ToMove)+p.BoardSeeds())
	if depth < aspireFrom {
		return r.root(depth, moves, -inf, most)
	}
	delta := int32(aspireWindow)
	lo, hi := max(prev-delta, -inf), min(prev+delta, most)
	failedHigh := false
	for {
		score, exact, done := r.root(depth, moves, lo, hi)
		switch {
		case done < len(moves):
			if done == 0 && failedHigh {
				return moves[0].score, false, 1
			}
			return score, exact, done
		case score <= lo && lo > -inf:
			lo = max(score-delta, -inf)
		case score >= hi && hi < most:
			hi, failedHigh = min(score+delta, most), true
		default:
			return score, exact, done
		}
		if delta *= aspireGrow; delta > 100*engine.TotalSeeds {
			lo, hi = -inf, most
		}
	}
}

// root searches the root moves at depth within (alpha, beta), the best of
// the last iteration first, and moves the new best to the front. It
// returns the best score (at most alpha when no move beats alpha, at least
// beta as soon as one reaches beta), whether it is proven, and how many
// moves were searched before a stop (all of them after a move reached
// beta).
func (r *run) root(depth int, moves []rootMove, alpha, beta int32) (int32, bool, int) {
	p := &r.pos[0]
	most := 100 * int32(finalDiff(p, p.ToMove)+p.BoardSeeds())
	best := -inf
	exact := true
	for i := range moves {
		v, ex := r.child(0, depth, moves[i].pit, alpha, beta, i == 0, 0)
		if r.stopped {
			return moves[0].score, false, i
		}
		moves[i].score, moves[i].exact = v, ex
		exact = exact && ex
		best = max(best, v)
		if i > 0 && v <= alpha {
			continue
		}
		r.setPV(0, moves[i].pit)
		m := moves[i]
		copy(moves[1:i+1], moves[:i])
		moves[0] = m
		switch {
		case ex && v >= most: // nothing can do better: the other moves need no search
			return v, true, len(moves)
		case v >= beta:
			return v, false, len(moves)
		}
		alpha = max(alpha, v)
	}
	return best, exact, len(moves)
}

// setPV makes pit, then the line below, the principal variation at ply.
func (r *run) setPV(ply, pit int) {
	r.pv[ply][0] = int8(pit)
	n := copy(r.pv[ply][1:], r.pv[ply+1][:r.pvLen[ply+1]])
	r.pvLen[ply] = n + 1
}

// child plays pit in the position at ply and returns its value for the
// player to move at ply, searched depth-1 plies deeper (first: with the
// full window, else a null window first, as principal variation search
// does). seg is where the ply's stretch without capture begins in reps.
func (r *run) child(ply, depth, pit int, alpha, beta int32, first bool, seg int) (int32, bool) {
	p := &r.pos[ply]
	c := &r.pos[ply+1]
	*c = *p
	me := p.ToMove
	ended := r.play.apply(c, pit)
	if r.outOfWork() {
		r.pvLen[ply+1] = 0
		return 0, false
	}
	if ended {
		r.pvLen[ply+1] = 0
		return 100 * int32(finalDiff(c, me)), true
	}
	board := r.keys.board(c)
	captured := c.Captured != p.Captured
	if i := slices.Index(r.reps[seg:], board); !captured && i >= 0 {
		r.repLow = min(r.repLow, seg+i)
		settled := r.rules.Settle(*c)
		r.pvLen[ply+1] = 0
		return 100 * int32(finalDiff(&settled, me)), true
	}
	childSeg := seg
	if captured {
		childSeg = len(r.reps)
	}
	r.reps = append(r.reps, board)
	defer func() { r.reps = r.reps[:len(r.reps)-1] }()
	search := func(a, b int32) (int32, bool) {
		if c.ToMove == me { // warri: the mover plays again after a grand slam
			return r.node(ply+1, depth-1, a, b, childSeg)
		}
		v, ex := r.node(ply+1, depth-1, -b, -a, childSeg)
		return -v, ex
	}
	if first || beta-alpha == 1 {
		return search(alpha, beta)
	}
	v, ex := search(alpha, alpha+1)
	if v > alpha && v < beta && !r.stopped {
		v, ex = search(alpha, beta)
	}
	return v, ex
}

// checkStop looks at the clock, the node count and the context every 128
// nodes and reports whether the search must stop.
func (r *run) checkStop() bool {
	if r.stopped {
		return true
	}
	r.nodes++
	if r.nodes&127 != 0 {
		return false
	}
	switch {
	case r.opt.Nodes > 0 && r.nodes >= r.opt.Nodes,
		!r.deadline.IsZero() && time.Now().After(r.deadline),
		r.halt != nil && r.halt.Load(),
		r.ctx.Err() != nil:
		r.stopped = true
	}
	return r.stopped
}

// outOfWork reports whether the search must stop because the budget of
// Nam-nam's legality checks ran out (its time is up), and marks it
// stopped: a check cut short leaves a move list or a move undecided.
func (r *run) outOfWork() bool {
	if r.budget != nil && r.budget.Err() != nil {
		r.stopped = true
	}
	return r.stopped
}

// noRepetition is repLow when no repetition was found.
const noRepetition = math.MaxInt

// node returns the value of the position at ply for its player to move
// and whether it is proven (in the direction of the bound when it falls
// outside (alpha, beta)). The position's board key is the last of reps;
// seg is where its stretch without capture begins. It keeps in repLow the
// lowest of the repetitions found in its subtree and those found before.
func (r *run) node(ply, depth int, alpha, beta int32, seg int) (int32, bool) {
	outer := r.repLow
	r.repLow = noRepetition
	v, ex := r.search(ply, depth, alpha, beta, seg)
	r.repLow = min(outer, r.repLow)
	return v, ex
}

// search is node's search of the position at ply, repLow starting at
// noRepetition. A value that a repetition of a position above the node
// decided (the graph-history interaction: the same position reached by
// another path may not repeat it) is not stored in the transposition
// table, only the best move is.
func (r *run) search(ply, depth int, alpha, beta int32, seg int) (int32, bool) {
	r.pvLen[ply] = 0
	if r.checkStop() {
		return 0, false
	}
	p := &r.pos[ply]
	fresh := seg == len(r.reps)-1
	if v, ex, done := r.probe(p, fresh, depth, alpha, beta); done {
		return v, ex
	}
	if depth <= 0 || ply >= maxPly-qDepth-1 {
		return r.quiesce(ply, alpha, beta, qDepth), false
	}
	key := r.keys.full(p, r.reps[len(r.reps)-1]) ^ r.rulesKey
	if seg == 0 {
		key ^= r.historyKey
	}
	ttMove := -1
	if e, ok := r.tt.probe(key); ok {
		ttMove = int(e.move)
		proved := fresh && e.flags&proven != 0
		if (int(e.depth) >= depth || proved) && beta-alpha == 1 {
			switch e.flags & boundExact {
			case boundExact:
				return e.score, proved
			case boundLower:
				if e.score >= beta {
					return e.score, proved
				}
			case boundUpper:
				if e.score <= alpha {
					return e.score, proved
				}
			}
		}
	}
	// No line can do better than the mover taking every seed on the board:
	// a proven value that reaches it needs no other move tried.
	if most := 100 * int32(finalDiff(p, p.ToMove)+p.BoardSeeds()); most < beta {
		if beta = most; alpha >= beta {
			return beta, true
		}
	}
	var order [engine.NumPits]int
	n := r.order(ply, ttMove, order[:])
	if r.outOfWork() {
		return 0, false
	}
	alphaIn, best, bestPit, exact := alpha, -inf, -1, true
	for i, pit := range order[:n] {
		v, ex := r.searchMove(ply, depth, i, pit, ttMove, alpha, beta, seg)
		if r.stopped {
			return 0, false
		}
		exact = exact && ex
		if v > best {
			best, bestPit = v, pit
			if v > alpha {
				alpha = v
				r.setPV(ply, pit)
				if v >= beta {
					exact = ex
					r.countCutoff(i)
					r.reward(ply, depth, pit)
					break
				}
			}
		}
	}
	flags := boundExact
	switch {
	case best <= alphaIn:
		flags = boundUpper
	case best >= beta:
		flags = boundLower
	}
	if exact && fresh {
		flags |= proven
	}
	if r.repLow < len(r.reps)-1 {
		r.tt.storeMove(key, int8(bestPit))
		return best, exact
	}
	r.tt.store(key, best, depth, flags, int8(bestPit))
	return best, exact
}

// probe looks p up in the endgame tables. A position right after a capture
// (fresh) gets its proven bounds: exact, or a bound outside the window,
// ends the node. At the horizon, any position the table covers takes the
// middle of its bounds as its value (not proven).
func (r *run) probe(p *engine.Position, fresh bool, depth int, alpha, beta int32) (int32, bool, bool) {
	if r.table == nil || p.BoardSeeds() > r.table.MaxSeeds() {
		return 0, false, false
	}
	lo, hi, _ := r.table.Probe(p)
	base := 100 * int32(finalDiff(p, p.ToMove))
	l, h := base+100*int32(lo), base+100*int32(hi)
	switch {
	case fresh && (l == h || l >= beta):
		return l, true, true
	case fresh && h <= alpha:
		return h, true, true
	case depth <= 0:
		return (l + h) / 2, false, true
	}
	return 0, false, false
}

// order puts the legal moves of the position at ply in the order to try:
// the table's move, captures (the largest first), the killers, then by
// history. It returns how many there are.
func (r *run) order(ply, ttMove int, pits []int) int {
	p := &r.pos[ply]
	var keys [engine.NumPits]int32
	n := 0
	for m := uint16(r.play.legal(p)); m != 0; m &= m - 1 {
		pit := bits.TrailingZeros16(m)
		k := r.history[p.ToMove][pit]
		switch {
		case pit == ttMove:
			k = 1 << 30
		case r.capturable(p, pit) > 0:
			k = 1<<28 + int32(r.capturable(p, pit))<<8
		case int8(pit) == r.killers[ply][0]:
			k = 1 << 27
		case int8(pit) == r.killers[ply][1]:
			k = 1<<27 - 1
		}
		pits[n], keys[n] = pit, k
		n++
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && keys[j] > keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
			pits[j], pits[j-1] = pits[j-1], pits[j]
		}
	}
	return n
}

// searchMove searches the i-th move of the order (see child). A quiet move
// late in the order is first searched a ply less deep (a late move
// reduction), and at full depth only if it then beats alpha.
func (r *run) searchMove(ply, depth, i, pit, ttMove int, alpha, beta int32, seg int) (int32, bool) {
	if r.reducible(ply, depth, i, pit, ttMove, beta-alpha == 1) {
		if v, ex := r.child(ply, depth-1, pit, alpha, alpha+1, false, seg); v <= alpha || r.stopped {
			return v, ex
		}
	}
	return r.child(ply, depth, pit, alpha, beta, i == 0, seg)
}

// reducible tells whether the i-th move of the order may be searched less
// deeply first: in a null-window node at least 3 plies from the horizon,
// after the first two moves, a move that neither captures nor is the
// table's or a killer.
func (r *run) reducible(ply, depth, i, pit, ttMove int, nullWindow bool) bool {
	k := r.killers[ply]
	return nullWindow && depth >= 3 && i >= 2 && pit != ttMove && int8(pit) != k[0] && int8(pit) != k[1] &&
		r.capturable(&r.pos[ply], pit) == 0
}

// capturable estimates the seeds a move captures, from where its last
// seed lands (Oware, fewer than 12 seeds; 0 otherwise).
func (r *run) capturable(p *engine.Position, pit int) int {
	c := int(p.Pits[pit])
	if !r.oware || c >= engine.NumPits {
		return 0
	}
	land := (pit + c) % engine.NumPits
	if k := p.Pits[land]; engine.RowOf(land) != p.ToMove && (k == 1 || k == 2) {
		return int(k) + 1
	}
	return 0
}

// countCutoff counts a beta cutoff by the i-th move of the order.
func (r *run) countCutoff(i int) {
	r.cutoffs++
	if i == 0 {
		r.firstCutoffs++
	}
}

// reward remembers a move that refuted the position: a killer of its ply
// and a history bonus.
func (r *run) reward(ply, depth, pit int) {
	k := &r.killers[ply]
	if k[0] != int8(pit) {
		k[1], k[0] = k[0], int8(pit)
	}
	h := &r.history[r.pos[ply].ToMove][pit]
	if *h += int32(depth * depth); *h > 1<<20 {
		for s := range r.history {
			for i := range r.history[s] {
				r.history[s][i] /= 2
			}
		}
	}
}

// quiesce settles the captures at the horizon: the player to move may take
// the evaluation as it stands or try a capture, q plies deep at most.
func (r *run) quiesce(ply int, alpha, beta int32, q int) int32 {
	p := &r.pos[ply]
	stand := r.evaluate(p)
	if stand >= beta || q == 0 || ply >= maxPly-1 {
		return stand
	}
	alpha = max(alpha, stand)
	best := stand
	me := p.ToMove
	legal := r.play.legal(p)
	for m := uint16(legal); m != 0 && !r.outOfWork(); m &= m - 1 {
		c := &r.pos[ply+1]
		*c = *p
		var v int32
		ended := r.play.apply(c, bits.TrailingZeros16(m))
		if r.outOfWork() {
			break
		}
		if ended {
			v = 100 * int32(finalDiff(c, me))
		} else if c.Captured == p.Captured {
			continue
		} else if v0, _, ok := r.probe(c, true, 0, -inf, inf); ok && c.ToMove != me {
			v = -v0
		} else if ok {
			v = v0
		} else if c.ToMove == me {
			v = r.quiesce(ply+1, alpha, beta, q-1)
		} else {
			v = -r.quiesce(ply+1, -beta, -alpha, q-1)
		}
		if v > best {
			if best = v; v > alpha {
				if alpha = v; v >= beta {
					break
				}
			}
		}
	}
	return best
}

// evaluate scores a position the search does not look beyond, with the
// level's noise.
func (r *run) evaluate(p *engine.Position) int32 {
	var v int32
	if r.oware {
		v = r.Weights.evaluate(p)
	} else {
		v = r.evaluateOwned(p)
	}
	if r.opt.Noise > 0 {
		h := (r.keys.full(p, r.keys.board(p)) ^ r.noiseKey) * 0x9E3779B97F4A7C15
		v += int32(h>>33%uint64(2*r.opt.Noise+1)) - int32(r.opt.Noise)
	}
	return v
}

// evaluateOwned scores a Nam-nam position: captures and stores, and a
// part of the seeds in the pits each player owns.
func (r *run) evaluateOwned(p *engine.Position) int32 {
	me := p.ToMove
	owned := 0
	for i, c := range p.Pits {
		switch p.Owner[i] {
		case me:
			owned += int(c)
		case me.Opponent():
			owned -= int(c)
		}
	}
	return int32(100*finalDiff(p, me) + r.Weights.Row*owned)
}
