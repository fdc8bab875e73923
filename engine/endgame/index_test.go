package endgame

import (
	"testing"

	"oware/engine"
)

// TestIndexIsABijection walks every board of up to 9 seeds: next visits
// them in rank order, unrank inverts rank, and the level sizes are the
// numbers of ways to put n seeds in 12 pits, C(n+11, 11) (1, 12, 78, 364...).
func TestIndexIsABijection(t *testing.T) {
	x := newIndexer()
	wantSize := []uint64{1, 12, 78, 364, 1365, 4368, 12376, 31824, 75582, 167960}
	var start uint64
	for n, want := range wantSize {
		if x.levelSize(n) != want || x.levelStart(n) != start {
			t.Fatalf("level %d: size %d start %d, want %d and %d", n, x.levelSize(n), x.levelStart(n), want, start)
		}
		b := first(n)
		for r := uint64(0); r < want; r++ {
			if got := x.rank(&b, n); got != r {
				t.Fatalf("board %v: rank %d, want %d", b, got, r)
			}
			if got := x.unrank(r, n); got != b {
				t.Fatalf("unrank(%d, %d) = %v, want %v", r, n, got, b)
			}
			if x.index(&b) != start+r || b.seeds() != n {
				t.Fatalf("board %v: index %d, want %d", b, x.index(&b), start+r)
			}
			if more := next(&b); more != (r+1 < want) {
				t.Fatalf("level %d: next after rank %d says %v", n, r, more)
			}
		}
		start += want
	}
}

// TestBoardOf: a board is seen from the player to move, North's position
// turned round; the row difference is the mover's row minus the other.
func TestBoardOf(t *testing.T) {
	r := engine.Oware{}
	p, err := r.ParsePosition("1-2-0-0-0-0-3-0-0-0-0-4-20-18-N")
	if err != nil {
		t.Fatal(err)
	}
	b := boardOf(&p)
	if want := (Board{3, 0, 0, 0, 0, 4, 1, 2, 0, 0, 0, 0}); b != want {
		t.Fatalf("board %v, want %v", b, want)
	}
	if b.settle() != 4 {
		t.Errorf("settle %d, want 7-3 = 4", b.settle())
	}
}

// TestCodes: every interval of values of n seeds has its own byte.
func TestCodes(t *testing.T) {
	d := newDecoder()
	for n := 0; n <= MaxSeedsLimit; n++ {
		seen := map[byte]bool{}
		for lo := -n; lo <= n; lo += 2 {
			for hi := lo; hi <= n; hi += 2 {
				c := encode(lo, hi, n)
				if seen[c] || d[n][c] != (bounds{int8(lo), int8(hi)}) {
					t.Fatalf("n=%d [%d, %d]: code %d taken or decodes to %v", n, lo, hi, c, d[n][c])
				}
				seen[c] = true
			}
		}
	}
}
