package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"oware/engine/search"
)

// bookCommand builds the opening book (search.BuildBook) into a file.
func bookCommand(args []string, out, progress io.Writer) error {
	fs := flag.NewFlagSet("book", flag.ContinueOnError)
	outFile := fs.String("out", "", "the book file to write")
	positions := fs.Int("positions", 500, "positions to expand")
	depth := fs.Int("depth", 12, "depth of the search of each move")
	dropOut := fs.Int("dropout", 40, "cost of a ply in centi-seeds (drop-out expansion)")
	seed := fs.Uint64("seed", 1, "seed of the searches")
	hash := fs.Int("hash", 16, "transposition table size in MB")
	limit := fs.Duration("time", 0, "stop after this long with the book so far (e.g. 20m)")
	rest, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return usageError{fmt.Errorf("book takes no arguments, got %q", rest)}
	case *outFile == "":
		return usageError{fmt.Errorf("give --out FILE")}
	case *positions < 1 || *positions > 1_000_000:
		return usageError{fmt.Errorf("--positions %d: want 1 to 1000000", *positions)}
	case *depth < 1 || *depth > 30:
		return usageError{fmt.Errorf("--depth %d: want 1 to 30", *depth)}
	case *dropOut < 1 || *dropOut > 10000:
		return usageError{fmt.Errorf("--dropout %d: want 1 to 10000 centi-seeds", *dropOut)}
	case *hash < 1 || *hash > 4096:
		return usageError{fmt.Errorf("--hash %d: want 1 to 4096 MB", *hash)}
	}
	start := time.Now()
	ctx := context.Background()
	if *limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *limit)
		defer cancel()
	}
	s := search.NewSearcher(*hash, nil)
	data, err := s.BuildBook(ctx, search.BookOptions{
		Positions: *positions, Depth: *depth, Seed: *seed, DropOut: *dropOut,
		Progress: func(n int) {
			if n%25 == 0 {
				fmt.Fprintf(progress, "book: %d positions, %s\n", n, time.Since(start).Round(time.Second))
			}
		},
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(*outFile, data, 0o644); err != nil {
		return err
	}
	b, _ := search.ParseBook(data)
	fmt.Fprintf(out, "%s: %d positions, %d bytes, %s\n", *outFile, b.Len(), len(data), time.Since(start).Round(time.Second))
	return nil
}
