package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Errors of ParseRecord: every one is a *RecordError, which wraps
// ErrBadRecord and its cause (ErrRecordSyntax, ErrBadRules, ErrBadPosition,
// ErrBadLabel, or the error of an illegal move).
var (
	ErrBadRecord    = errors.New("invalid game record")
	ErrRecordSyntax = errors.New("malformed tag or comment")
)

// RecordError is an error of ParseRecord: the line (1-based) where it is,
// the move number (1-based) when a move is at fault, and the cause.
type RecordError struct {
	Line int
	Move int    // 0 when no move is at fault
	Word string // the word at fault, if any
	Err  error
}

func (e *RecordError) Error() string {
	switch {
	case e.Move > 0:
		return fmt.Sprintf("%v: line %d: move %d (%s): %v", ErrBadRecord, e.Line, e.Move, e.Word, e.Err)
	case e.Word != "":
		return fmt.Sprintf("%v: line %d: %q: %v", ErrBadRecord, e.Line, e.Word, e.Err)
	}
	return fmt.Sprintf("%v: line %d: %v", ErrBadRecord, e.Line, e.Err)
}

// Unwrap gives ErrBadRecord and the cause to errors.Is and errors.As.
func (e *RecordError) Unwrap() []error { return []error{ErrBadRecord, e.Err} }

// Tag is one `[Name "value"]` pair of a game record.
type Tag struct{ Name, Value string }

// Record is a game record in the Oware Game Notation (OGN) of RULES.md
// section 1: PGN-like tags, then numbered moves such as `1. F d 2. E b`.
// A `=` between moves records that the players agreed to end the game (in
// Nam-nam: the round, or between rounds the match); it is this project's
// extension, as is the namnam Variant.
type Record struct {
	Tags       []Tag    // in file order, FEN and Variant included
	Rules      Rules    // from the Variant tag (default abapa)
	Start      Position // from the FEN tag (default the start)
	Moves      []int    // pits, in order
	Agreements []int    // for each "=", the number of moves before it
}

// Tag returns the value of the named tag, or "".
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// VariantTag names a rule set and its settings for the Variant tag:
// "abapa", "wari", "warri", "namnam" or "namnam fours=owner".
func VariantTag(r Rules) string {
	if n, ok := r.(NamNam); ok && n.Fours != FoursLast {
		return "namnam fours=" + n.Fours.String()
	}
	return r.Name()
}

// rulesFromVariant reads a Variant tag written by VariantTag; "Oware" and
// "Abapa" in any case mean the standard.
func rulesFromVariant(v string) (Rules, error) {
	fields := strings.Fields(strings.ToLower(v))
	name, fours := "abapa", ""
	if len(fields) > 0 && fields[0] != "oware" {
		name = fields[0]
	}
	for _, f := range fields[min(1, len(fields)):] {
		key, value, _ := strings.Cut(f, "=")
		if key != "fours" || value == "" {
			return nil, fmt.Errorf("%w: unknown setting %q", ErrBadRules, f)
		}
		fours = value
	}
	return NewRules(name, fours)
}

// FormatRecord writes a game record: the given tags (Variant, FEN and Result
// are written from the game and need not be given), then the moves, six
// pairs a line, and the result.
func FormatRecord(g *Game, tags []Tag) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Variant %q]\n", VariantTag(g.Rules))
	for _, t := range tags {
		if !strings.EqualFold(t.Name, "Variant") && !strings.EqualFold(t.Name, "FEN") && !strings.EqualFold(t.Name, "Result") {
			fmt.Fprintf(&b, "[%s %q]\n", t.Name, t.Value)
		}
	}
	result := recordResult(g)
	fmt.Fprintf(&b, "[Result %q]\n", result)
	if g.Start != g.Rules.Start() {
		fmt.Fprintf(&b, "[FEN %q]\n", g.Rules.FormatPosition(g.Start))
	}
	b.WriteString("\n")
	agreements := g.Agreements
	for i, pit := range g.Moves {
		agreements = writeAgreements(&b, agreements, i)
		switch {
		case i%2 == 0 && i > 0 && i%12 == 0:
			fmt.Fprintf(&b, "\n%d. ", i/2+1)
		case i%2 == 0:
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString(Label(pit))
		b.WriteString(" ")
	}
	writeAgreements(&b, agreements, len(g.Moves))
	b.WriteString(result)
	b.WriteString("\n")
	return b.String()
}

// writeAgreements writes a "=" for each agreement made after ply moves and
// returns the agreements still to write.
func writeAgreements(b *strings.Builder, agreements []int, ply int) []int {
	for len(agreements) > 0 && agreements[0] == ply {
		b.WriteString("= ")
		agreements = agreements[1:]
	}
	return agreements
}

// recordResult is the Result tag: the captures "S-N" once over, else "*".
func recordResult(g *Game) string {
	if !g.Over {
		return "*"
	}
	return fmt.Sprintf("%d-%d", g.Position.Captured[South], g.Position.Captured[North])
}

// ParseRecord reads an OGN game record and replays its moves with the
// engine. Errors wrap ErrBadRecord and name the line: a malformed tag, an
// unknown variant, a bad FEN, a word that is not a move, an illegal move.
func ParseRecord(text string) (*Record, error) {
	rec := &Record{Rules: Oware{}}
	type word struct {
		text string
		line int
	}
	var words []word
	inComment := false
	commentLine := 0
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	for n, line := range strings.Split(text, "\n") {
		n++
		line = strings.TrimSpace(line)
		if !inComment && strings.HasPrefix(line, "[") {
			tag, err := parseTag(line)
			if err != nil {
				return nil, &RecordError{Line: n, Err: fmt.Errorf("%w: %v", ErrRecordSyntax, err)}
			}
			rec.Tags = append(rec.Tags, tag)
			continue
		}
		for _, w := range strings.Fields(line) {
			switch {
			case inComment:
				inComment = !strings.HasSuffix(w, "}")
			case strings.HasPrefix(w, "{"):
				inComment, commentLine = !strings.HasSuffix(w, "}"), n
			case strings.HasPrefix(w, ";"):
				goto nextLine
			default:
				words = append(words, word{w, n})
			}
		}
	nextLine:
	}
	if inComment {
		return nil, &RecordError{Line: commentLine, Err: fmt.Errorf("%w: a comment opened with { is never closed", ErrRecordSyntax)}
	}
	var err error
	if v := rec.Tag("Variant"); v != "" {
		if rec.Rules, err = rulesFromVariant(v); err != nil {
			return nil, &RecordError{Line: tagLine(text, "Variant"), Word: v, Err: err}
		}
	}
	rec.Start = rec.Rules.Start()
	if fen := rec.Tag("FEN"); fen != "" {
		if rec.Start, err = rec.Rules.ParsePosition(fen); err != nil {
			return nil, &RecordError{Line: tagLine(text, "FEN"), Err: err}
		}
	}
	g := NewGame(rec.Rules, rec.Start)
	for i, w := range words {
		if isMoveNumber(w.text) || (i == len(words)-1 && isResultToken(w.text)) {
			continue
		}
		if w.text == "=" {
			if _, err := g.Agree(); err != nil {
				return nil, &RecordError{Line: w.line, Word: w.text, Err: err}
			}
			rec.Agreements = append(rec.Agreements, len(rec.Moves))
			continue
		}
		pit, err := ParseLabel(w.text)
		if err != nil {
			return nil, &RecordError{Line: w.line, Word: w.text, Err: err}
		}
		if _, err := g.Play(pit); err != nil {
			return nil, &RecordError{Line: w.line, Move: len(rec.Moves) + 1, Word: w.text, Err: err}
		}
		rec.Moves = append(rec.Moves, pit)
	}
	return rec, nil
}

// Game replays the record's moves and agreements (ParseRecord checked them).
func (r *Record) Game() *Game {
	g, _ := ReplayMatch(r.Rules, r.Start, r.Moves, r.Agreements, nil)
	return g
}

func parseTag(line string) (Tag, error) {
	if !strings.HasSuffix(line, "]") {
		return Tag{}, errors.New("a tag must end with ]")
	}
	name, value, ok := strings.Cut(strings.TrimSpace(line[1:len(line)-1]), " ")
	if !ok || name == "" {
		return Tag{}, fmt.Errorf("tag %s has no value", line)
	}
	v, err := strconv.Unquote(strings.TrimSpace(value))
	if err != nil {
		return Tag{}, fmt.Errorf("tag %s: the value must be in double quotes", name)
	}
	return Tag{name, v}, nil
}

// tagLine finds the line of a tag for error messages.
func tagLine(text, name string) int {
	for n, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "["+name+" ") {
			return n + 1
		}
	}
	return 0
}

// isMoveNumber matches "12." and "12...".
func isMoveNumber(w string) bool {
	digits := strings.TrimRight(w, ".")
	return digits != w && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// isResultToken matches "*" and "25-19".
func isResultToken(w string) bool {
	if w == "*" {
		return true
	}
	a, b, ok := strings.Cut(w, "-")
	_, errA := strconv.Atoi(a)
	_, errB := strconv.Atoi(b)
	return ok && errA == nil && errB == nil
}
