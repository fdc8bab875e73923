package search

import (
	"testing"

	"oware/engine"
)

// TestFitWeights: samples whose targets known weights give are fitted,
// from other weights, to less than a hundredth of the loss they had.
func TestFitWeights(t *testing.T) {
	truth := Weights{Row: 20, Mobility: 30, Attack: 50, Threat: 10, Kroo: 5}
	var samples []Sample
	for _, g := range middlegames(t, 6) {
		r := engine.NewGame(g.Rules, g.Start)
		for _, pit := range g.Moves {
			r.Play(pit)
			samples = append(samples, Sample{Pos: r.Position, Target: int(truth.evaluate(&r.Position))})
		}
	}
	start := DefaultWeights()
	before := start.Loss(samples)
	w, loss := FitWeights(samples, start, 16)
	if loss > before/100 || w.Loss(samples) != loss {
		t.Errorf("fitted %v, loss %v from %v; want less than a hundredth (as %v)", w, loss, before, truth)
	}
}

// TestQuiet: a position where the mover can capture is not quiet.
func TestQuiet(t *testing.T) {
	o := engine.Oware{}
	start := o.Start()
	if !Quiet(&start) {
		t.Error("the start is not quiet")
	}
	// South's F (1 seed) lands in a (1 seed): 2, captured.
	p, _ := o.ParsePosition("0-0-0-0-0-1-1-4-0-0-0-0-20-22-S")
	if Quiet(&p) {
		t.Error("a capture in one move is quiet")
	}
}
