package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"oware/engine"
)

// player chooses a move in a game.
type player func(g *engine.Game) int

// randomPlayer plays a legal move at random.
func randomPlayer(rng *rand.Rand) player {
	return func(g *engine.Game) int {
		legal := g.LegalMoves().Pits()
		return legal[rng.IntN(len(legal))]
	}
}

// greedyPlayer plays the move that captures the most seeds at once (ties
// at random): what a player who just finished the tutorial does.
func greedyPlayer(rng *rand.Rand) player {
	return func(g *engine.Game) int {
		best, bestPits := -1, []int(nil)
		me := g.Position.ToMove
		for _, pit := range g.LegalMoves().Pits() {
			c := g.Position
			g.Rules.(engine.Oware).Apply(&c, pit)
			gain := int(c.Captured[me]) - int(g.Position.Captured[me])
			switch {
			case gain > best:
				best, bestPits = gain, []int{pit}
			case gain == best:
				bestPits = append(bestPits, pit)
			}
		}
		return bestPits[rng.IntN(len(bestPits))]
	}
}

// levelPlayer plays at level with a new seed each game.
func levelPlayer(t *testing.T, level Level, seed uint64) player {
	s := NewSearcher(1, nil)
	return func(g *engine.Game) int {
		pit, err := s.Move(context.Background(), g, level, seed, false)
		if err != nil {
			t.Fatal(err)
		}
		return pit
	}
}

// score plays games between a and b from the start, seats swapped every
// game, and returns a's points (1 a win, 1/2 a draw). A game of 300 plies
// ends as by agreement.
func score(t *testing.T, games int, a, b func(game int) player) float64 {
	points := 0.0
	for game := range games {
		g := engine.NewGame(engine.Oware{}, engine.Oware{}.Start())
		seats := [2]player{a(game), b(game)}
		aSeat := engine.Side(game % 2)
		if aSeat == engine.North {
			seats[0], seats[1] = seats[1], seats[0]
		}
		for !g.Over && len(g.Moves) < 300 {
			if _, err := g.Play(seats[g.Position.ToMove](g)); err != nil {
				t.Fatal(err)
			}
		}
		if !g.Over {
			g.Agree()
		}
		switch g.Result {
		case engine.Winner(aSeat):
			points++
		case engine.Draw:
			points += 0.5
		}
	}
	return points
}

// TestLevelFloor keeps the promise of the lowest levels (fixed seeds, so
// the counts are the same on every run): a random player loses to level
// 2, and level 1 loses often to a greedy player (but beats a random one).
func TestLevelFloor(t *testing.T) {
	const games = 60
	rng := rand.New(rand.NewPCG(22, 7))
	level2 := score(t, games, func(game int) player { return levelPlayer(t, 2, uint64(game)) },
		func(int) player { return randomPlayer(rng) })
	if level2 < 0.85*games {
		t.Errorf("level 2 scored %v of %d against a random player, want at least 85 %%", level2, games)
	}
	greedy := score(t, games, func(int) player { return greedyPlayer(rng) },
		func(game int) player { return levelPlayer(t, 1, uint64(game)) })
	if greedy < 0.4*games {
		t.Errorf("a greedy player scored %v of %d against level 1, want at least 40 %%", greedy, games)
	}
	level1 := score(t, games, func(game int) player { return levelPlayer(t, 1, uint64(game)) },
		func(int) player { return randomPlayer(rng) })
	if level1 < 0.5*games {
		t.Errorf("level 1 scored %v of %d against a random player, want at least half", level1, games)
	}
	t.Logf("level 2 against random %v/%d; greedy against level 1 %v/%d; level 1 against random %v/%d", level2, games, greedy, games, level1, games)
}
