package engine

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
)

func TestBudgetStopsTheWorstPosition(t *testing.T) {
	// The worst position known: pit c's relay cycles only after millions of
	// laps. A budget of 2^20 laps cannot decide it: Play refuses with
	// ErrTooMuchWork and the budget says so; the game is unchanged.
	r := NamNam{Budget: NewBudget(1 << 20)}
	p, err := r.ParsePosition(worstNamNam)
	if err != nil {
		t.Fatal(err)
	}
	after, _, err := r.Play(p, 8)
	if !errors.Is(err, ErrTooMuchWork) || after != p {
		t.Fatalf("Play(c) = %v, want ErrTooMuchWork and the position unchanged", err)
	}
	if !errors.Is(r.Budget.Err(), ErrTooMuchWork) || r.Budget.Left() >= 0 {
		t.Errorf("budget err %v, left %d", r.Budget.Err(), r.Budget.Left())
	}
	g := NewGame(r, p)
	if _, err := g.Play(8); !errors.Is(err, ErrTooMuchWork) || len(g.Moves) != 0 {
		t.Errorf("Game.Play(c) = %v with %d moves", err, len(g.Moves))
	}
	// A spent budget refuses at once, even a cheap sowing.
	if _, _, err := r.Play(r.Start(), 0); !errors.Is(err, ErrTooMuchWork) {
		t.Errorf("Play with a spent budget: %v", err)
	}
	// Enough budget gives the rule book's answer: c never ends.
	r.Budget = NewBudget(1 << 25)
	if _, _, err := r.Play(p, 8); !errors.Is(err, ErrEndlessSowing) {
		t.Errorf("Play(c) with enough budget: %v, want ErrEndlessSowing", err)
	}
}

// randomMatchPositions plays random legal moves of Nam-nam matches and
// returns the positions met.
func randomMatchPositions(r NamNam, matches, perMatch int, seed uint64) []Position {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []Position
	for range matches {
		g := NewGame(r, r.Start())
		for i := 0; i < perMatch && !g.Over; i++ {
			out = append(out, g.Position)
			pits := g.LegalMoves().Pits()
			if len(pits) == 0 {
				break
			}
			if _, err := g.Play(pits[rng.IntN(len(pits))]); err != nil {
				panic(err)
			}
		}
	}
	return out
}

func TestLegalCacheAgrees(t *testing.T) {
	// The cache changes no answer.
	for _, fours := range []FoursRule{FoursLast, FoursOwner} {
		plain := NamNam{Fours: fours}
		cached := NamNam{Fours: fours, Cache: NewLegalCache(1 << 12)}
		for _, p := range randomMatchPositions(plain, 3, 300, uint64(fours)+7) {
			want := plain.LegalMoves(p)
			for range 2 {
				if got := cached.LegalMoves(p); got != want {
					t.Fatalf("%s: cached %v, plain %v", plain.FormatPosition(p), got.Labels(), want.Labels())
				}
			}
		}
	}
}

func TestLegalCacheKeepsCostlyChecks(t *testing.T) {
	// longEndless needs about 1.5 million laps to refuse pit e: the first
	// check pays them, the next (another game, another budget, the same
	// cache) pays nothing and gives the same answer.
	c := NewLegalCache(64)
	p, err := NamNam{}.ParsePosition(longEndless)
	if err != nil {
		t.Fatal(err)
	}
	first := NamNam{Cache: c, Budget: NewBudget(1 << 30)}
	want := first.LegalMoves(p)
	if want.Has(10) || first.Budget.Left() > 1<<30-1_000_000 {
		t.Fatalf("legal %v after %d laps: want e refused after a million laps or more", want.Labels(), 1<<30-first.Budget.Left())
	}
	second := NamNam{Cache: c, Budget: NewBudget(1)}
	if got := second.LegalMoves(p); got != want || second.Budget.Left() != 1 {
		t.Errorf("cached: %v for %d laps, want %v for none", got.Labels(), 1-second.Budget.Left(), want.Labels())
	}
	if _, _, err := second.Play(p, 10); !errors.Is(err, ErrEndlessSowing) || second.Budget.Left() != 1 {
		t.Errorf("Play(e) with the cache: %v", err)
	}
}

func TestLegalCacheIsBounded(t *testing.T) {
	c := NewLegalCache(64)
	for i := range 1000 {
		var k legalKey
		k.pits[0], k.pits[1] = uint8(i), uint8(i>>8)
		c.put(k, Moves(i))
	}
	if n := c.Len(); n > 2*64 {
		t.Errorf("1000 positions put, the cache of 64 holds %d", n)
	}
}

func TestLegalCacheConcurrent(t *testing.T) {
	// Several games share one cache (run with -race).
	c := NewLegalCache(256)
	positions := randomMatchPositions(NamNam{}, 2, 200, 11)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			r := NamNam{Cache: c}
			for i := range positions {
				p := positions[(i+w*37)%len(positions)]
				if got, want := r.LegalMoves(p), (NamNam{}).LegalMoves(p); got != want {
					t.Errorf("%s: %v, want %v", r.FormatPosition(p), got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
