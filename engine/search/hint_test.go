package search

import (
	"context"
	"testing"
)

// TestHintReasonsMore: the reasons beyond a capture, in positions worked
// out by hand (the search's own choice for forced-win; the move given for
// the others, whose reason does not depend on the search).
func TestHintReasonsMore(t *testing.T) {
	// North to move, 23-21 to South: d (to e) leaves South only F, which
	// sows a and b without a capture; North cannot feed and takes its 4
	// seeds: 25 to 23. (a instead lets F capture b.) A proven win by 2
	// seeds, which captures nothing and saves nothing.
	g := game(t, "abapa", "0-0-0-0-0-2-1-0-0-1-0-0-23-21-N")
	h, err := NewSearcher(4, nil).Hint(context.Background(), g)
	if err != nil || h.Label != "d" || h.Reason != ReasonForcedWin || h.Seeds != 2 || h.Plies != 2 {
		t.Errorf("forced win: %+v, %v; want d, forced-win by 2 in 2 plies (d, F, and North cannot feed)", h, err)
	}
	for _, c := range []struct {
		position, label string
		reason          Reason
		seeds           int
		why             string
	}{
		{"0-0-0-1-1-0-1-3-0-0-0-0-21-21-S", "D", ReasonThreatens, 2,
			"D makes E 2, whose sowing (F, a) would turn a into 2 and take it; North can take nothing either way"},
		{"0-0-0-0-2-1-0-0-0-0-0-0-23-22-S", "E", ReasonFeeds, 0,
			"North's row is empty; E (F, a) and F (a) both feed it, neither captures"},
	} {
		g := game(t, "abapa", c.position)
		pit := int(c.label[0] - 'A')
		if r, n := reasonFor(g, pit, nil); r != c.reason || n != c.seeds {
			t.Errorf("%s %s: %s %d, want %s %d: %s", c.position, c.label, r, n, c.reason, c.seeds, c.why)
		}
	}
}
