package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"oware/engine"
)

// usageError is a bad command line: flags, arguments or their values.
type usageError struct{ error }

// helpRequested is returned when a command is asked for -h.
type helpRequested struct{ error }

// options are the flags shared by the commands.
type options struct {
	rules    engine.Rules
	position engine.Position
	json     bool
	depth    int
	args     []string
}

// parseFlags reads the command's flags, which may stand before, between or
// after its other arguments.
func parseFlags(name string, args []string, withJSON, withDepth bool) (*options, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rules := fs.String("rules", "", "rule set: abapa, wari, warri or namnam")
	fours := fs.String("fours", "", "namnam fours setting: last or owner")
	position := fs.String("position", "", "start position string")
	asJSON := fs.Bool("json", false, "print one JSON object per move")
	depth := fs.Int("depth", 0, "perft depth")
	if !withJSON {
		asJSON = nil
	}
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, helpRequested{err}
			}
			return nil, usageError{err}
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if *rules == "" {
		return nil, usageError{errors.New("--rules is required (abapa, wari, warri or namnam)")}
	}
	r, err := engine.NewRules(*rules, *fours)
	if err != nil {
		return nil, usageError{err}
	}
	o := &options{rules: r, position: r.Start(), args: rest, depth: *depth}
	if *position != "" {
		if o.position, err = r.ParsePosition(*position); err != nil {
			return nil, usageError{err}
		}
	}
	if asJSON != nil {
		o.json = *asJSON
	} else if fs.Lookup("json").Value.String() == "true" {
		return nil, usageError{errors.New("--json is only for play")}
	}
	if !withDepth && o.depth != 0 {
		return nil, usageError{errors.New("--depth is only for perft")}
	}
	return o, nil
}

// moveLine is one line of `play --json`.
type moveLine struct {
	Move      string        `json:"move"`
	Position  string        `json:"position"`
	Over      bool          `json:"over"`
	Result    string        `json:"result,omitempty"`
	Reason    string        `json:"reason,omitempty"`
	Captures  []captureJSON `json:"captures"`
	GrandSlam bool          `json:"grand_slam"`
	ExtraTurn bool          `json:"extra_turn"`
	// Nam-nam only.
	Steps       int         `json:"steps,omitempty"`
	Round       int         `json:"round,omitempty"`
	RoundOver   bool        `json:"round_over,omitempty"`
	RoundReason string      `json:"round_reason,omitempty"`
	Totals      *totalsJSON `json:"totals,omitempty"`
	Next        string      `json:"next,omitempty"`
}

type captureJSON struct {
	Pit   string `json:"pit"`
	Seeds int    `json:"seeds"`
	By    string `json:"by"`
}

type totalsJSON struct {
	South int `json:"south"`
	North int `json:"north"`
}

func play(args []string, out io.Writer) error {
	o, err := parseFlags("play", args, true, false)
	if err != nil {
		return err
	}
	g := engine.NewGame(o.rules, o.position)
	for i, label := range o.args {
		pit, err := engine.ParseLabel(label)
		if err != nil {
			return fmt.Errorf("move %d %q: %w", i+1, label, err)
		}
		if err := playAndPrint(out, g, pit, o.json); err != nil {
			return fmt.Errorf("move %d %q is illegal: %w", i+1, label, err)
		}
	}
	return nil
}

// replay prints the position after each move and agreement of an OGN game
// record, then how a game that the moves do not end ended (resignation,
// agreement); moves after the end of the game are noted on stderr.
func replay(args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object per move")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return helpRequested{err}
		}
		return usageError{err}
	}
	if fs.NArg() != 1 {
		return usageError{errors.New("replay takes one file (- for standard input)")}
	}
	text, err := readFile(fs.Arg(0))
	if err != nil {
		return err
	}
	rec, err := engine.ParseRecord(text)
	if err != nil {
		return err
	}
	round := 1
	g, err := engine.ReplayMatch(rec.Rules, rec.Start, rec.Moves, rec.Agreements, func(g *engine.Game, mv engine.Move, agreed bool) {
		label := engine.Label(mv.Pit)
		if agreed {
			label = "="
		}
		printMove(out, g, label, round, mv, *asJSON)
		round = g.Round
	})
	if err != nil {
		return err // ParseRecord checked every move
	}
	if end := rec.Game(); end.Over && !g.Over {
		if *asJSON {
			b, _ := json.Marshal(moveLine{Move: string(end.Reason), Position: end.Rules.FormatPosition(end.Position),
				Over: true, Result: end.Result.String(), Reason: string(end.Reason), Captures: []captureJSON{}})
			fmt.Fprintf(out, "%s\n", b)
		} else {
			fmt.Fprintf(out, "%s\n%s", end.Reason, board(end.Rules, end))
		}
	}
	if rec.Ignored > 0 {
		fmt.Fprintf(errOut, "oware-engine: the game ended at move %d; the %d moves after the end were not played\n", len(rec.Moves), rec.Ignored)
	}
	return nil
}

// playAndPrint plays pit in g and prints the move.
func playAndPrint(out io.Writer, g *engine.Game, pit int, asJSON bool) error {
	round := g.Round
	mv, err := g.Play(pit)
	if err != nil {
		return err
	}
	printMove(out, g, engine.Label(pit), round, mv, asJSON)
	return nil
}

// printMove prints move mv (label, or "=" for an agreement), played in round
// and leading to g: the board, or with asJSON one line of JSON.
func printMove(out io.Writer, g *engine.Game, label string, round int, mv engine.Move, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(jsonLine(g.Rules, label, round, after(g, mv), mv))
		fmt.Fprintf(out, "%s\n", b)
		return
	}
	number := mv.Number.String()
	if label == "=" {
		number = "="
		label = "(agreement)"
	}
	fmt.Fprintf(out, "%s %s\n%s", number, label, board(g.Rules, g))
}

// after is the position right after move mv: at the end of a Nam-nam
// round, the settled end of the round rather than the next round's start.
func after(g *engine.Game, mv engine.Move) engine.Position {
	if mv.RoundOver && mv.Next != nil {
		return mv.End
	}
	return g.Position
}

func jsonLine(r engine.Rules, label string, round int, pos engine.Position, mv engine.Move) moveLine {
	line := moveLine{Move: label, Position: r.FormatPosition(pos), Over: mv.Over,
		Captures: []captureJSON{}, GrandSlam: mv.GrandSlam, ExtraTurn: mv.ExtraTurn}
	if mv.Over {
		line.Result, line.Reason = mv.Result.String(), string(mv.Reason)
	}
	for _, c := range mv.Captures {
		line.Captures = append(line.Captures, captureJSON{engine.Label(c.Pit), c.Seeds, c.By.String()})
	}
	if _, rounds := r.(engine.Rounds); rounds {
		line.Steps, line.Round = mv.Steps, round
		line.RoundOver, line.RoundReason = mv.RoundOver, string(mv.RoundReason)
		if mv.RoundOver {
			line.Totals = &totalsJSON{mv.Totals[engine.South], mv.Totals[engine.North]}
		}
		if mv.Next != nil {
			line.Next = r.FormatPosition(*mv.Next)
		}
	}
	return line
}

// board draws the position as South sees it, with who moves or how it ended.
func board(r engine.Rules, g *engine.Game) string {
	p := g.Position
	var b strings.Builder
	b.WriteString("         f   e   d   c   b   a\n North ")
	for i := engine.NumPits - 1; i >= engine.PitsPerRow; i-- {
		fmt.Fprintf(&b, "[%2d]", p.Pits[i])
	}
	fmt.Fprintf(&b, "   captured %d\n South ", p.Captured[engine.North])
	for i := 0; i < engine.PitsPerRow; i++ {
		fmt.Fprintf(&b, "[%2d]", p.Pits[i])
	}
	fmt.Fprintf(&b, "   captured %d\n         A   B   C   D   E   F\n", p.Captured[engine.South])
	if g.Over {
		fmt.Fprintf(&b, " game over: %s (%s)\n", g.Result, g.Reason)
	} else {
		fmt.Fprintf(&b, " %s to move\n", p.ToMove)
	}
	fmt.Fprintf(&b, " %s\n", r.FormatPosition(p))
	return b.String()
}

func moves(args []string, out io.Writer) error {
	o, err := parseFlags("moves", args, false, false)
	if err != nil {
		return err
	}
	if len(o.args) > 0 {
		return usageError{fmt.Errorf("moves takes no arguments, got %q", o.args)}
	}
	fmt.Fprintln(out, strings.Join(o.rules.LegalMoves(o.position).Labels(), " "))
	return nil
}

func perft(args []string, out io.Writer) error {
	o, err := parseFlags("perft", args, false, true)
	if err != nil {
		return err
	}
	if len(o.args) > 0 {
		return usageError{fmt.Errorf("perft takes no arguments, got %q", o.args)}
	}
	if o.depth < 1 || o.depth > 30 {
		return usageError{fmt.Errorf("--depth %d: want 1..30", o.depth)}
	}
	for d := 1; d <= o.depth; d++ {
		fmt.Fprintf(out, "%d %d\n", d, o.rules.Perft(o.position, d))
	}
	return nil
}
