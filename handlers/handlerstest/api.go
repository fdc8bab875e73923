package handlerstest

import (
	"testing"

	"oware/engine"
)

// Greedy picks the legal move that captures most (lowest pit on ties).
func Greedy(t *testing.T, r engine.Rules, p engine.Position) string {
	best, bestN := -1, -1
	for _, pit := range r.LegalMoves(p).Pits() {
		_, mv, err := r.Play(p, pit)
		if err != nil {
			t.Fatal(err)
		}
		if n := mv.Captured(); n > bestN {
			best, bestN = pit, n
		}
	}
	if best < 0 {
		t.Fatalf("no legal move in %s", r.FormatPosition(p))
	}
	return engine.Label(best)
}
