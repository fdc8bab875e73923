package tutor

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"oware/engine"
	"oware/engine/puzzle"
	"oware/engine/search"
)

// The kinds of goal a task may set (Goal.Kind).
const (
	GoalPlay     = "play"     // one of the moves the step names (Goal.Accept)
	GoalLegal    = "legal"    // tick every legal move
	GoalBest     = "best"     // the best move by a deep search margin
	GoalBook     = "book"     // a move the opening book plays (search.DefaultBook)
	GoalCapture  = "capture"  // a move that captures at least Goal.N seeds
	GoalFeed     = "feed"     // a move that feeds the opponent's empty row
	GoalSave     = "save"     // a move after which the opponent cannot capture Goal.Pit
	GoalPractice = "practice" // play the position out against the computer
)

// The targets of a practice (Goal.Target).
const (
	TargetWin     = "win"     // win the game
	TargetDraw    = "draw"    // draw it at least
	TargetCapture = "capture" // capture at least Goal.N seeds in the game
)

// Goal is what a task asks for. Its source form (a step's "task:" line,
// ParseGoal and String) is the kind and its arguments: "play", "legal",
// "best", "book", "capture 3" ("capture" alone is "capture 1"), "feed", "save b",
// "practice win level=3", "practice draw level=5", "practice capture 6
// level=2".
type Goal struct {
	Kind string
	// N is the least number of seeds of "capture" and "practice capture".
	N int
	// Pit is the pit "save" keeps from capture (0..11), on the mover's row.
	Pit int
	// Target and Level are a practice's: what the learner must reach and
	// the computer's level (search.Level, 1..8) the learner plays against.
	Target string
	Level  search.Level
}

// ErrBadGoal is wrapped by the errors of a goal that cannot be read.
var ErrBadGoal = errors.New("tutor: bad goal")

// ParseGoal reads a goal in its source form (see Goal); errors wrap
// ErrBadGoal.
func ParseGoal(s string) (Goal, error) {
	f := strings.Fields(s)
	bad := func(why string) (Goal, error) { return Goal{}, fmt.Errorf("%w %q: %s", ErrBadGoal, s, why) }
	if len(f) == 0 {
		return bad("empty")
	}
	g := Goal{Kind: f[0]}
	args := f[1:]
	switch g.Kind {
	case GoalPlay, GoalLegal, GoalBest, GoalBook, GoalFeed:
		if len(args) > 0 {
			return bad(g.Kind + " takes no argument")
		}
	case GoalCapture:
		g.N = 1
		if len(args) > 1 {
			return bad("capture takes one number")
		}
		if len(args) == 1 {
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 1 || n > engine.TotalSeeds {
				return bad("capture wants a number of seeds, 1 to 48")
			}
			g.N = n
		}
	case GoalSave:
		if len(args) != 1 {
			return bad("save takes one pit label")
		}
		pit, err := engine.ParseLabel(args[0])
		if err != nil {
			return bad("save wants a pit label A-F or a-f")
		}
		g.Pit = pit
	case GoalPractice:
		return parsePractice(g, args, bad)
	default:
		return bad("unknown goal")
	}
	return g, nil
}

// parsePractice reads the arguments of "practice": a target (win, draw,
// capture N) and level=L.
func parsePractice(g Goal, args []string, bad func(string) (Goal, error)) (Goal, error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "level="):
			l, err := search.ParseLevel(strings.TrimPrefix(a, "level="))
			if err != nil {
				return bad("level wants 1 to 8")
			}
			g.Level = l
		case a == TargetWin || a == TargetDraw:
			g.Target = a
		case a == TargetCapture && i+1 < len(args):
			n, err := strconv.Atoi(args[i+1])
			if err != nil || n < 1 || n > engine.TotalSeeds {
				return bad("capture wants a number of seeds, 1 to 48")
			}
			g.Target, g.N = a, n
			i++
		default:
			return bad(fmt.Sprintf("unknown practice argument %q", a))
		}
	}
	if g.Target == "" || g.Level == 0 {
		return bad("practice wants a target (win, draw, capture N) and level=L")
	}
	return g, nil
}

// String writes g in its source form (ParseGoal reads it back).
func (g Goal) String() string {
	switch g.Kind {
	case GoalCapture:
		return "capture " + strconv.Itoa(g.N)
	case GoalSave:
		return "save " + engine.Label(g.Pit)
	case GoalPractice:
		t := g.Target
		if t == TargetCapture {
			t += " " + strconv.Itoa(g.N)
		}
		return fmt.Sprintf("practice %s level=%d", t, g.Level)
	}
	return g.Kind
}

// Unmet is the error of a goal the position cannot meet: why, as a message
// id of the catalogs with its data (Localize), and in English (Error).
type Unmet struct {
	Key  string // the message id, "goal_unmet_..."
	Data []any  // its name, value pairs
	Text string // the same in English, for logs and tests
}

func (e *Unmet) Error() string { return "tutor: " + e.Text }

// Localize says why in the learner's language (a plural message by its
// "Count").
func (e *Unmet) Localize(l Localizer) string {
	for i := 0; i+1 < len(e.Data); i += 2 {
		if n, ok := e.Data[i+1].(int); ok && e.Data[i] == "Count" {
			return l.N(e.Key, n, e.Data...)
		}
	}
	return l.T(e.Key, e.Data...)
}

func unmet(key, text string, data ...any) error { return &Unmet{Key: key, Text: text, Data: data} }

// Accepted returns the moves that meet goal g on pos under r, as the
// engine finds them: for "play" the legal moves of accept (each must be
// legal), for "legal" every legal move, for a practice every legal move
// (the game starts with any). It returns an *Unmet error when no move
// meets the goal, when every move of the mover's pits with seeds does
// (a task without a wrong answer teaches nothing; "legal", "play" and practice excepted), or when
// the goal does not fit the position (a feed while the opponent's row has
// seeds, "save" of an opponent's or empty pit, "best" in Nam-nam or with
// more than puzzle.MaxDeepSeeds seeds on the board, a practice the deep
// search finds lost). "best" searches every move puzzle.DeepDepth plies
// deep (puzzle.Deep, no tables): the accepted moves are those of the best
// value, which must beat every other move's by puzzle.DeepMargin seeds; it
// takes up to a few seconds and is kept, by position, for later calls.
// "book" accepts the moves the opening book plays (within
// search.BookMargin of its best value), an *Unmet error outside Abapa or
// the book. Only ctx's error is returned otherwise.
func Accepted(ctx context.Context, g Goal, r engine.Rules, pos engine.Position, accept engine.Moves) (engine.Moves, error) {
	legal := r.LegalMoves(pos)
	if legal == 0 {
		return 0, unmet("goal_unmet_no_moves", "the player to move has no legal move")
	}
	var ok engine.Moves
	switch g.Kind {
	case GoalPlay:
		if accept == 0 {
			return 0, unmet("goal_unmet_play_none", "a play task names its moves")
		}
		if bad := accept &^ legal; bad != 0 {
			return 0, unmet("goal_unmet_not_legal", "not legal: "+labelList(bad), "Labels", labelList(bad))
		}
		return accept, nil
	case GoalLegal:
		return legal, nil
	case GoalPractice:
		return legal, checkPractice(ctx, g, r, pos)
	case GoalBest:
		return best(ctx, r, pos)
	case GoalBook:
		return bookMoves(r, pos)
	case GoalFeed:
		if pos.RowSeeds(pos.ToMove.Opponent()) != 0 {
			return 0, unmet("goal_unmet_feed_row", "the opponent's row is not empty: nothing to feed")
		}
	case GoalSave:
		if engine.RowOf(g.Pit) != pos.ToMove && !ownsPit(r, pos, g.Pit) {
			return 0, unmet("goal_unmet_save_theirs", "the pit to save is not the mover's", "Label", engine.Label(g.Pit))
		}
		if pos.Pits[g.Pit] == 0 {
			return 0, unmet("goal_unmet_save_empty", "the pit to save is empty", "Label", engine.Label(g.Pit))
		}
	case GoalCapture:
	default:
		return 0, unmet("goal_unmet_kind", "unknown goal "+g.Kind)
	}
	for _, pit := range legal.Pits() {
		after, mv, err := r.Play(pos, pit)
		if err != nil {
			return 0, fmt.Errorf("tutor: legal %s refused: %w", engine.Label(pit), err)
		}
		if meets(g, r, mv, after) {
			ok |= 1 << pit
		}
	}
	switch {
	case ok == 0:
		return 0, noneMeets(g)
	case ok == seeded(r, pos):
		return 0, unmet("goal_unmet_all", "every move meets the goal: nothing to find")
	}
	return ok, nil
}

// seeded returns the mover's pits that hold seeds (the moves a learner
// may try; some may be illegal).
func seeded(r engine.Rules, pos engine.Position) engine.Moves {
	var m engine.Moves
	for pit := range engine.NumPits {
		if pos.Pits[pit] > 0 && (engine.RowOf(pit) == pos.ToMove && !isNamNam(r) || ownsPit(r, pos, pit)) {
			m |= 1 << pit
		}
	}
	return m
}

func isNamNam(r engine.Rules) bool { _, ok := r.(engine.Rounds); return ok }

// ownsPit reports whether the mover of pos owns pit in Nam-nam's
// ownership (RULES.md 4).
func ownsPit(r engine.Rules, pos engine.Position, pit int) bool {
	return isNamNam(r) && pos.Owner[pit] == pos.ToMove
}

// meets reports whether the legal move mv, leaving after, meets g (one of
// capture, feed, save).
func meets(g Goal, r engine.Rules, mv engine.Move, after engine.Position) bool {
	switch g.Kind {
	case GoalCapture:
		return capturedBy(mv, mv.Mover) >= g.N
	case GoalFeed:
		return feeds(mv)
	case GoalSave:
		if capturesPit(mv, mv.Mover.Opponent(), g.Pit) {
			return false
		}
		_, threat := Threat(r, after, mv.Mover, g.Pit)
		return !threat
	}
	return false
}

// feeds reports whether mv sowed a seed into the opponent's row.
func feeds(mv engine.Move) bool {
	for _, p := range mv.Sown {
		if engine.RowOf(p) != mv.Mover {
			return true
		}
	}
	return false
}

// capturesPit reports whether mv's captures by side took pit.
func capturesPit(mv engine.Move, side engine.Side, pit int) bool {
	for _, c := range mv.Captures {
		if c.By == side && c.Pit == pit {
			return true
		}
	}
	return false
}

// Threat returns a reply of side's opponent, to move in after, that
// captures side's pit; ok is false when none does, or when side moves
// again (a Warri grand slam).
func Threat(r engine.Rules, after engine.Position, side engine.Side, pit int) (reply engine.Move, ok bool) {
	if after.ToMove == side {
		return reply, false
	}
	for _, p := range r.LegalMoves(after).Pits() {
		if _, mv, err := r.Play(after, p); err == nil && capturesPit(mv, side.Opponent(), pit) {
			return mv, true
		}
	}
	return reply, false
}

// noneMeets is the error of a goal no legal move meets.
func noneMeets(g Goal) error {
	switch g.Kind {
	case GoalCapture:
		return unmet("goal_unmet_capture", fmt.Sprintf("no move captures %d seeds or more", g.N), "Count", g.N)
	case GoalFeed:
		return unmet("goal_unmet_feed", "no move feeds the opponent's row")
	}
	return unmet("goal_unmet_save", "no move keeps "+engine.Label(g.Pit)+" from capture", "Label", engine.Label(g.Pit))
}

// deepCache keeps the deep search's values by rule set and position (the
// search is deterministic); at most deepCacheSize positions.
var deepCache = struct {
	sync.Mutex
	deep   *puzzle.Deep
	values map[string][]MoveValue
}{values: map[string][]MoveValue{}}

const deepCacheSize = 512

// MoveValue is a legal move with its value: by the deep search
// (DeepValues) the final capture difference in whole seeds from the
// mover's side, the captures made before the position counted
// (puzzle.Deep's values); by the opening book (the "book" goal) the
// book's value in centi-seeds for the mover.
type MoveValue struct {
	Pit, Value int
}

// DeepValues returns every legal move of pos under the Oware rules r with
// its deep search value (puzzle.DeepDepth plies after it), best first. It
// returns an *Unmet error for Nam-nam and for more than
// puzzle.MaxDeepSeeds seeds on the board.
func DeepValues(ctx context.Context, r engine.Rules, pos engine.Position) ([]MoveValue, error) {
	o, ok := r.(engine.Oware)
	if !ok {
		return nil, unmet("goal_unmet_best_namnam", "the deep search plays the Oware rule sets only")
	}
	if n := pos.BoardSeeds(); n > puzzle.MaxDeepSeeds {
		return nil, unmet("goal_unmet_best_seeds", fmt.Sprintf("%d seeds on the board: the deep search takes at most %d", n, puzzle.MaxDeepSeeds),
			"Seeds", n, "Max", puzzle.MaxDeepSeeds)
	}
	key := o.Name() + " " + o.FormatPosition(pos)
	deepCache.Lock()
	defer deepCache.Unlock()
	if v, ok := deepCache.values[key]; ok {
		return v, nil
	}
	if deepCache.deep == nil {
		deepCache.deep = puzzle.NewDeep()
	}
	ms, err := deepCache.deep.Values(ctx, o, pos)
	if err != nil {
		return nil, err
	}
	vs := make([]MoveValue, len(ms))
	for i, m := range ms {
		vs[i] = MoveValue{Pit: m.Pit, Value: m.Lo}
	}
	if len(deepCache.values) >= deepCacheSize {
		clear(deepCache.values)
	}
	deepCache.values[key] = vs
	return vs, nil
}

// best returns the moves of the best deep search value when it beats every
// other move's by puzzle.DeepMargin seeds.
func best(ctx context.Context, r engine.Rules, pos engine.Position) (engine.Moves, error) {
	vs, err := DeepValues(ctx, r, pos)
	if err != nil {
		return 0, err
	}
	var ok engine.Moves
	i := 0
	for ; i < len(vs) && vs[i].Value == vs[0].Value; i++ {
		ok |= 1 << vs[i].Pit
	}
	if i == len(vs) {
		return 0, unmet("goal_unmet_best_equal", "every legal move has the same value: nothing to find")
	}
	if vs[0].Value-vs[i].Value < puzzle.DeepMargin {
		return 0, unmet("goal_unmet_best_margin",
			fmt.Sprintf("the best move is %d seeds better than the next, less than %d", vs[0].Value-vs[i].Value, puzzle.DeepMargin),
			"Label", engine.Label(vs[0].Pit), "Next", engine.Label(vs[i].Pit), "Margin", puzzle.DeepMargin)
	}
	return ok, nil
}

// checkPractice says whether the practice g fits pos: a computer level,
// seeds enough for "capture N" (in Oware; a Nam-nam practice is "win" or
// "draw" of the match), and for "win" and "draw" in the Oware rule
// sets, within the deep search's seeds, a best value that reaches them
// (the captures made counted).
func checkPractice(ctx context.Context, g Goal, r engine.Rules, pos engine.Position) error {
	if !g.Level.Valid() {
		return unmet("goal_unmet_level", "the computer's level is 1 to 8")
	}
	_, rounds := r.(engine.Rounds)
	if g.Target == TargetCapture && rounds {
		// A round's captures become the next round's pits (RULES.md 4.6):
		// a Nam-nam practice is judged by the match, won or drawn.
		return unmet("goal_unmet_practice_match", "a Nam-nam practice is a match to win or draw, not captures to count")
	}
	if g.Target == TargetCapture {
		if g.N > pos.BoardSeeds() {
			return unmet("goal_unmet_practice_seeds", fmt.Sprintf("capture %d of %d seeds on the board", g.N, pos.BoardSeeds()),
				"Count", g.N, "Seeds", pos.BoardSeeds())
		}
		return nil
	}
	if _, ok := r.(engine.Oware); !ok || pos.BoardSeeds() > puzzle.MaxDeepSeeds {
		return nil
	}
	vs, err := DeepValues(ctx, r, pos)
	if err != nil {
		return err
	}
	v := vs[0].Value
	if v < 0 || (v == 0 && g.Target == TargetWin) {
		return unmet("goal_unmet_practice_lost", fmt.Sprintf("the deep search finds %+d seeds for the learner: the %s is out of reach", v, g.Target),
			"Value", v)
	}
	return nil
}

// Met judges a practice played from start to now (the learner is the side
// to move in start): decided is true once the game is over or, for
// "capture N", once the learner has captured N seeds since start; met
// says whether the target was reached. result is the game's result when
// over.
func (g Goal) Met(start, now engine.Position, over bool, result engine.Result) (met, decided bool) {
	me := start.ToMove
	if g.Target == TargetCapture && int(now.Captured[me])-int(start.Captured[me]) >= g.N {
		return true, true
	}
	if !over {
		return false, false
	}
	switch g.Target {
	case TargetWin:
		return result == engine.Winner(me), true
	case TargetDraw:
		return result == engine.Winner(me) || result == engine.Draw, true
	}
	return false, true
}
