package search

import (
	"bytes"
	"context"
	"testing"

	"oware/engine"
)

// TestBuildBook: a small book is reproducible, has the start, and each
// move into an expanded position is worth minus that position's best
// move (minimax), the other moves their search. With a drop-out cost of
// 10 seeds a ply, every position after the start (no move of the start
// is 10 seeds worse than the best at depth 3) costs less than any
// position two plies deep: the 4 positions after the start are expanded.
func TestBuildBook(t *testing.T) {
	opt := BookOptions{Positions: 5, Depth: 3, Seed: 7, DropOut: 1000}
	data, err := NewSearcher(1, nil).BuildBook(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := NewSearcher(1, nil).BuildBook(context.Background(), opt)
	if !bytes.Equal(data, again) {
		t.Error("two builds with the same options differ")
	}
	b, err := ParseBook(data)
	if err != nil || b.Len() != 5 {
		t.Fatalf("%d positions (%v), want 5", b.Len(), err)
	}
	o := engine.Oware{}
	start := o.Start()
	values, legal, ok := b.Moves(&start)
	if !ok || legal.Count() != 6 {
		t.Fatalf("the start: %v %v", ok, legal)
	}
	children := 0
	for _, pit := range legal.Pits() {
		c := start
		o.Apply(&c, pit)
		cv, cl, ok := b.Moves(&c)
		if !ok {
			continue
		}
		children++
		best := -1 << 30
		for _, q := range cl.Pits() {
			best = max(best, cv[q])
		}
		if values[pit] != -best {
			t.Errorf("move %s: %d, the position after it is worth %d", engine.Label(pit), values[pit], best)
		}
	}
	if children != 4 {
		t.Errorf("%d positions after the start in the book, want the other 4", children)
	}
	if _, err := ParseBook(append(data, 1)); err == nil {
		t.Error("a book with a stray byte parsed")
	}
	if _, err := ParseBook([]byte("OWAREBK2")); err == nil {
		t.Error("a wrong magic parsed")
	}
}

// handBook returns a book of one position, the start, with the values
// given to its six moves.
func handBook(t *testing.T, values [engine.NumPits]int) *Book {
	start := engine.Oware{}.Start()
	b, err := ParseBook(appendBookRecord([]byte(bookMagic), &start, values, engine.Oware{}.LegalMoves(start)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBookChoice: the book plays only moves within BookMargin (30) of the
// best, the best (weight 31) more often than one 20 below it (weight 11).
func TestBookChoice(t *testing.T) {
	b := handBook(t, [engine.NumPits]int{100, 80, 50, -200, 69, 0})
	start := engine.Oware{}.Start()
	counts := map[int]int{}
	for seed := range uint64(2000) {
		pit, ok := b.Choose(&start, BookMargin, seed)
		if !ok {
			t.Fatal("the start is not in the book")
		}
		counts[pit]++
	}
	if len(counts) != 2 || counts[0] < 2*counts[1] || counts[1] < 300 {
		t.Errorf("choices %v, want A about 31/42 and B 11/42 of 2000 (E at 31 below, C, D, F never)", counts)
	}
	after := start
	engine.Oware{}.Apply(&after, 0)
	if _, ok := b.Choose(&after, BookMargin, 1); ok {
		t.Error("a position not in the book was found")
	}
}

// TestBookLevels: levels 6 to 8 play the book's move; levels 1 to 5 never
// look at it (their move is their search's).
func TestBookLevels(t *testing.T) {
	book := handBook(t, [engine.NumPits]int{-500, -500, -500, 900, -500, -500}) // D, whatever the search says
	g := engine.NewGame(engine.Oware{}, engine.Oware{}.Start())
	var s *Searcher
	for level := MinLevel; level <= MaxLevel; level++ {
		// A new searcher for each level: one whose table holds the
		// searches of the levels before may choose otherwise.
		s = NewSearcher(1, nil)
		s.Book = book
		pit, err := s.Move(context.Background(), g, level, 3, false)
		if err != nil {
			t.Fatal(err)
		}
		if level.UsesBook() {
			if pit != 3 {
				t.Errorf("level %d played %s, want the book's D", level, engine.Label(pit))
			}
			continue
		}
		res, _ := NewSearcher(1, nil).Search(context.Background(), g, level.Options(3))
		if pit != res.Best {
			t.Errorf("level %d played %s, its search %s", level, engine.Label(pit), engine.Label(res.Best))
		}
	}
	if w := engine.NewGame(engine.Oware{GrandSlam: engine.Wari}, engine.Oware{}.Start()); true {
		if _, ok := s.BookMove(w, MaxLevel, 1); ok {
			t.Error("the Abapa book answered a wari game")
		}
	}
}

// TestEmbeddedBook: the book in the binary parses and has the start.
func TestEmbeddedBook(t *testing.T) {
	b := DefaultBook()
	start := engine.Oware{}.Start()
	if _, legal, ok := b.Moves(&start); !ok || legal.Count() != 6 {
		t.Errorf("the embedded book (%d positions) lacks the start", b.Len())
	}
}
