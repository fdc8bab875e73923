package puzzle

import (
	"oware/engine"
)

// Puzzles from played games (oware-engine puzzles --from, oware
// mine-puzzles): every position of a game's record whose board the
// endgame table covers is tried with Solve, the position taken as the
// start of a puzzle (as every puzzle is, RULES.md 3), so a game's
// endgame gives the puzzles in which exactly one move wins by the tables'
// proof, with the same solution, themes, rating and Verify as the
// generated ones. Positions with more seeds than the tables cover give
// none here; Deep.MineDeep makes the deep search puzzles of those.

// Mine returns the puzzles of the game played from start by moves under
// rules (a move that is not legal ends the game there), in the order of
// the positions, each once; positions without a table of ts, or with the
// game over, are skipped.
func Mine(ts Tables, rules engine.Oware, start engine.Position, moves []int) []*Puzzle {
	t := ts.Table(rules)
	if t == nil {
		return nil
	}
	var out []*Puzzle
	seen := map[string]bool{}
	g := engine.NewGame(rules, start)
	for i := 0; ; i++ {
		pos := g.Position
		if pos.BoardSeeds() <= t.MaxSeeds() {
			if p, ok := Solve(t, rules, pos); ok && !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
		if i == len(moves) || g.Over {
			return out
		}
		if _, err := g.Play(moves[i]); err != nil {
			return out
		}
	}
}
