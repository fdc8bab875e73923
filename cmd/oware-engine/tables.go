package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"oware/engine"
	"oware/engine/endgame"
)

// tables builds (or with --verify checks) an endgame table file.
func tables(args []string, out, progress io.Writer) error {
	fs := flag.NewFlagSet("tables", flag.ContinueOnError)
	rulesName := fs.String("rules", "", "abapa, wari or warri")
	maxSeeds := fs.Int("max-seeds", -1, "largest number of seeds on the board")
	dir := fs.String("out", "", "folder of the table files")
	verify := fs.Bool("verify", false, "check the file by one step of play from every board")
	rest, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{fmt.Errorf("tables takes no arguments, got %q", rest)}
	}
	r, err := engine.RulesByName(*rulesName)
	o, ok := r.(engine.Oware)
	if *rulesName == "" || err != nil || !ok {
		return usageError{fmt.Errorf("--rules %q: want abapa, wari or warri", *rulesName)}
	}
	if *maxSeeds < 0 || *maxSeeds > endgame.MaxSeedsLimit {
		return usageError{fmt.Errorf("--max-seeds %d: want 0 to %d", *maxSeeds, endgame.MaxSeedsLimit)}
	}
	if *dir == "" {
		return usageError{errors.New("--out DIR is required")}
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(*dir, endgame.FileName(o, *maxSeeds))
	if _, err := os.Stat(path); *verify && err == nil {
		return verifyTable(path, out, progress)
	}
	start := time.Now()
	last := time.Time{}
	t, err := endgame.Build(context.Background(), o, *maxSeeds, func(p endgame.Progress) {
		if p.Step == "moves" || p.Step == "done" || time.Since(last) > 10*time.Second {
			last = time.Now()
			fmt.Fprintf(progress, "%s %s: %d seeds, %s round %d, %d boards pending; %d of %d boards done\n",
				time.Since(start).Round(time.Second), p.Rules, p.Seeds, p.Step, p.Round, p.Pending, p.Done, p.Total)
		}
	})
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if err := t.WriteFile(path); err != nil {
		return err
	}
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	boards, exact := t.Exact()
	var all, ex uint64
	for i := range boards {
		all, ex = all+boards[i], ex+exact[i]
	}
	fmt.Fprintf(out, "%s: %d boards of up to %d seeds, %.1f MB, built in %s, %.0f MB from the system (Go runtime), %.1f %% exact (%.1f %% of the %d-seed boards)\n",
		path, all, *maxSeeds, float64(all+32)/1e6, elapsed.Round(time.Second), float64(mem.Sys)/(1<<20),
		100*float64(ex)/float64(all), 100*float64(exact[*maxSeeds])/float64(boards[*maxSeeds]), *maxSeeds)
	if *verify {
		return verifyTable(path, out, progress)
	}
	return nil
}

// verifyTable opens a table file and checks every board of it.
func verifyTable(path string, out, progress io.Writer) error {
	start := time.Now()
	t, err := endgame.Open(path)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := t.Verify(func(done, total uint64) {
		fmt.Fprintf(progress, "verified %d of %d boards\n", done, total)
	}); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: every board verified in %s\n", path, time.Since(start).Round(time.Millisecond))
	return nil
}
