package search

import (
	"fmt"
	"strconv"
	"strings"

	"oware/engine"
)

// Weights are the terms of the evaluation beyond the capture difference
// (100 a seed), each in centi-seeds. DefaultWeights were tuned by
// self-play with oware-engine match (see README): the vulnerable pits
// (Threat) came out at 0, the search and its quiescence seeing those
// captures better than a static count.
type Weights struct {
	Row      int // per seed on the mover's row more than on the opponent's (hoarding)
	Mobility int // per non-empty pit of the mover's row more than of the opponent's
	Attack   int // per seed the mover's next sowings could capture (the last seed makes 2 or 3)
	Threat   int // per seed of the mover's row the opponent's sowings could capture (vulnerable pits)
	Kroo     int // per seed beyond 11 in the mover's largest pit (a sowing that laps the board)
	// Pits, when not nil, adds the learned values of each pit's count
	// (see PitTable); String and ParseWeights leave it out.
	Pits *PitTable
}

// DefaultWeights returns the tuned weights and the fitted pit table
// (DefaultPits).
func DefaultWeights() Weights {
	return Weights{Row: 12, Mobility: 45, Attack: 40, Threat: 0, Kroo: 10, Pits: DefaultPits()}
}

// ParseWeights reads weights written as "row=12,mobility=45,attack=40,
// threat=0,kroo=10"; terms left out keep their default value.
func ParseWeights(s string) (Weights, error) {
	w := DefaultWeights()
	fields := map[string]*int{"row": &w.Row, "mobility": &w.Mobility, "attack": &w.Attack, "threat": &w.Threat, "kroo": &w.Kroo}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		name, value, ok := strings.Cut(f, "=")
		ptr := fields[strings.ToLower(strings.TrimSpace(name))]
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if !ok || ptr == nil || err != nil || n < -1000 || n > 1000 {
			return w, fmt.Errorf("evaluation weight %q: want name=number (-1000..1000), names row, mobility, attack, threat, kroo", f)
		}
		*ptr = n
	}
	return w, nil
}

// String writes w as ParseWeights reads it.
func (w Weights) String() string {
	return fmt.Sprintf("row=%d,mobility=%d,attack=%d,threat=%d,kroo=%d", w.Row, w.Mobility, w.Attack, w.Threat, w.Kroo)
}

// evaluate scores p for the player to move, in centi-seeds: the capture
// difference (with Nam-nam's stores) and the weighted terms.
func (w *Weights) evaluate(p *engine.Position) int32 {
	me := p.ToMove
	op := me.Opponent()
	score := 100 * finalDiff(p, me)
	mine, theirs := engine.RowStart(me), engine.RowStart(op)
	var rowDiff, mobility, kroo int
	for i := 0; i < engine.PitsPerRow; i++ {
		a, b := int(p.Pits[mine+i]), int(p.Pits[theirs+i])
		rowDiff += a - b
		mobility += b2i(a > 0) - b2i(b > 0)
		kroo = max(kroo, a-11)
	}
	score += w.Row*rowDiff + w.Mobility*mobility + w.Kroo*kroo
	score += w.Attack*reach(p, mine, op) - w.Threat*reach(p, theirs, me)
	if w.Pits != nil {
		score += int(w.Pits.evaluate(p))
	}
	return int32(score)
}

// reach counts the seeds that sowings from the row starting at from (fewer
// than 12 seeds each) could capture in target's row: their last seed
// turns a pit of 1 or 2 into 2 or 3 (RULES.md 2.3; chains are left out).
func reach(p *engine.Position, from int, target engine.Side) int {
	n := 0
	var hit [engine.NumPits]bool
	for j := from; j < from+engine.PitsPerRow; j++ {
		c := int(p.Pits[j])
		if c == 0 || c >= engine.NumPits {
			continue
		}
		land := (j + c) % engine.NumPits
		if k := p.Pits[land]; engine.RowOf(land) == target && (k == 1 || k == 2) && !hit[land] {
			hit[land] = true
			n += int(k) + 1
		}
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
