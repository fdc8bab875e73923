package puzzle

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"oware/engine"
	"oware/engine/endgame"
)

// The puzzle file, version 1, is text: a first line "oware-puzzles 1",
// then one puzzle a line, seven fields separated by single spaces:
//
//	id rules position solution themes rating first
//	3f2a9c01 abapa 0-0-1-0-2-0-0-1-0-0-3-0-22-19-S E,b,C endgame-win,capture-chain 1400 E:2:2,C:-1:0
//
// solution is the line's move labels, themes the theme names, both
// separated by commas; first is every legal first move as label:lo:hi
// (Puzzle.First). Empty lines and lines starting with # are comments.
// Read refuses anything else, with the line number.

// FileHeader is the first line of a version 1 puzzle file.
const FileHeader = "oware-puzzles 1"

// MaxFileLines bounds the lines Read accepts.
const MaxFileLines = 100000

// Write writes puzzles as a version 1 file.
func Write(w io.Writer, puzzles []*Puzzle) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, FileHeader)
	fmt.Fprintln(bw, "# id rules position solution themes rating first-moves (see engine/puzzle)")
	for _, p := range puzzles {
		first := make([]string, len(p.First))
		for i, m := range p.First {
			first[i] = fmt.Sprintf("%s:%d:%d", engine.Label(m.Pit), m.Lo, m.Hi)
		}
		fmt.Fprintf(bw, "%s %s %s %s %s %d %s\n", p.ID, p.Rules.Name(), p.Rules.FormatPosition(p.Position),
			strings.Join(p.Labels(), ","), strings.Join(p.Themes, ","), p.Rating, strings.Join(first, ","))
	}
	return bw.Flush()
}

// Read reads a version 1 puzzle file. Every position must be valid and
// every move label a pit; the proof is Verify's.
func Read(r io.Reader) ([]*Puzzle, error) {
	sc := bufio.NewScanner(r)
	var out []*Puzzle
	n := 0
	for sc.Scan() {
		n++
		if n > MaxFileLines {
			return nil, fmt.Errorf("puzzle file: more than %d lines", MaxFileLines)
		}
		text := sc.Text()
		if n == 1 {
			if text != FileHeader {
				return nil, fmt.Errorf("puzzle file: line 1 is %q, want %q", text, FileHeader)
			}
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		p, err := parseLine(text)
		if err != nil {
			return nil, fmt.Errorf("puzzle file: line %d: %w", n, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("puzzle file: empty, want %q first", FileHeader)
	}
	return out, nil
}

// parseLine reads one puzzle line.
func parseLine(text string) (*Puzzle, error) {
	f := strings.Split(text, " ")
	if len(f) != 7 {
		return nil, fmt.Errorf("%d fields, want 7", len(f))
	}
	r, err := engine.RulesByName(f[1])
	o, ok := r.(engine.Oware)
	if err != nil || !ok {
		return nil, fmt.Errorf("rules %q: want abapa, wari or warri", f[1])
	}
	pos, err := o.ParsePosition(f[2])
	if err != nil {
		return nil, err
	}
	p := &Puzzle{ID: f[0], Rules: o, Position: pos}
	for _, s := range strings.Split(f[3], ",") {
		pit, err := engine.ParseLabel(s)
		if err != nil {
			return nil, err
		}
		p.Solution = append(p.Solution, pit)
	}
	p.Themes = strings.Split(f[4], ",")
	for _, th := range p.Themes {
		if !slices.Contains(Themes, th) {
			return nil, fmt.Errorf("theme %q: want one of %s", th, strings.Join(Themes, ", "))
		}
	}
	if p.Rating, err = strconv.Atoi(f[5]); err != nil || p.Rating < 0 || p.Rating > 4000 {
		return nil, fmt.Errorf("rating %q: want 0 to 4000", f[5])
	}
	for _, s := range strings.Split(f[6], ",") {
		m, err := parseBounds(s)
		if err != nil {
			return nil, err
		}
		p.First = append(p.First, m)
	}
	return p, nil
}

// parseBounds reads label:lo:hi.
func parseBounds(s string) (endgame.MoveBounds, error) {
	var m endgame.MoveBounds
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return m, fmt.Errorf("first move %q: want label:lo:hi", s)
	}
	pit, err := engine.ParseLabel(parts[0])
	if err != nil {
		return m, err
	}
	lo, err1 := strconv.Atoi(parts[1])
	hi, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || lo < -engine.TotalSeeds || hi > engine.TotalSeeds || lo > hi {
		return m, fmt.Errorf("first move %q: bad bounds", s)
	}
	return endgame.MoveBounds{Pit: pit, Lo: lo, Hi: hi}, nil
}
