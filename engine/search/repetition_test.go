package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"oware/engine"
)

// brute returns bounds on the value of p for its player to move, in seeds
// (the capture difference at the end of the game), by minimax over every
// line of up to depth plies, without a transposition table: the repetition
// rule (RULES.md 2.6) compares each new position with the boards since the
// last capture along the path (reps, p's own last). A line cut at depth
// is worth anything from the mover's captures minus the opponent's and
// every seed on the board; lo = hi where every line ends within depth.
func brute(o engine.Oware, k *keys, p engine.Position, reps []uint64, depth int, repDraw bool) (lo, hi int) {
	if depth == 0 {
		d := finalDiff(&p, p.ToMove)
		return d - p.BoardSeeds(), d + p.BoardSeeds()
	}
	me := p.ToMove
	lo, hi = -engine.TotalSeeds-1, -engine.TotalSeeds-1
	for _, pit := range o.LegalMoves(p).Pits() {
		c := p
		var l, h int
		ended := o.Apply(&c, pit)
		board := k.board(&c)
		switch {
		case ended:
			l = finalDiff(&c, me)
			h = l
		case c.Captured == p.Captured && slices.Contains(reps, board):
			settled := o.Settle(c)
			l = finalDiff(&settled, me)
			if repDraw {
				l = 0
			}
			h = l
		default:
			next := append(slices.Clone(reps), board)
			if c.Captured != p.Captured {
				next = []uint64{board}
			}
			l, h = brute(o, k, c, next, depth-1, repDraw)
			if c.ToMove != me {
				l, h = -h, -l
			}
		}
		lo, hi = max(lo, l), max(hi, h)
	}
	return lo, hi
}

// bruteGame is brute for a game in progress: its history since the last
// capture counts.
func bruteGame(g *engine.Game, depth int, repDraw bool) (lo, hi int) {
	k := newKeys()
	var reps []uint64
	for _, p := range sinceCapture(g, g.Rules) {
		reps = append(reps, k.board(&p))
	}
	return brute(g.Rules.(engine.Oware), k, g.Position, reps, depth, repDraw)
}

// bruteMove returns brute's bounds on the value of pit in g for g's player
// to move.
func bruteMove(g *engine.Game, pit, depth int, repDraw bool) (lo, hi int) {
	me := g.Position.ToMove
	after := g.Clone()
	after.Play(pit)
	if after.Over {
		d := finalDiff(&after.Position, me)
		return d, d
	}
	lo, hi = bruteGame(after, depth-1, repDraw)
	if after.Position.ToMove != me {
		lo, hi = -hi, -lo
	}
	return lo, hi
}

// randomSmallGame returns a game from a random Abapa position with seeds
// seeds on the board, after up to 12 random moves that capture nothing
// (they make the history the repetition rule looks at), still on.
func randomSmallGame(rng *rand.Rand, seeds int) *engine.Game {
	o := engine.Oware{}
	for {
		var pits [engine.NumPits]int
		for range seeds {
			pits[rng.IntN(engine.NumPits)]++
		}
		south := rng.IntN(engine.TotalSeeds - seeds + 1)
		s := ""
		for _, c := range pits {
			s += fmt.Sprintf("%d-", c)
		}
		s += fmt.Sprintf("%d-%d-%s", south, engine.TotalSeeds-seeds-south, []string{"S", "N"}[rng.IntN(2)])
		p, err := o.ParsePosition(s)
		if err != nil || south >= 25 || engine.TotalSeeds-seeds-south >= 25 {
			continue
		}
		g := engine.NewGame(o, p)
		for range rng.IntN(13) {
			legal := g.LegalMoves().Pits()
			if len(legal) == 0 {
				break
			}
			before := g.Position.Captured
			g.Play(legal[rng.IntN(len(legal))])
			if g.Over || g.Position.Captured != before {
				break
			}
		}
		if !g.Over && g.Position.Captured == p.Captured {
			return g
		}
	}
}

// TestRepetitionAgreesWithBruteForce: on random small positions with a
// history, where the brute force along paths decides the value within 10
// plies, the search's best move keeps that value (or may, where the brute
// force cannot decide the move within the same plies), and a value the
// search proves is that one. One
// searcher serves every position of a game in turn, as in play, so that
// an entry of its transposition table that holds only on one path would
// show.
func TestRepetitionAgreesWithBruteForce(t *testing.T) {
	const depth = 10
	rng := rand.New(rand.NewPCG(22, 6))
	s := NewSearcher(1, nil)
	checked := 0
	for i := range 150 {
		g := randomSmallGame(rng, 2+i%4)
		for ply := 0; ply < 10 && !g.Over; ply++ {
			lo, hi := bruteGame(g, depth, false)
			res, err := s.Search(context.Background(), g, Options{Limits: Limits{Depth: 30}})
			if err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("%s after %s(from %s)", g.Rules.FormatPosition(g.Position), labelsOf(g.Moves), g.Rules.FormatPosition(g.Start))
			if lo == hi {
				checked++
				if res.Exact && res.Score != 100*lo {
					t.Fatalf("%s: search %d exact %v, brute force %d", where, res.Score, res.Exact, 100*lo)
				}
				if l, h := bruteMove(g, res.Best, depth, false); h < lo || (l == h && l != lo) {
					t.Fatalf("%s: best %s is worth %d..%d, the best move %d", where, engine.Label(res.Best), l, h, lo)
				}
			} else if res.Exact && (res.Score < 100*lo || res.Score > 100*hi) {
				t.Fatalf("%s: search %d proven, brute force %d..%d", where, res.Score, lo, hi)
			}
			g.Play(res.Best)
		}
	}
	if checked < 300 {
		t.Errorf("only %d positions decided within %d plies", checked, depth)
	}
	t.Logf("%d positions decided within %d plies", checked, depth)
}

func labelsOf(pits []int) string {
	s := ""
	for _, p := range pits {
		s += engine.Label(p) + " "
	}
	return s
}

// TestRepetitionPlans: positions (found by a brute-force scan of small
// positions with a history, kept here by hand) where the repetition rule
// decides the game: a winning plan that only a repetition gives (scored as
// if a repetition were a draw, every move is worth 0), and a saving move
// that avoids one (the other move walks into a repetition that shares out
// the seeds to the mover's loss, which a draw-scoring search would not
// see). The brute force along paths confirms each value; level 8 must
// play the one right move.
func TestRepetitionPlans(t *testing.T) {
	const depth = 12
	for _, c := range []struct {
		start, moves string
		right        string // the only move that keeps the value
		value        int    // its value, seeds, for the player to move
		wrong        string
		wrongValue   int
	}{
		// North wins by 2 only by going round again until South's seeds
		// are on its own row when the board comes back.
		{"0-1-0-0-0-1-0-0-1-0-0-0-22-23-N", "c F a B b C d D e E", "c", 2, "f", 0},
		{"0-1-0-0-0-0-0-1-0-0-1-0-23-22-S", "B e C f A b D c E d B e", "C", 2, "F", 0},
		{"1-0-0-0-0-1-0-0-1-0-0-0-22-23-N", "c F d A a B b C e D c E", "d", 2, "f", 0},
		// The mover saves the draw only by the move that does not bring
		// a position back with more seeds on the opponent's row.
		{"1-0-0-0-0-0-1-0-1-0-0-0-24-21-S", "A c B d C", "a", 0, "e", -2},
		{"0-0-0-0-0-1-0-0-0-0-0-2-21-24-S", "F f B a C b D c", "A", 0, "E", -2},
		{"0-0-0-0-1-0-0-1-0-0-0-1-22-23-N", "f A b B c E d C e", "D", 0, "F", -2},
	} {
		g := game(t, "abapa", c.start, strings.Fields(c.moves)...)
		name := c.start + " " + c.moves
		right, _ := engine.ParseLabel(c.right)
		wrong, _ := engine.ParseLabel(c.wrong)
		if legal := g.LegalMoves(); legal.Count() != 2 || !legal.Has(right) || !legal.Has(wrong) {
			t.Fatalf("%s: legal %v, want %s and %s", name, legal.Labels(), c.right, c.wrong)
		}
		if lo, hi := bruteMove(g, right, depth, false); lo != c.value || hi != c.value {
			t.Errorf("%s: brute force: %s is worth %d..%d, want %d", name, c.right, lo, hi, c.value)
		}
		if lo, hi := bruteMove(g, wrong, depth, false); lo != c.wrongValue || hi != c.wrongValue {
			t.Errorf("%s: brute force: %s is worth %d..%d, want %d", name, c.wrong, lo, hi, c.wrongValue)
		}
		for _, pit := range []int{right, wrong} {
			if lo, hi := bruteMove(g, pit, depth, true); lo != 0 || hi != 0 {
				t.Errorf("%s: %s with repetitions as draws: %d..%d, want 0 (the rule decides)", name, engine.Label(pit), lo, hi)
			}
		}
		for seed := range uint64(3) {
			pit, err := NewSearcher(16, nil).Move(context.Background(), g, MaxLevel, seed, false)
			if err != nil || pit != right {
				t.Errorf("%s: level 8 (seed %d) plays %s (%v), want %s", name, seed, engine.Label(pit), err, c.right)
			}
		}
	}
}

// TestRepetitionNotReusedOnAnotherPath: a searcher that has just searched
// a position whose value its history decided (TestRepetitionPlans' games)
// searches the same board again as a new game, with no history: its
// transposition table must not hand it the values that held only with the
// history. The brute force gives the right value.
func TestRepetitionNotReusedOnAnotherPath(t *testing.T) {
	const depth = 12
	for _, c := range []struct{ start, moves, right string }{
		{"0-1-0-0-0-1-0-0-1-0-0-0-22-23-N", "c F a B b C d D e E", "c"},
		{"0-1-0-0-0-0-0-1-0-0-1-0-23-22-S", "B e C f A b D c E d B e", "C"},
		{"1-0-0-0-0-1-0-0-1-0-0-0-22-23-N", "c F d A a B b C e D c E", "d"},
	} {
		s := NewSearcher(16, nil)
		g := game(t, "abapa", c.start, strings.Fields(c.moves)...)
		for d := 1; d <= 20; d++ {
			s.Search(context.Background(), g, Options{Limits: Limits{Depth: d}})
		}
		// The right move's value came from a repetition of a position
		// of the game before the root, which the iterations of depth 4
		// and more reach: its entry keeps their move, not their value
		// (a shallower value that no repetition decided may stay).
		after := g.Clone()
		after.Play(mustLabel(t, c.right))
		r := s.newRun(context.Background(), g, Options{})
		key := s.keys.full(&after.Position, s.keys.board(&after.Position)) ^ rulesKey(g.Rules) ^ r.historyKey
		r.release()
		if e, ok := s.tt.probe(key); ok && e.depth >= 4 {
			t.Errorf("%s %s: the entry after %s has a value (depth %d) that holds only on this path", c.start, c.moves, c.right, e.depth)
		}
		fresh := engine.NewGame(g.Rules, g.Position)
		lo, hi := bruteGame(fresh, depth, false)
		for d := 1; d <= 20; d++ {
			res, err := s.Search(context.Background(), fresh, Options{Limits: Limits{Depth: d}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Exact && (res.Score < 100*lo || res.Score > 100*hi) {
				t.Errorf("%s %s, then without its history at depth %d: %d proven, brute force %d..%d", c.start, c.moves, d, res.Score, lo, hi)
			}
			if lo == hi {
				if l, h := bruteMove(fresh, res.Best, depth, false); h < lo || (l == h && l != lo) {
					t.Errorf("%s %s, then without its history at depth %d: best %s worth %d..%d, the best move %d", c.start, c.moves, d, engine.Label(res.Best), l, h, lo)
				}
			}
		}
	}
}

func mustLabel(t *testing.T, label string) int {
	t.Helper()
	pit, err := engine.ParseLabel(label)
	if err != nil {
		t.Fatal(err)
	}
	return pit
}
