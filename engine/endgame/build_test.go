package endgame

import (
	"context"
	"testing"

	"oware/engine"
)

// TestBuildReportsEachLevel: the end of each level names that level and
// counts the boards built so far. A board of at most n seeds in 12 pits is
// one of C(n+12, 12): 1, 13, 91 and 455 boards up to 0..3 seeds.
func TestBuildReportsEachLevel(t *testing.T) {
	var got []Progress
	_, err := Build(context.Background(), engine.Oware{}, 3, func(p Progress) {
		if p.Step == "done" {
			got = append(got, p)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []uint64{1, 13, 91, 455}
	if len(got) != len(want) {
		t.Fatalf("%d levels reported done, want %d", len(got), len(want))
	}
	for n, p := range got {
		if p.Seeds != n || p.Done != want[n] || p.Total != 455 {
			t.Errorf("level %d: reported %d seeds, %d of %d boards; want %d seeds, %d of 455", n, p.Seeds, p.Done, p.Total, n, want[n])
		}
	}
}
