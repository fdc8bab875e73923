package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"oware/engine"
	"oware/engine/search"
)

// maxOpenings bounds the openings a file may hold.
const maxOpenings = 100000

// readOpenings reads a file of openings: one a line, the move labels from
// the start position separated by spaces; "#" starts a comment, blank
// lines are skipped. Every opening must be legal and leave the game on.
func readOpenings(r engine.Rules, name string) ([][]int, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("--openings: %w", err)
	}
	defer f.Close()
	var book [][]int
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		labels := strings.Fields(line)
		if len(labels) == 0 {
			continue
		}
		g := engine.NewGame(r, r.Start())
		for _, label := range labels {
			pit, err := engine.ParseLabel(label)
			if err == nil {
				_, err = g.Play(pit)
			}
			if err != nil {
				return nil, fmt.Errorf("%s:%d: move %q: %w", name, n, label, err)
			}
		}
		if g.Over {
			return nil, fmt.Errorf("%s:%d: the game is over after this opening", name, n)
		}
		if len(book) == maxOpenings {
			return nil, fmt.Errorf("%s: more than %d openings", name, maxOpenings)
		}
		book = append(book, g.Moves)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(book) == 0 {
		return nil, fmt.Errorf("%s: no opening", name)
	}
	return book, nil
}

// openings prints balanced openings: random openings of a few plies whose
// value, searched to a fixed depth, is within a margin of 0 (a file for
// match --openings).
func openings(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("openings", flag.ContinueOnError)
	rulesName := fs.String("rules", "abapa", "rule set")
	count := fs.Int("count", 200, "openings to print")
	plies := fs.Int("plies", 6, "random plies of each opening")
	depth := fs.Int("depth", 12, "depth of the search that values an opening")
	margin := fs.Float64("margin", 1, "largest value kept, in seeds either way")
	seed := fs.Uint64("seed", 1, "seed of the random moves")
	rest, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return usageError{fmt.Errorf("openings takes no arguments, got %q", rest)}
	case *count < 1 || *count > maxOpenings:
		return usageError{fmt.Errorf("--count %d: want 1 to %d", *count, maxOpenings)}
	case *plies < 1 || *plies > 40:
		return usageError{fmt.Errorf("--plies %d: want 1 to 40", *plies)}
	case *depth < 1 || *depth > 30:
		return usageError{fmt.Errorf("--depth %d: want 1 to 30", *depth)}
	case !(*margin >= 0 && *margin <= 48):
		return usageError{errors.New("--margin: want 0 to 48 seeds")}
	}
	r, err := engine.RulesByName(*rulesName)
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(out, "# oware-engine openings --rules %s --count %d --plies %d --depth %d --margin %g --seed %d\n",
		r.Name(), *count, *plies, *depth, *margin, *seed)
	fmt.Fprintf(out, "# moves from the start; the value (seeds, for the player to move) at depth %d\n", *depth)
	s := search.NewSearcher(16, nil)
	rng := rand.New(rand.NewPCG(*seed, 0x0BE7))
	seen := map[engine.Position]bool{}
	for found, tries := 0, 0; found < *count; tries++ {
		if tries >= 1000*(*count) {
			return fmt.Errorf("only %d openings within %g seeds after %d tries", found, *margin, tries)
		}
		moves := randomOpening(r, rng, *plies)
		g, _ := engine.ReplayGame(r, r.Start(), moves)
		if seen[g.Position] {
			continue
		}
		seen[g.Position] = true
		s.NewGame()
		res, err := s.Search(context.Background(), g, search.Options{Limits: search.Limits{Depth: *depth}, NoTables: true})
		if err != nil {
			continue
		}
		if v := float64(res.Score) / 100; math.Abs(v) <= *margin {
			fmt.Fprintf(out, "%s  # %+.2f\n", labels(moves), v)
			found++
		}
	}
	return nil
}
