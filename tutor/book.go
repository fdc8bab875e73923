package tutor

import (
	"sort"
	"sync"

	"oware/engine"
	"oware/engine/search"
)

// openingBook is the book the "book" goal reads: the one levels 6 to 8
// play from (search.DefaultBook), parsed once.
var openingBook = sync.OnceValue(search.DefaultBook)

// bookValues returns every legal move of pos under r with the value the
// opening book gives it (search.Book.Moves: centi-seeds for the mover,
// 100 = one seed), best first, pits in order among equals. It returns an
// *Unmet error for a rule set other than Abapa (the book's) and for a
// position the book does not hold.
func bookValues(r engine.Rules, pos engine.Position) ([]MoveValue, error) {
	if o, ok := r.(engine.Oware); !ok || o.GrandSlam != engine.Abapa {
		return nil, unmet("goal_unmet_book_rules", "the opening book is the standard rules' (abapa) only")
	}
	values, legal, ok := openingBook().Moves(&pos)
	if legal &= r.LegalMoves(pos); !ok || legal == 0 {
		return nil, unmet("goal_unmet_book_missing", "the position is not in the opening book")
	}
	vs := make([]MoveValue, 0, legal.Count())
	for _, pit := range legal.Pits() {
		vs = append(vs, MoveValue{Pit: pit, Value: values[pit]})
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Value > vs[j].Value })
	return vs, nil
}

// bookMoves returns the moves the opening book plays in pos: those within
// search.BookMargin centi-seeds of its best (search.Book.Choose picks
// among them). Every legal move being one is an *Unmet error, like a
// position the book does not hold (bookValues).
func bookMoves(r engine.Rules, pos engine.Position) (engine.Moves, error) {
	vs, err := bookValues(r, pos)
	if err != nil {
		return 0, err
	}
	var ok engine.Moves
	for _, v := range vs {
		if vs[0].Value-v.Value <= search.BookMargin {
			ok |= 1 << v.Pit
		}
	}
	if ok == r.LegalMoves(pos) {
		return 0, unmet("goal_unmet_all", "every move meets the goal: nothing to find")
	}
	return ok, nil
}
