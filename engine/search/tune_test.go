package search

import (
	"strings"
	"testing"

	"oware/engine"
)

// samplesOf returns the positions of six middlegames with truth's
// evaluation of each as its target.
func samplesOf(t *testing.T, truth Weights) []Sample {
	var samples []Sample
	for _, g := range middlegames(t, 6) {
		r := engine.NewGame(g.Rules, g.Start)
		for _, pit := range g.Moves {
			r.Play(pit)
			samples = append(samples, Sample{Pos: r.Position, Target: int(truth.evaluate(&r.Position))})
		}
	}
	return samples
}

// TestFitWeights: samples whose targets known weights give are fitted,
// from other weights, to less than a hundredth of the loss they had.
func TestFitWeights(t *testing.T) {
	truth := Weights{Row: 20, Mobility: 30, Attack: 50, Threat: 10, Kroo: 5}
	samples := samplesOf(t, truth)
	start := DefaultWeights()
	start.Pits = nil
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

// TestFitPits: targets made by the default weights and a known pit table
// (a fifth of a seed for each seed of the mover's first pit, minus half a seed for
// each empty pit of the opponent's row) are fitted from no table to a
// tenth of the loss of the weights alone; the file reads back the same.
func TestFitPits(t *testing.T) {
	var truth PitTable
	for c := range pitCounts {
		truth[0][c] = int32(20 * c)
	}
	for r := 6; r < engine.NumPits; r++ {
		truth[r][0] = -50
	}
	w := DefaultWeights()
	with := w
	with.Pits = &truth
	samples := samplesOf(t, with)
	fitted := w
	fitted.Pits = FitPits(samples, w, 3000, 50000)
	if before, after := w.Loss(samples), fitted.Loss(samples); after > before/10 {
		t.Errorf("loss %v with the fitted table, %v without; want a tenth", after, before)
	}
	var b strings.Builder
	if err := fitted.Pits.Write(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPitTable(strings.NewReader(b.String()))
	if err != nil || *back != *fitted.Pits {
		t.Errorf("read back: %v, %v", back, err)
	}
	if _, err := ReadPitTable(strings.NewReader("oware-pits 1\n1 2 3\n")); err == nil {
		t.Error("a short table read")
	}
}
