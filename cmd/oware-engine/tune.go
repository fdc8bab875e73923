package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/search"
)

// tune fits the evaluation's weights (search.FitWeights) to labels made by
// our own code: exact values of an endgame table built in memory, and
// deep searches of positions from self-play games.
func tune(args []string, out, progress io.Writer) error {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	games := fs.Int("games", 40, "self-play games (level 5) whose quiet positions are searched")
	depth := fs.Int("depth", 10, "depth of the search that labels a self-play position")
	tableSeeds := fs.Int("table-seeds", 10, "seeds of the endgame table built for labels (0: none)")
	tableSamples := fs.Int("table-samples", 3000, "random positions drawn from the table")
	step := fs.Int("step", 16, "first step of the local search, centi-seeds")
	seed := fs.Uint64("seed", 1, "seed of the games and the draws")
	pits := fs.String("pits", "", "also fit a pit table on top of the default weights and write it to this file")
	rounds := fs.Int("rounds", 2000, "rounds of gradient descent of the pit table")
	rest, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return usageError{fmt.Errorf("tune takes no arguments, got %q", rest)}
	case *games < 0 || *games > 100000 || *depth < 1 || *depth > 30:
		return usageError{fmt.Errorf("--games 0..100000, --depth 1..30")}
	case *tableSeeds < 0 || *tableSeeds > 14 || *tableSamples < 0 || *tableSamples > 10_000_000:
		return usageError{fmt.Errorf("--table-seeds 0..14, --table-samples 0..10000000")}
	case *step < 1 || *step > 500:
		return usageError{fmt.Errorf("--step %d: want 1 to 500", *step)}
	case *rounds < 1 || *rounds > 1_000_000:
		return usageError{fmt.Errorf("--rounds %d: want 1 to 1000000", *rounds)}
	}
	rng := rand.New(rand.NewPCG(*seed, 0x7E5E))
	samples := selfPlaySamples(rng, *games, *depth, progress)
	played := len(samples)
	if *tableSeeds > 0 && *tableSamples > 0 {
		fmt.Fprintf(progress, "tune: building the %d-seed table\n", *tableSeeds)
		t, err := endgame.Build(context.Background(), engine.Oware{}, *tableSeeds, nil)
		if err != nil {
			return err
		}
		samples = append(samples, tableLabels(rng, t, *tableSamples)...)
	}
	if len(samples) == 0 {
		return usageError{fmt.Errorf("no samples: give --games or --table-seeds")}
	}
	start := search.DefaultWeights()
	before := start.Loss(samples)
	w, after := search.FitWeights(samples, start, *step)
	fmt.Fprintf(out, "samples %d (self-play %d, table %d)\nloss %.6f with %s\nloss %.6f with %s\n",
		len(samples), played, len(samples)-played, before, start, after, w)
	if *pits == "" {
		return nil
	}
	return fitPits(samples, start, *rounds, *pits, out)
}

// pitRate is the step of the pit table's gradient descent (centi-seeds
// per unit of the loss's gradient).
const pitRate = 50000

// fitPits fits a pit table on top of w (search.FitPits) to half of the
// samples, prints its loss on the other half against w's alone (a fit
// that only learned its own samples does no better there), and writes it
// to file.
func fitPits(samples []search.Sample, w search.Weights, rounds int, file string, out io.Writer) error {
	var fit, check []search.Sample
	for i, s := range samples {
		if i%2 == 0 {
			fit = append(fit, s)
		} else {
			check = append(check, s)
		}
	}
	t := search.FitPits(fit, w, rounds, pitRate)
	with := w
	with.Pits = t
	fmt.Fprintf(out, "pit table: loss %.6f (held-out half %.6f) with it, %.6f (%.6f) without\n",
		with.Loss(fit), with.Loss(check), w.Loss(fit), w.Loss(check))
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := t.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// selfPlayOptions is how the self-play games of tune move: a search to
// depth 6 with 40 centi-seeds of noise (level 5 when the pit table was
// fitted), fixed here so that the labels stay reproducible when the
// levels are tuned again.
func selfPlayOptions(seed uint64) search.Options {
	return search.Options{Limits: search.Limits{Depth: 6}, Noise: 40, Seed: seed, NoTables: true}
}

// selfPlaySamples plays games (selfPlayOptions) from random 4-ply openings
// and labels each quiet position after the opening with a search to depth.
func selfPlaySamples(rng *rand.Rand, games, depth int, progress io.Writer) []search.Sample {
	o := engine.Oware{}
	player, labeller := search.NewSearcher(16, nil), search.NewSearcher(16, nil)
	var samples []search.Sample
	for game := range games {
		g, _ := engine.ReplayGame(o, o.Start(), randomOpening(o, rng, 4))
		for !g.Over && len(g.Moves) < 200 {
			if search.Quiet(&g.Position) {
				res, err := labeller.Search(context.Background(), g, search.Options{Limits: search.Limits{Depth: depth}, NoTables: true})
				if err == nil {
					samples = append(samples, search.Sample{Pos: g.Position, Target: res.Score})
				}
			}
			opt := selfPlayOptions(rng.Uint64())
			if g.LegalMoves().Count() == 1 {
				opt.Depth = 1 // as search.Searcher.Move does
			}
			res, err := player.Search(context.Background(), g, opt)
			if err != nil {
				break
			}
			g.Play(res.Best)
		}
		fmt.Fprintf(progress, "tune: game %d, %d positions\n", game+1, len(samples))
	}
	return samples
}

// tableLabels draws n random quiet positions of at most the table's seeds
// whose value the table knows exactly.
func tableLabels(rng *rand.Rand, t *endgame.Table, n int) []search.Sample {
	o := engine.Oware{}
	var samples []search.Sample
	for tries := 0; len(samples) < n && tries < 100*n; tries++ {
		p := o.Start()
		p.Pits = [engine.NumPits]uint8{}
		seeds := 2 + rng.IntN(t.MaxSeeds()-1)
		for range seeds {
			p.Pits[rng.IntN(engine.NumPits)]++
		}
		rest := engine.TotalSeeds - seeds
		south := rng.IntN(rest + 1)
		if south >= engine.WinningCaptures || rest-south >= engine.WinningCaptures {
			continue
		}
		p.Captured = [2]uint8{uint8(south), uint8(rest - south)}
		p.ToMove = engine.Side(rng.IntN(2))
		if o.LegalMoves(p) == 0 || !search.Quiet(&p) {
			continue
		}
		lo, hi, ok := t.Probe(&p)
		if !ok || lo != hi {
			continue
		}
		diff := int(p.Captured[p.ToMove]) - int(p.Captured[p.ToMove.Opponent()])
		samples = append(samples, search.Sample{Pos: p, Target: 100 * (diff + lo)})
	}
	return samples
}
