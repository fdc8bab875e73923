package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/search"
)

// uciEngine speaks the UCI-like protocol of the Aalina engine (see the
// usage text) on in and out. The main loop reads commands; a search runs in
// its own goroutine so that stop, isready and quit are heard meanwhile.
type uciEngine struct {
	out       *lockedWriter
	rules     engine.Rules
	level     search.Level
	hashMB    int
	threads   int // searching at once (search.Options.Threads)
	useTables bool
	ownBook   bool // levels 6-8 play from the embedded opening book
	tablesDir string
	tables    endgame.Tables
	weights   search.Weights
	pits      *search.PitTable // added to weights (search.DefaultPits, --pits FILE), or nil (--pits none)
	searcher  *search.Searcher
	game      *engine.Game
	seed      uint64

	cancel   context.CancelFunc // of the search under way
	finished chan struct{}      // closed when its bestmove is out
	release  chan struct{}      // closed by stop: a ponder search may answer
}

// lockedWriter serializes the lines of the main loop and of a search.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", args...)
}

// uci runs the protocol on in and out until quit or the end of in.
func uci(args []string, in io.Reader, out io.Writer) error {
	fs := flag.NewFlagSet("uci", flag.ContinueOnError)
	level := fs.Int("level", int(search.MaxLevel), "level 1-8")
	rulesName := fs.String("rules", "abapa", "rule set")
	hash := fs.Int("hash", 64, "transposition table size in MB")
	threads := fs.Int("threads", 1, "threads searching at once (lazy SMP)")
	tablesDir := fs.String("tables", "", "folder of endgame table files")
	weights := fs.String("weights", "", "evaluation weights, e.g. row=12,mobility=45")
	pits := fs.String("pits", "", "a pit table file (oware-engine tune --pits) in place of the default one, or none")
	seed := fs.Uint64("seed", 1, "seed of the variety of play")
	book := fs.Bool("book", true, "levels 6-8 play from the opening book")
	rest, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{fmt.Errorf("uci takes no arguments, got %q", rest)}
	}
	e := &uciEngine{out: &lockedWriter{w: out}, level: search.Level(*level), hashMB: *hash,
		useTables: *tablesDir != "", ownBook: *book, tablesDir: *tablesDir, seed: *seed, weights: search.DefaultWeights()}
	switch *pits {
	case "":
		e.pits = search.DefaultPits()
	case "none":
	default:
		t, err := readPitTable(*pits)
		if err != nil {
			return usageError{err}
		}
		e.pits = t
	}
	for _, opt := range [][2]string{{"Level", strconv.Itoa(*level)}, {"Hash", strconv.Itoa(*hash)}, {"Threads", strconv.Itoa(*threads)}, {"Rules", *rulesName}, {"Weights", *weights}} {
		if err := e.setOption(opt[0], opt[1]); err != nil {
			return usageError{err}
		}
	}
	defer func() {
		e.stop()
		e.tables.Close()
	}()
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if !e.command(strings.Fields(sc.Text())) {
			return nil
		}
	}
	return sc.Err()
}

// command runs one line; false ends the loop (quit).
func (e *uciEngine) command(f []string) bool {
	if len(f) == 0 {
		return true
	}
	switch f[0] {
	case "uci":
		e.out.printf("id name oware-engine\nid author the Oware site's engine")
		e.out.printf("option name Level type spin default %d min 1 max 8", e.level)
		e.out.printf("option name Hash type spin default %d min 1 max 4096", e.hashMB)
		e.out.printf("option name Threads type spin default %d min 1 max %d", e.threads, search.MaxThreads)
		e.out.printf("option name UseTables type check default %v", e.useTables)
		e.out.printf("option name OwnBook type check default %v", e.ownBook)
		e.out.printf("option name Rules type combo default %s var abapa var wari var warri var namnam", e.rules.Name())
		e.out.printf("option name Weights type string default %s", e.weights)
		e.out.printf("uciok")
	case "isready":
		e.out.printf("readyok")
	case "ucinewgame":
		e.stop()
		e.searcher.NewGame()
		e.game = engine.NewGame(e.rules, e.rules.Start())
		e.seed++
	case "setoption":
		e.stop()
		name, value := optionOf(f[1:])
		if err := e.setOption(name, value); err != nil {
			e.out.printf("info string %v", err)
		}
	case "position":
		e.stop()
		if err := e.position(f[1:]); err != nil {
			e.out.printf("info string %v", err)
		}
	case "go":
		e.stop()
		e.goSearch(f[1:])
	case "stop", "ponderhit":
		e.stop()
	case "d":
		e.out.printf("info string position %s moves %s", e.rules.FormatPosition(e.game.Position), labels(e.game.Moves))
	case "quit":
		return false
	default:
		e.out.printf("info string unknown command %q", f[0])
	}
	return true
}

// optionOf reads "name N... value V..." of setoption.
func optionOf(f []string) (name, value string) {
	s := strings.Join(f, " ")
	s = strings.TrimPrefix(s, "name ")
	name, value, _ = strings.Cut(s, " value ")
	return strings.TrimSpace(name), strings.TrimSpace(value)
}

// setOption sets an option (names are case-insensitive).
func (e *uciEngine) setOption(name, value string) error {
	switch strings.ToLower(name) {
	case "level":
		l, err := search.ParseLevel(value)
		if err != nil {
			return err
		}
		e.level = l
	case "hash":
		mb, err := strconv.Atoi(value)
		if err != nil || mb < 1 || mb > 4096 {
			return fmt.Errorf("hash %q: want 1 to 4096 MB", value)
		}
		e.hashMB, e.searcher = mb, nil
	case "threads":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > search.MaxThreads {
			return fmt.Errorf("threads %q: want 1 to %d", value, search.MaxThreads)
		}
		e.threads = n
	case "usetables":
		on, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("UseTables %q: want true or false", value)
		}
		if on && e.tablesDir == "" {
			return errors.New("UseTables: no tables folder (start with --tables DIR)")
		}
		e.useTables, e.searcher = on, nil
	case "ownbook":
		on, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("OwnBook %q: want true or false", value)
		}
		e.ownBook = on
	case "rules":
		r, err := engine.RulesByName(value)
		if err != nil {
			return err
		}
		e.rules, e.game = r, engine.NewGame(r, r.Start())
	case "weights":
		w, err := search.ParseWeights(value)
		if err != nil {
			return err
		}
		w.Pits = e.pits
		e.weights = w
		if e.searcher != nil {
			e.searcher.Weights = w
		}
	default:
		return fmt.Errorf("unknown option %q", name)
	}
	if e.searcher == nil {
		if err := e.newSearcher(); err != nil {
			return err
		}
	}
	return nil
}

func (e *uciEngine) newSearcher() error {
	if e.useTables && e.tables == nil && e.tablesDir != "" {
		t, err := endgame.OpenDir(e.tablesDir)
		if err != nil {
			return err
		}
		e.tables = t
	}
	var tables search.Tables
	if e.useTables {
		tables = e.tables
	}
	e.searcher = search.NewSearcher(e.hashMB, tables)
	e.searcher.Weights = e.weights
	return nil
}

// readPitTable reads a pit table file.
func readPitTable(file string) (*search.PitTable, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return search.ReadPitTable(f)
}

// position reads "startpos [moves M...]" or "fen P [moves M...]"; the
// moves are labels, space-separated or written together ("FfBe").
func (e *uciEngine) position(f []string) error {
	if len(f) == 0 {
		return errors.New("position: want startpos or fen P")
	}
	start := e.rules.Start()
	rest := f[1:]
	switch f[0] {
	case "startpos":
	case "fen":
		if len(rest) == 0 {
			return errors.New("position fen: the position string is missing")
		}
		p, err := e.rules.ParsePosition(rest[0])
		if err != nil {
			return err
		}
		start, rest = p, rest[1:]
	default:
		return fmt.Errorf("position %q: want startpos or fen", f[0])
	}
	g := engine.NewGame(e.rules, start)
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf("position: %q where moves was expected", rest[0])
		}
		for i, c := range strings.Join(rest[1:], "") {
			pit, err := engine.ParseLabel(string(c))
			if err == nil {
				_, err = g.Play(pit)
			}
			if err != nil {
				return fmt.Errorf("position: move %d %q: %w", i+1, string(c), err)
			}
		}
	}
	e.game = g
	return nil
}

// goSearch starts a search with the limits of "go" (depth, movetime,
// wtime/btime/winc/binc, ponder, infinite) within the level's own.
func (e *uciEngine) goSearch(f []string) {
	opt, waitForStop := goOptions(e.level.Options(e.seed), f, e.game.Position.ToMove)
	opt.Threads = e.threads
	e.seed++
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel, e.finished, e.release = cancel, make(chan struct{}), make(chan struct{})
	opt.Info = func(r search.Result) {
		e.out.printf("info depth %d score cp %d pv %s", r.Depth, r.Score, labels(r.PV))
		e.out.printf("info nodes %d time %d nps %d", r.Nodes, r.Time.Milliseconds(),
			int64(float64(r.Nodes)/max(r.Time.Seconds(), 1e-6)))
	}
	g, s, finished, release := e.game, e.searcher, e.finished, e.release
	level, book := e.level, e.ownBook && !waitForStop
	go func() {
		defer close(finished)
		if book {
			if pit, ok := s.BookMove(g, level, opt.Seed); ok {
				e.out.printf("info string book")
				e.out.printf("bestmove %s", engine.Label(pit))
				return
			}
		}
		res, err := s.Search(ctx, g, opt)
		if waitForStop {
			<-release
		}
		if errors.Is(err, search.ErrGameOver) {
			e.out.printf("bestmove (none)")
			return
		}
		// Stopped before its first iteration, the search still names a
		// legal move (the first of its order): a ponder stopped at once
		// also ends with a move.
		e.out.printf("bestmove %s", engine.Label(res.Best))
	}()
}

// stop ends the search under way, if any, once its bestmove is out.
func (e *uciEngine) stop() {
	if e.cancel == nil {
		return
	}
	e.cancel()
	close(e.release)
	<-e.finished
	e.cancel = nil
}

// tighter returns the smaller of two limits, 0 meaning none.
func tighter(a, b int) int {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

func tighterTime(a, b time.Duration) time.Duration {
	return time.Duration(tighter(int(a), int(b)))
}

// labels writes pits as space-separated labels.
func labels(pits []int) string {
	s := make([]string, len(pits))
	for i, p := range pits {
		s[i] = engine.Label(p)
	}
	return strings.Join(s, " ")
}

// goOptions returns opt, a level's options, within the limits of the
// arguments f of "go" for the player toMove (their own clock of
// wtime/btime and winc/binc), and whether the search waits for "stop"
// (ponder, infinite). "go nodes N" alone replaces the level's time by the
// node count, so that a match at fixed nodes plays the same whatever the
// load.
func goOptions(opt search.Options, f []string, toMove engine.Side) (search.Options, bool) {
	var clock [4]int // wtime, btime, winc, binc
	waitForStop := false
	nodesOnly, timed := false, false
	for i := 0; i < len(f); i++ {
		arg := func() int {
			if i+1 < len(f) {
				i++
				n, _ := strconv.Atoi(f[i])
				return max(n, 0)
			}
			return 0
		}
		switch f[i] {
		case "depth":
			opt.Depth = tighter(opt.Depth, arg())
		case "movetime":
			timed = true
			opt.MoveTime = tighterTime(opt.MoveTime, time.Duration(arg())*time.Millisecond)
		case "wtime", "btime", "winc", "binc":
			timed = true
			k := map[string]int{"wtime": 0, "btime": 1, "winc": 2, "binc": 3}[f[i]] // before arg moves i on
			clock[k] = arg()
		case "nodes":
			opt.Nodes, nodesOnly = uint64(arg()), true
		case "ponder", "infinite":
			waitForStop, opt.MoveTime = true, 0
		}
	}
	if nodesOnly && !timed {
		opt.MoveTime = 0
	}
	if side := int(toMove); clock[side] > 0 && !waitForStop {
		ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
		opt.Clock = search.Clock{Left: ms(clock[side]), Increment: ms(clock[side+2])}
	}
	return opt, waitForStop
}
