package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/puzzle"
	"oware/engine/search"
)

// proofFailed is a puzzle file with a puzzle that is not proven unique:
// exit status 1.
type proofFailed struct{ error }

// puzzles builds a puzzle file from the endgame tables, or with --verify
// proves every puzzle of one again.
func puzzles(args []string, out, progress io.Writer) error {
	fs := flag.NewFlagSet("puzzles", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	verify := fs.String("verify", "", "the puzzle file to prove again")
	tablesDir := fs.String("tables", "", "folder of table files (default: build the tables needed in memory)")
	minSeeds := fs.Int("min-seeds", 5, "fewest seeds on the board")
	maxSeeds := fs.Int("max-seeds", 10, "most seeds on the board")
	count := fs.Int("count", 600, "puzzles wanted")
	tries := fs.Int("tries", 2000000, "positions drawn at most")
	seed := fs.Uint64("seed", 1, "seed of the random positions")
	outFile := fs.String("out", "-", "the file to write (- for standard output)")
	mine := fs.Bool("mine", false, "mine the game records named after the flags (OGN, one game a file) instead of drawing positions")
	deep := fs.Int("deep", 0, "deep search puzzles wanted (more seeds than --max-seeds)")
	deepMax := fs.Int("deep-max-seeds", 18, "most seeds on the board of a deep search puzzle")
	selfPlay := fs.Int("self-play", 0, "games of each rule set the computer plays against itself (depth 4) to mine")
	rest, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	if *verify != "" {
		if len(rest) > 0 {
			return usageError{fmt.Errorf("puzzles --verify takes no arguments, got %q", rest)}
		}
		return verifyPuzzles(*verify, *tablesDir, out, progress)
	}
	if *mine {
		return minePuzzles(rest, *tablesDir, *maxSeeds, *outFile, out, progress)
	}
	if *minSeeds < 1 || *maxSeeds < *minSeeds || *maxSeeds > endgame.MaxSeedsLimit || *count < 0 || *tries < 1 ||
		*deep < 0 || *selfPlay < 0 || *deepMax <= *maxSeeds || *deepMax > puzzle.MaxDeepSeeds {
		return usageError{fmt.Errorf("want 1 <= --min-seeds <= --max-seeds <= %d < --deep-max-seeds <= %d, --tries above 0, --count, --deep and --self-play 0 or more",
			endgame.MaxSeedsLimit, puzzle.MaxDeepSeeds)}
	}
	recs, err := readRecords(rest)
	if err != nil {
		return err
	}
	all := []engine.Oware{{GrandSlam: engine.Abapa}, {GrandSlam: engine.Warri}, {GrandSlam: engine.Abapa}, {GrandSlam: engine.Wari}}
	need := map[engine.Oware]int{}
	for _, r := range all {
		need[r] = *maxSeeds
	}
	start := time.Now()
	ts, err := tablesFor(*tablesDir, need, progress)
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "tables ready in %s\n", time.Since(start).Round(time.Millisecond))
	var ps []*puzzle.Puzzle
	if *count > 0 {
		ps = puzzle.Generate(ts, puzzle.Options{Rules: all, MinSeeds: *minSeeds, MaxSeeds: *maxSeeds, Count: *count, Tries: *tries, Seed: *seed})
	}
	d := puzzle.NewDeep()
	ctx := context.Background()
	if *deep > 0 {
		more, err := d.GenerateDeep(ctx, puzzle.DeepOptions{Rules: all, MinSeeds: *maxSeeds + 1, MaxSeeds: *deepMax, Count: *deep, Tries: *tries, Seed: *seed})
		if err != nil {
			return err
		}
		fmt.Fprintf(progress, "%d deep search puzzles after %s\n", len(more), time.Since(start).Round(time.Millisecond))
		ps = append(ps, more...)
	}
	for i := range *selfPlay {
		for _, r := range all[1:] {
			recs = append(recs, selfPlayRecord(r, *seed+uint64(i)))
		}
	}
	for _, rec := range recs {
		o := rec.Rules.(engine.Oware)
		ps = append(ps, puzzle.Mine(ts, o, rec.Start, rec.Moves)...)
		more, err := d.MineDeep(ctx, o, rec.Start, rec.Moves, *maxSeeds+1, *deepMax)
		if err != nil {
			return err
		}
		ps = append(ps, more...)
	}
	if len(recs) > 0 {
		fmt.Fprintf(progress, "%d games mined after %s\n", len(recs), time.Since(start).Round(time.Millisecond))
	}
	ps = onceEach(ps)
	if err := writePuzzles(*outFile, out, ps); err != nil {
		return err
	}
	themes := map[string]int{}
	for _, p := range ps {
		for _, th := range p.Themes {
			themes[th]++
		}
	}
	fmt.Fprintf(progress, "%d puzzles in %s; by theme: %v\n", len(ps), time.Since(start).Round(time.Millisecond), themes)
	return nil
}

// tablesFor opens the tables of need from dir, or without dir builds them
// in memory; a rule set whose table is missing or too small is an error.
func tablesFor(dir string, need map[engine.Oware]int, progress io.Writer) (endgame.Tables, error) {
	if dir == "" {
		fmt.Fprintf(progress, "building the tables in memory: %v\n", need)
		return puzzle.BuildTables(context.Background(), need)
	}
	ts, err := endgame.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	for r, seeds := range need {
		if t := ts.Table(r); t == nil || t.MaxSeeds() < seeds {
			return nil, fmt.Errorf("%s: no %s table of %d seeds or more", dir, r.Name(), seeds)
		}
	}
	return ts, nil
}

// verifyPuzzles proves every puzzle of a file again.
func verifyPuzzles(path, tablesDir string, out, progress io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	ps, err := puzzle.Read(f)
	f.Close()
	if err != nil {
		return err
	}
	start := time.Now()
	ts, err := tablesFor(tablesDir, puzzle.Needs(ps), progress)
	if err != nil {
		return err
	}
	built := time.Since(start)
	errs := puzzle.VerifyAll(ts, ps)
	for _, e := range errs {
		fmt.Fprintln(progress, e)
	}
	if len(errs) > 0 {
		return proofFailed{fmt.Errorf("%s: %d of %d puzzles not proven unique", path, len(errs), len(ps))}
	}
	ids := map[string]bool{}
	for _, p := range ps {
		if ids[p.ID] {
			return proofFailed{fmt.Errorf("%s: puzzle %s twice", path, p.ID)}
		}
		ids[p.ID] = true
	}
	fmt.Fprintf(out, "%s: all %d puzzles proven unique in %s (tables %s, proofs %s)\n", path, len(ps),
		time.Since(start).Round(time.Millisecond), built.Round(time.Millisecond), (time.Since(start) - built).Round(time.Millisecond))
	return nil
}

// minePuzzles writes the puzzles of the game records in files
// (puzzle.Mine): the positions of their games within tables of maxSeeds
// seeds (opened from tablesDir, or built in memory) where one move alone
// wins by the tables' proof. A record that cannot be read is an error
// naming the file; a Nam-nam record gives none.
func minePuzzles(files []string, tablesDir string, maxSeeds int, outFile string, out, progress io.Writer) error {
	if len(files) == 0 {
		return usageError{errors.New("puzzles --mine: name one or more game records")}
	}
	if maxSeeds < 1 || maxSeeds > endgame.MaxSeedsLimit {
		return usageError{fmt.Errorf("want 1 <= --max-seeds <= %d", endgame.MaxSeedsLimit)}
	}
	recs, err := readRecords(files)
	if err != nil {
		return err
	}
	need := map[engine.Oware]int{}
	for _, rec := range recs {
		need[rec.Rules.(engine.Oware)] = maxSeeds
	}
	start := time.Now()
	ts, err := tablesFor(tablesDir, need, progress)
	if err != nil {
		return err
	}
	var ps []*puzzle.Puzzle
	for _, rec := range recs {
		ps = append(ps, puzzle.Mine(ts, rec.Rules.(engine.Oware), rec.Start, rec.Moves)...)
	}
	ps = onceEach(ps)
	if err := writePuzzles(outFile, out, ps); err != nil {
		return err
	}
	fmt.Fprintf(progress, "%d puzzles from %d games in %s\n", len(ps), len(recs), time.Since(start).Round(time.Millisecond))
	return nil
}

// writePuzzles writes ps to the file path, or to out for "-".
func writePuzzles(path string, out io.Writer, ps []*puzzle.Puzzle) error {
	if path == "-" {
		return puzzle.Write(out, ps)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := puzzle.Write(f, ps); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readRecords reads the game records in files (OGN, one game a file) and
// returns those of Oware rule sets; a record that cannot be read is bad
// input naming the file.
func readRecords(files []string) ([]*engine.Record, error) {
	var recs []*engine.Record
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rec, err := engine.ReadRecord(string(b), engine.ReadOptions{})
		if err != nil {
			return nil, usageError{fmt.Errorf("%s: %w", f, err)}
		}
		if _, ok := rec.Rules.(engine.Oware); ok {
			recs = append(recs, rec)
		}
	}
	return recs, nil
}

// onceEach returns ps without the puzzles whose id came before.
func onceEach(ps []*puzzle.Puzzle) []*puzzle.Puzzle {
	ids := map[string]bool{}
	out := ps[:0:0]
	for _, p := range ps {
		if !ids[p.ID] {
			ids[p.ID] = true
			out = append(out, p)
		}
	}
	return out
}

// selfPlayDepth and selfPlayNoise make the self-play games of --self-play:
// a weak computer (about the site's low levels) whose noise varies the
// games, reproducible from the seed.
const (
	selfPlayDepth    = 4
	selfPlayNoise    = 150 // centi-seeds
	selfPlayMaxPlies = 400
)

// selfPlayRecord is a game under rules from the start that the search
// plays against itself at selfPlayDepth with selfPlayNoise and seed (the
// same seed and rules, the same game; each rule set its own noise), at
// most selfPlayMaxPlies plies.
func selfPlayRecord(rules engine.Oware, seed uint64) *engine.Record {
	s := search.NewSearcher(16, nil)
	g := engine.NewGame(rules, rules.Start())
	for ply := 0; ply < selfPlayMaxPlies && !g.Over; ply++ {
		res, err := s.Search(context.Background(), g, search.Options{Limits: search.Limits{Depth: selfPlayDepth}, Noise: selfPlayNoise, Seed: seed<<20 ^ uint64(rules.GrandSlam)<<16 ^ uint64(ply), NoTables: true})
		if err != nil {
			break
		}
		if _, err := g.Play(res.Best); err != nil {
			break
		}
	}
	return &engine.Record{Rules: rules, Start: g.Start, Moves: g.Moves}
}
