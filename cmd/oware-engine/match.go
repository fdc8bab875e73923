package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"oware/engine"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ", ") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// matchSummary is the result of a match, from the first engine's side
// (printed with --json).
type matchSummary struct {
	Engines [2]string `json:"engines"`
	Games   int       `json:"games"`
	Wins    int       `json:"wins"`
	Draws   int       `json:"draws"`
	Losses  int       `json:"losses"`
	Score   float64   `json:"score"`  // 0..1
	Margin  float64   `json:"margin"` // half the 95 % interval of Score
	// The Elo difference and its 95 % interval; null (JSON) where infinite
	// (a score of 0 or 100 %).
	Elo     *float64 `json:"elo"`
	EloLow  *float64 `json:"elo_low"`
	EloHigh *float64 `json:"elo_high"`
	// With --sprt: the pairs counted by the first engine's points in them
	// (0, 1/2, 1, 3/2, 2), the log-likelihood ratio, its bounds and the
	// decision ("H1", "H0", or "" when --games ran out first).
	Pentanomial *[5]int  `json:"pentanomial,omitempty"`
	LLR         *float64 `json:"llr,omitempty"`
	LLRLow      *float64 `json:"llr_low,omitempty"`
	LLRHigh     *float64 `json:"llr_high,omitempty"`
	SPRT        *string  `json:"sprt,omitempty"`
}

// matchConfig is what a match plays.
type matchConfig struct {
	rules    engine.Rules
	games    int
	movetime int // ms, 0 for none
	// clock is each side's clock at the start, and inc what a move adds
	// (ms; clock 0: none): "go wtime/btime/winc/binc", and a side whose
	// time runs out loses.
	clock, inc int
	depth      int
	nodes      uint64
	openings   int     // random plies each opening starts with
	book       [][]int // or the openings to play in turn (a pair each)
	maxPlies   int
	seed       uint64
	sprt       *sprt // the stop rule, or nil
}

// match referees games between two UCI engines and prints the score.
func match(args []string, out, progress io.Writer) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	var commands stringList
	fs.Var(&commands, "engine", "engine command (twice)")
	rulesName := fs.String("rules", "abapa", "rule set")
	games := fs.Int("games", 100, "number of games (pairs: even)")
	movetime := fs.Int("movetime", 0, "milliseconds per move")
	clock := fs.String("clock", "", "S+I: each side's clock, S seconds and I seconds a move (a side out of time loses)")
	depth := fs.Int("depth", 0, "search depth per move")
	nodes := fs.Uint64("nodes", 0, "nodes searched per move")
	openings := fs.String("openings", "4", "random plies each opening starts with, or a file of openings")
	sprtFlag := fs.String("sprt", "", "elo0,elo1: stop when the SPRT decides")
	alpha := fs.Float64("alpha", 0.05, "SPRT: the chance of accepting elo1 when elo0 holds")
	beta := fs.Float64("beta", 0.05, "SPRT: the chance of accepting elo0 when elo1 holds")
	maxPlies := fs.Int("max-plies", 600, "plies after which a game ends as by agreement")
	seed := fs.Uint64("seed", 1, "seed of the openings")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	rest, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return usageError{fmt.Errorf("match takes no arguments, got %q", rest)}
	case len(commands) != 2:
		return usageError{errors.New("give two --engine commands")}
	case *games < 1 || *games > 100000:
		return usageError{fmt.Errorf("--games %d: want 1 to 100000", *games)}
	case *movetime == 0 && *depth == 0 && *nodes == 0 && *clock == "":
		return usageError{errors.New("give --movetime MS, --clock S+I, --depth D or --nodes N")}
	case *movetime < 0 || *movetime > 600000 || *depth < 0 || *depth > 96 || *nodes > 1e10:
		return usageError{errors.New("--movetime 1..600000 ms, --depth 1..96, --nodes up to 10^10")}
	case *maxPlies < 10:
		return usageError{errors.New("--max-plies: want at least 10")}
	}
	r, err := engine.RulesByName(*rulesName)
	if err != nil {
		return usageError{err}
	}
	cfg := matchConfig{rules: r, games: *games, movetime: *movetime, depth: *depth, nodes: *nodes, maxPlies: *maxPlies, seed: *seed}
	if *clock != "" {
		if cfg.clock, cfg.inc, err = parseMatchClock(*clock); err != nil {
			return usageError{err}
		}
	}
	if cfg.openings, err = strconv.Atoi(*openings); err != nil {
		if cfg.book, err = readOpenings(r, *openings); err != nil {
			return usageError{err}
		}
	} else if cfg.openings < 0 || cfg.openings > 40 {
		return usageError{errors.New("--openings: want 0..40 random plies or a file")}
	}
	if *sprtFlag != "" {
		t, err := parseSPRT(*sprtFlag, *alpha, *beta)
		if err != nil {
			return usageError{err}
		}
		cfg.sprt = &t
	}
	// An interrupt (Ctrl-C, or SIGTERM from a timeout) ends the match
	// after the game under way, with the summary of the games played.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := runMatch(ctx, cfg, [2]string(commands), progress)
	if err != nil {
		return err
	}
	if *asJSON {
		b, _ := json.Marshal(sum)
		fmt.Fprintf(out, "%s\n", b)
		return nil
	}
	fmt.Fprintf(out, "%s vs %s: %d games, +%d =%d -%d\n", sum.Engines[0], sum.Engines[1], sum.Games, sum.Wins, sum.Draws, sum.Losses)
	fmt.Fprintf(out, "score %.1f %% ± %.1f %% (95 %%)\n", 100*sum.Score, 100*sum.Margin)
	fmt.Fprintf(out, "Elo %s (95 %%: %s to %s)\n", elo(sum.Elo, sum.Score), elo(sum.EloLow, sum.Score-sum.Margin), elo(sum.EloHigh, sum.Score+sum.Margin))
	if sum.LLR != nil {
		decision := map[string]string{"H1": "H1 accepted (elo1)", "H0": "H0 accepted (elo0)", "": "no decision"}[*sum.SPRT]
		fmt.Fprintf(out, "SPRT [%g, %g]: LLR %.2f (%.2f, %.2f), pairs %v: %s\n", cfg.sprt.Elo0, cfg.sprt.Elo1, *sum.LLR, *sum.LLRLow, *sum.LLRHigh, *sum.Pentanomial, decision)
	}
	return nil
}

// elo writes an Elo difference, or an infinity of the sign of score-0.5.
func elo(x *float64, score float64) string {
	if x == nil {
		return map[bool]string{true: "+inf", false: "-inf"}[score > 0.5]
	}
	return fmt.Sprintf("%+.0f", *x)
}

// runMatch plays the games, in pairs from the same opening with the
// engines' seats swapped, restarting an engine after it failed.
func runMatch(ctx context.Context, cfg matchConfig, commands [2]string, progress io.Writer) (matchSummary, error) {
	var procs [2]*uciProcess
	defer func() {
		for _, p := range procs {
			p.close()
		}
	}()
	rng := rand.New(rand.NewPCG(cfg.seed, 0x0A2E))
	sum := matchSummary{Engines: commands}
	var scores []float64
	var opening []int
	var penta [5]int
	decided := ""
	for game := 0; game < cfg.games && decided == "" && ctx.Err() == nil; game++ {
		switch {
		case game%2 == 1:
		case len(cfg.book) > 0:
			opening = cfg.book[game/2%len(cfg.book)]
		default:
			opening = randomOpening(cfg.rules, rng, cfg.openings)
		}
		for i := range procs {
			if procs[i] == nil {
				p, err := startEngine(commands[i], cfg.rules)
				if err != nil {
					return sum, fmt.Errorf("engine %d (%s): %w", i+1, commands[i], err)
				}
				procs[i] = p
			}
		}
		south := game % 2 // the engine seated South
		seats := [2]*uciProcess{procs[south], procs[1-south]}
		res, why, failed := refereeGame(cfg, seats, opening)
		score := map[engine.Result]float64{engine.SouthWins: 1, engine.NorthWins: 0, engine.Draw: 0.5}[res]
		if south == 1 {
			score = 1 - score
		}
		scores = append(scores, score)
		switch score {
		case 1:
			sum.Wins++
		case 0:
			sum.Losses++
		default:
			sum.Draws++
		}
		fmt.Fprintf(progress, "game %d: %s (South) vs %s: %s, %s; engine 1 +%d =%d -%d\n",
			game+1, commands[south], commands[1-south], res, why, sum.Wins, sum.Draws, sum.Losses)
		if failed >= 0 {
			i := failed ^ south // seat to engine index
			procs[i].close()
			procs[i] = nil
		}
		if cfg.sprt != nil && game%2 == 1 {
			penta[pentanomialIndex(scores[game-1], scores[game])]++
			llr := cfg.sprt.llr(penta)
			lower, upper := cfg.sprt.bounds()
			decided = cfg.sprt.decision(llr)
			fmt.Fprintf(progress, "sprt: LLR %.2f (%.2f, %.2f) pairs %v\n", llr, lower, upper, penta)
		}
	}
	if cfg.sprt != nil {
		llr := cfg.sprt.llr(penta)
		lower, upper := cfg.sprt.bounds()
		sum.Pentanomial, sum.LLR, sum.LLRLow, sum.LLRHigh, sum.SPRT = &penta, &llr, &lower, &upper, &decided
	}
	sum.Games = len(scores)
	sum.Score, sum.Margin = meanAndMargin(scores)
	sum.Elo = eloOf(sum.Score)
	sum.EloLow, sum.EloHigh = eloOf(sum.Score-sum.Margin), eloOf(sum.Score+sum.Margin)
	return sum, nil
}

// eloOf is the Elo difference that gives the expected score s, nil when
// s is 0 or 1 (or beyond).
func eloOf(s float64) *float64 {
	if s <= 0 || s >= 1 {
		return nil
	}
	e := -400 * math.Log10(1/s-1)
	return &e
}

// meanAndMargin returns the mean of the game scores and half the width of
// its 95 % confidence interval (normal approximation).
func meanAndMargin(scores []float64) (float64, float64) {
	n := float64(len(scores))
	var mean, sq float64
	for _, s := range scores {
		mean += s / n
	}
	for _, s := range scores {
		sq += (s - mean) * (s - mean) / n
	}
	return mean, 1.96 * math.Sqrt(sq/n)
}

// randomOpening plays plies random legal moves from the start, again until
// the game is still on after them.
func randomOpening(r engine.Rules, rng *rand.Rand, plies int) []int {
	for {
		g := engine.NewGame(r, r.Start())
		for range plies {
			legal := g.LegalMoves().Pits()
			if len(legal) == 0 {
				break
			}
			g.Play(legal[rng.IntN(len(legal))])
		}
		if !g.Over {
			return g.Moves
		}
	}
}

// refereeGame plays one game from the opening, seats[0] South. The rules
// engine judges every move; an engine that answers an illegal move, too
// late or not at all loses (failed is its seat, else -1). A game that
// reaches maxPlies ends as by agreement: each side takes its own row.
func refereeGame(cfg matchConfig, seats [2]*uciProcess, opening []int) (res engine.Result, why string, failed int) {
	g, err := engine.ReplayGame(cfg.rules, cfg.rules.Start(), opening)
	if err != nil {
		panic(err) // the opening was played by the same rules
	}
	for _, p := range seats {
		p.send("ucinewgame")
		p.send("isready")
	}
	for seat, p := range seats {
		if _, err := p.expect("readyok", 10*time.Second); err != nil {
			return engine.Winner(engine.Side(seat).Opponent()), fmt.Sprintf("%s: %v", p.command, err), seat
		}
	}
	goLine := "go"
	if cfg.movetime > 0 {
		goLine += fmt.Sprintf(" movetime %d", cfg.movetime)
	}
	if cfg.depth > 0 {
		goLine += fmt.Sprintf(" depth %d", cfg.depth)
	}
	if cfg.nodes > 0 {
		goLine += fmt.Sprintf(" nodes %d", cfg.nodes)
	}
	timeout := 60 * time.Second
	if cfg.movetime > 0 && cfg.depth == 0 {
		timeout = 2*time.Duration(cfg.movetime)*time.Millisecond + time.Second
	}
	left := [2]int{cfg.clock, cfg.clock}
	if cfg.clock > 0 {
		timeout = time.Duration(cfg.clock+cfg.inc)*time.Millisecond + time.Second
	}
	for !g.Over {
		if len(g.Moves) >= cfg.maxPlies {
			g.Agree()
			return g.Result, fmt.Sprintf("stopped after %d plies, each side took its row, %d-%d", len(g.Moves), g.Position.Captured[0], g.Position.Captured[1]), -1
		}
		seat := int(g.Position.ToMove)
		p := seats[seat]
		if len(g.Moves) == 0 {
			p.send("position startpos")
		} else {
			p.send("position startpos moves %s", moveString(g))
		}
		asked := time.Now()
		if cfg.clock > 0 {
			p.send("%s wtime %d btime %d winc %d binc %d", goLine, left[0], left[1], cfg.inc, cfg.inc)
		} else {
			p.send(goLine)
		}
		line, err := p.expect("bestmove", timeout)
		loses := engine.Winner(engine.Side(seat).Opponent())
		if err != nil {
			return loses, fmt.Sprintf("%s: %v", p.command, err), seat
		}
		if cfg.clock > 0 {
			if left[seat] -= int(time.Since(asked).Milliseconds()); left[seat] < 0 {
				return loses, fmt.Sprintf("%s lost on time after %d plies", p.command, len(g.Moves)), seat
			}
			left[seat] += cfg.inc
		}
		label := strings.TrimSpace(strings.TrimPrefix(line, "bestmove"))
		if f := strings.Fields(label); len(f) > 0 {
			label = f[0]
		}
		pit, err := engine.ParseLabel(label)
		if err == nil {
			_, err = g.Play(pit)
		}
		if err != nil {
			return loses, fmt.Sprintf("%s played an illegal move %q: %v", p.command, label, err), seat
		}
	}
	return g.Result, fmt.Sprintf("%s, %d-%d after %d plies", g.Reason, g.Position.Captured[0], g.Position.Captured[1], len(g.Moves)), -1
}

// moveString writes the game's moves as concatenated labels.
func moveString(g *engine.Game) string {
	var b strings.Builder
	for _, pit := range g.Moves {
		b.WriteString(engine.Label(pit))
	}
	return b.String()
}

// uciProcess is an engine program spoken to over its standard input and
// output.
type uciProcess struct {
	command string
	cmd     *exec.Cmd
	in      io.WriteCloser
	lines   chan string // closed when its output ends
}

// startEngine starts the command (words split as a shell would, with
// quotes) and waits for its uciok; for rules other than abapa it sets the
// Rules option.
func startEngine(command string, rules engine.Rules) (*uciProcess, error) {
	words, err := splitWords(command)
	if err != nil || len(words) == 0 {
		return nil, fmt.Errorf("bad command %q", command)
	}
	cmd := exec.Command(words[0], words[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &uciProcess{command: command, cmd: cmd, in: in, lines: make(chan string, 256)}
	go func() {
		sc := bufio.NewScanner(outPipe)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	p.send("uci")
	if _, err := p.expect("uciok", 10*time.Second); err != nil {
		p.close()
		return nil, err
	}
	if rules.Name() != "abapa" {
		p.send("setoption name Rules value %s", rules.Name())
	}
	return p, nil
}

func (p *uciProcess) send(format string, args ...any) {
	fmt.Fprintf(p.in, format+"\n", args...)
}

// expect reads lines until one that starts with word and returns it.
func (p *uciProcess) expect(word string, timeout time.Duration) (string, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return "", fmt.Errorf("the engine stopped before %q", word)
			}
			if f := strings.Fields(line); len(f) > 0 && f[0] == word {
				return line, nil
			}
		case <-deadline.C:
			return "", fmt.Errorf("no %q within %s", word, timeout)
		}
	}
}

// close asks the engine to quit and kills it if it has not after a second.
func (p *uciProcess) close() {
	if p == nil {
		return
	}
	p.send("quit")
	p.in.Close()
	go func() {
		for range p.lines { // let the reader finish
		}
	}()
	done := make(chan struct{})
	go func() {
		p.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

// splitWords splits a command line into words at spaces, keeping what
// single or double quotes enclose together.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	for _, c := range s {
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errors.New("unclosed quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// parseMatchClock reads --clock "S+I" (seconds, decimals allowed: "10+0.1")
// and returns the clock and the increment in milliseconds: S 1 to 3600,
// I 0 to 60.
func parseMatchClock(s string) (clock, inc int, err error) {
	a, b, ok := strings.Cut(s, "+")
	c, err1 := strconv.ParseFloat(a, 64)
	i, err2 := strconv.ParseFloat(b, 64)
	if !ok || err1 != nil || err2 != nil || c < 1 || c > 3600 || i < 0 || i > 60 {
		return 0, 0, fmt.Errorf("--clock %q: want S+I, seconds (1 to 3600) and seconds a move (0 to 60), e.g. 10+0.1", s)
	}
	return int(c * 1000), int(i * 1000), nil
}
