package views

import (
	"strings"
	"testing"

	"oware/engine"
)

// TestBoardOwners: a Nam-nam board marks every pit's owner by class and
// marker and names it in the pit's accessible name; it shows both stores,
// the round and the score; an Oware board shows none of it.
func TestBoardOwners(t *testing.T) {
	r, _ := engine.RulesByName("namnam")
	p, err := r.ParsePosition("4-4-4-4-4-4-4-4-4-4-0-4-0-0-N-SSSSSSNNNNxS-2-2")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	o := BoardOptions{Last: -1, Match: &BoardMatch{Round: 2, Totals: [2]int{30, 18}}}
	if err := Board(plain{}, p, o).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`class="pit own-n"`, `class="pit own-s"`, `class="pit empty own-x"`,
		`<span class="owner" aria-hidden="true">✕</span>`, "nn_owner_nobody", "nn_owner_south",
		"nn_store 2", "nn_roundRound2", "nn_scoreSouth30North18", "nn_owner_nobody_pits"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s", want)
		}
	}
	if n := strings.Count(html, `class="owner"`); n != engine.NumPits {
		t.Errorf("%d owner markers, want %d", n, engine.NumPits)
	}
	// A diagram of a Nam-nam position shows the owners, not the round.
	b.Reset()
	if err := BoardFromString(plain{}, r, "4-4-4-4-4-4-4-4-4-4-0-4-0-0-N-SSSSSSNNNNxS-2-2", BoardOptions{Last: -1}).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "own-x") || strings.Contains(b.String(), "nn_round") {
		t.Error("a Nam-nam diagram: owners missing or a round shown")
	}
	_, html = labels(t, BoardOptions{Last: -1})
	if strings.Contains(html, "own-") || strings.Contains(html, "nn_") {
		t.Error("an Oware board shows Nam-nam marks")
	}
}
