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
	rules := fs.String("rules", "", "rule set: abapa, wari or warri")
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
		return nil, usageError{errors.New("--rules is required (abapa, wari or warri)")}
	}
	r, err := engine.RulesByName(*rules)
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
}

type captureJSON struct {
	Pit   string `json:"pit"`
	Seeds int    `json:"seeds"`
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
		mv, err := g.Play(pit)
		if err != nil {
			return fmt.Errorf("move %d %q is illegal: %w", i+1, label, err)
		}
		if o.json {
			line := moveLine{Move: label, Position: o.rules.FormatPosition(g.Position), Over: mv.Over,
				Captures: []captureJSON{}, GrandSlam: mv.GrandSlam, ExtraTurn: mv.ExtraTurn}
			if mv.Over {
				line.Result, line.Reason = mv.Result.String(), string(mv.Reason)
			}
			for _, c := range mv.Captures {
				line.Captures = append(line.Captures, captureJSON{engine.Label(c.Pit), c.Seeds})
			}
			b, _ := json.Marshal(line)
			fmt.Fprintf(out, "%s\n", b)
		} else {
			fmt.Fprintf(out, "%d. %s\n%s\n", i+1, label, board(o.rules, g))
		}
	}
	return nil
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
