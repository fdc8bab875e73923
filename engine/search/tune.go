package search

import (
	"math"

	"oware/engine"
)

// Sample is a position with the value it should have, for fitting the
// evaluation: Target in centi-seeds for the player to move (an exact
// endgame-table value, or a deep search's).
type Sample struct {
	Pos    engine.Position
	Target int
}

// Quiet reports whether no move of p's player to move captures (as the
// search's ordering estimates it): the positions whose static evaluation
// the fitting compares, since the search evaluates only after its
// quiescence search of captures.
func Quiet(p *engine.Position) bool {
	o := engine.Oware{}
	for m := uint16(o.LegalMoves(*p)); m != 0; m &= m - 1 {
		c := *p
		pit := 0
		for m&(1<<pit) == 0 {
			pit++
		}
		o.Apply(&c, pit)
		if c.Captured != p.Captured {
			return false
		}
	}
	return true
}

// fitScale is K of the fit's sigmoid 1/(1+e^(-v/K)), centi-seeds: a value
// of K means a 73 % expectation.
const fitScale = 400.0

// Loss is the mean squared difference, over samples, between the sigmoid
// of the weights' evaluation and the sigmoid of the target (Texel's
// tuning, with targets that are values rather than game results).
func (w Weights) Loss(samples []Sample) float64 {
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v/fitScale)) }
	sum := 0.0
	for i := range samples {
		d := sig(float64(w.evaluate(&samples[i].Pos))) - sig(float64(samples[i].Target))
		sum += d * d
	}
	return sum / float64(max(len(samples), 1))
}

// FitWeights fits the evaluation's terms to samples by Texel's local
// search: each term in turn moves by step (then by smaller steps down to
// 1) while that lowers Loss, until no term moves. It returns the weights
// and their loss. The result depends only on its arguments.
func FitWeights(samples []Sample, start Weights, step int) (Weights, float64) {
	w := start
	best := w.Loss(samples)
	terms := []*int{&w.Row, &w.Mobility, &w.Attack, &w.Threat, &w.Kroo}
	for ; step >= 1; step /= 2 {
		for improved := true; improved; {
			improved = false
			for _, t := range terms {
				for _, d := range []int{step, -step} {
					*t += d
					if *t >= -1000 && *t <= 1000 {
						if l := w.Loss(samples); l < best {
							best, improved = l, true
							break
						}
					}
					*t -= d
				}
			}
		}
	}
	return w, best
}
