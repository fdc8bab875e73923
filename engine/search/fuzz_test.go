package search

import (
	"context"
	"testing"

	"oware/engine"
)

// positionFrom builds a valid position from arbitrary bytes: the first 12
// share out the seeds, the rest go to the captures; under Nam-nam the next
// 12 bytes pick the owners.
func positionFrom(r engine.Rules, data []byte, toMove byte) engine.Position {
	p := r.Start()
	p.Pits = [engine.NumPits]uint8{}
	left := engine.TotalSeeds
	for i := 0; i < engine.NumPits && i < len(data); i++ {
		n := int(data[i]) % (left + 1)
		p.Pits[i] = uint8(n)
		left -= n
	}
	p.Captured = [2]uint8{uint8(left / 2), uint8(left - left/2)}
	p.ToMove = engine.Side(toMove & 1)
	if _, ok := r.(engine.NamNam); ok {
		for i := 0; i < engine.NumPits && engine.NumPits+i < len(data); i++ {
			p.Owner[i] = engine.Side(data[engine.NumPits+i] % 3)
		}
	}
	return p
}

// FuzzSearch: from any valid position of any rule set, a short search
// either says the game is over or returns a legal move.
func FuzzSearch(f *testing.F) {
	f.Add([]byte{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, byte(0), byte(0))
	f.Add([]byte{0, 0, 0, 0, 0, 23, 0, 1, 1, 1, 1, 1}, byte(1), byte(2))
	f.Add([]byte{1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0}, byte(0), byte(1))
	f.Add([]byte{3, 1, 0, 2, 0, 1, 0, 1, 0, 0, 2, 1, 0, 0, 1, 2, 1, 0, 2, 2, 1, 0, 1, 0}, byte(0), byte(3))
	s := NewSearcher(1, nil)
	f.Fuzz(func(t *testing.T, data []byte, toMove, rules byte) {
		r := []engine.Rules{engine.Oware{GrandSlam: engine.Abapa}, engine.Oware{GrandSlam: engine.Wari},
			engine.Oware{GrandSlam: engine.Warri}, engine.NamNam{}}[rules%4]
		g := engine.NewGame(r, positionFrom(r, data, toMove))
		res, err := s.Search(context.Background(), g, Options{Limits: Limits{Depth: 4, Nodes: 5000}, Noise: int(rules), Seed: uint64(toMove)})
		if err != nil {
			if g.LegalMoves() != 0 {
				t.Fatalf("%s %s: %v with legal moves %v", r.Name(), r.FormatPosition(g.Position), err, g.LegalMoves().Labels())
			}
			return
		}
		if !g.LegalMoves().Has(res.Best) {
			t.Fatalf("%s %s: best %d is not legal (%v)", r.Name(), r.FormatPosition(g.Position), res.Best, g.LegalMoves().Labels())
		}
	})
}
