package search

import (
	"context"
	"testing"

	"oware/engine"
	"oware/engine/endgame"
)

// bruteWins reports whether me wins g within plies plies whatever the
// opponent plays: every line played out with engine.Game (its own
// repetition rule), no pruning.
func bruteWins(g *engine.Game, me engine.Side, plies int) bool {
	if g.Over {
		return g.Result == engine.Winner(me)
	}
	if plies == 0 {
		return false
	}
	attacker := g.Position.ToMove == me
	for _, pit := range g.LegalMoves().Pits() {
		c := g.Clone()
		if _, err := c.Play(pit); err != nil {
			panic(err)
		}
		if won := bruteWins(c, me, plies-1); won == attacker {
			return attacker
		}
	}
	return !attacker
}

// TestForcedWinByHand: South's F sows its seed into a, which then holds
// 2: captured (e keeps North's row from a grand slam), South has 25 and
// wins in 1 ply. Where a holds nothing no move captures: not in 1.
func TestForcedWinByHand(t *testing.T) {
	abapa := engine.Oware{GrandSlam: engine.Abapa}
	p, err := abapa.ParsePosition("0-0-0-0-0-1-1-0-0-0-1-0-23-22-S")
	if err != nil {
		t.Fatal(err)
	}
	if pit, plies, ok := ForcedWin(context.Background(), abapa, p, nil, WinPlies, WinNodes, nil); !ok || pit != 5 || plies != 1 {
		t.Errorf("F wins at once: %d %d %v", pit, plies, ok)
	}
	q, _ := abapa.ParsePosition("0-0-0-0-0-1-0-0-0-3-0-0-23-21-S")
	if _, plies, ok := ForcedWin(context.Background(), abapa, q, nil, 1, WinNodes, nil); ok {
		t.Errorf("a win in 1 where no move captures: %d", plies)
	}
}

// TestForcedWinBrute: on random small boards with the captures near 25,
// ForcedWin's distance (with and without the tables) is the fewest plies
// an exhaustive search of every line proves a win in, and none where the
// exhaustive search proves none within the bound.
func TestForcedWinBrute(t *testing.T) {
	const maxPlies = 6
	for _, rules := range []engine.Oware{{GrandSlam: engine.Abapa}, {GrandSlam: engine.Wari}, {GrandSlam: engine.Warri}} {
		tab, err := endgame.Build(context.Background(), rules, 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		tables := endgame.Tables{rules.GrandSlam: tab}
		found, long := 0, 0
		for i := range 200 {
			state := uint64(i)*7919 + uint64(rules.GrandSlam)
			p := rules.Start()
			p.Pits = [engine.NumPits]uint8{}
			seeds := 3 + i%4
			for range seeds {
				p.Pits[splitmix64(&state)%engine.NumPits]++
			}
			south := 21 + int(splitmix64(&state)%4)
			p.Captured = [2]uint8{uint8(south), uint8(engine.TotalSeeds - seeds - south)}
			if splitmix64(&state)%2 == 1 {
				p.ToMove = engine.North
			}
			g := engine.NewGame(rules, p)
			if g.Over || g.LegalMoves() == 0 {
				continue
			}
			want := 0
			for n := 1; n <= maxPlies && want == 0; n++ {
				if bruteWins(g, p.ToMove, n) {
					want = n
				}
			}
			for _, ts := range []Tables{nil, tables} {
				pit, got, ok := ForcedWin(context.Background(), rules, p, nil, maxPlies, 1<<30, ts)
				if !ok {
					got = 0
				}
				if got != want {
					t.Errorf("%s %s (tables %v): %d plies, want %d", rules.Name(), rules.FormatPosition(p), ts != nil, got, want)
					continue
				}
				if ok {
					// The move given wins within the rest.
					c := g.Clone()
					c.Play(pit)
					if !bruteWins(c, p.ToMove, want-1) {
						t.Errorf("%s %s: %s does not win in %d", rules.Name(), rules.FormatPosition(p), engine.Label(pit), want)
					}
				}
			}
			if want > 0 {
				found++
			}
			if want >= 3 {
				long++
			}
		}
		if found < 12 || long < 3 {
			t.Errorf("%s: %d positions with a forced win, %d of 3 plies or more; want enough to compare", rules.Name(), found, long)
		}
	}
}
