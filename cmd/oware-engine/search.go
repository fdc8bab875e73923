package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/search"
)

// parseAll parses fs's flags, which may stand before, between or after the
// other arguments, and returns those.
func parseAll(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, helpRequested{err}
			}
			return nil, usageError{err}
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// openTables opens the table files of dir for the search ("" for none).
func openTables(dir string) (endgame.Tables, error) {
	if dir == "" {
		return nil, nil
	}
	return endgame.OpenDir(dir)
}

// bestLine is the output of `best --json`: the analysis API's object and
// the search's counts.
type bestLine struct {
	search.Analysis
	Nodes uint64 `json:"nodes"`
	// Cutoffs and FirstCutoffs: the beta cutoffs, and those by the first
	// move tried (search.Result).
	Cutoffs      uint64 `json:"cutoffs"`
	FirstCutoffs uint64 `json:"first_cutoffs"`
	TimeMS       int64  `json:"time_ms"`
}

// best searches a position and prints the best move.
func best(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("best", flag.ContinueOnError)
	rulesName := fs.String("rules", "", "rule set")
	fours := fs.String("fours", "", "namnam fours setting")
	position := fs.String("position", "", "position string")
	level := fs.Int("level", 0, "level 1-8")
	depth := fs.Int("depth", 0, "search depth in plies")
	movetime := fs.Int("movetime", 0, "search time in milliseconds")
	asJSON := fs.Bool("json", false, "print a JSON object")
	tablesDir := fs.String("tables", "", "folder of endgame table files")
	seed := fs.Uint64("seed", 1, "seed of the levels' variety")
	hash := fs.Int("hash", 64, "transposition table size in MB")
	threads := fs.Int("threads", 1, "threads searching at once (lazy SMP)")
	moves, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	g, err := gameFrom(*rulesName, *fours, *position, moves)
	if err != nil {
		return err
	}
	set := 0
	for _, v := range []int{*level, *depth, *movetime} {
		if v != 0 {
			set++
		}
	}
	var opt search.Options
	switch {
	case set > 1:
		return usageError{errors.New("give one of --level, --depth and --movetime")}
	case *level != 0:
		if !search.Level(*level).Valid() {
			return usageError{fmt.Errorf("--level %d: want 1 to 8", *level)}
		}
		opt = search.Level(*level).Options(*seed)
	case *depth != 0:
		if *depth < 1 || *depth > search.MaxDepth {
			return usageError{fmt.Errorf("--depth %d: want 1 to %d", *depth, search.MaxDepth)}
		}
		opt = search.Options{Limits: search.Limits{Depth: *depth}}
	case *movetime != 0:
		if *movetime < 1 || *movetime > 3_600_000 {
			return usageError{fmt.Errorf("--movetime %d: want 1 to 3600000 milliseconds", *movetime)}
		}
		opt = search.Options{Limits: search.Limits{MoveTime: time.Duration(*movetime) * time.Millisecond}}
	default:
		opt = search.MaxLevel.Options(*seed)
	}
	if *hash < 1 || *hash > 1<<16 {
		return usageError{fmt.Errorf("--hash %d: want 1 to 65536 MB", *hash)}
	}
	if *threads < 1 || *threads > search.MaxThreads {
		return usageError{fmt.Errorf("--threads %d: want 1 to %d", *threads, search.MaxThreads)}
	}
	opt.Threads = *threads
	tables, err := openTables(*tablesDir)
	if err != nil {
		return err
	}
	defer tables.Close()
	res, err := search.NewSearcher(*hash, tables).Search(context.Background(), g, opt)
	if err != nil {
		return err
	}
	a := res.Analysis()
	if *asJSON {
		b, _ := json.Marshal(bestLine{a, res.Nodes, res.Cutoffs, res.FirstCutoffs, res.Time.Milliseconds()})
		fmt.Fprintf(out, "%s\n", b)
		return nil
	}
	fmt.Fprintf(out, "best %s\nvalue %.2f\ndepth %d\npv %s\nexact %v\n", a.Best, a.Value, a.Depth, strings.Join(a.PV, " "), a.Exact)
	return nil
}

// gameFrom starts a game of the named rules from position (the start when
// empty) and plays the move labels in it.
func gameFrom(rulesName, fours, position string, moves []string) (*engine.Game, error) {
	if rulesName == "" {
		return nil, usageError{errors.New("--rules is required (abapa, wari, warri or namnam)")}
	}
	r, err := engine.NewRules(rulesName, fours)
	if err != nil {
		return nil, usageError{err}
	}
	start := r.Start()
	if position != "" {
		if start, err = r.ParsePosition(position); err != nil {
			return nil, usageError{err}
		}
	}
	g := engine.NewGame(r, start)
	for i, label := range moves {
		pit, err := engine.ParseLabel(label)
		if err == nil {
			_, err = g.Play(pit)
		}
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, label, err)
		}
	}
	return g, nil
}
