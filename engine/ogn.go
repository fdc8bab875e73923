package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Errors of ReadRecord: every one is a *RecordError, which wraps
// ErrBadRecord and its cause: ErrRecordSyntax, ErrRecordTooLarge,
// ErrBadRules, ErrBadPosition, ErrBadLabel, a *CaptureMarkError
// (ErrCaptureMark), or the error of an illegal move (ErrTooMuchWork among
// them when a Budget ran out).
var (
	ErrBadRecord      = errors.New("invalid game record")
	ErrRecordSyntax   = errors.New("malformed tag, comment or variation")
	ErrRecordTooLarge = errors.New("the record is too large")
	ErrCaptureMark    = errors.New("the capture mark disagrees with the move")
)

// Bounds of a record that ReadRecord reads, so that its work and memory are
// bounded: MaxRecordBytes of text, MaxRecordMoves moves (those after the
// end of the game included) and MaxRecordNotes comments and variations
// (each is kept in Record.Notes). Longer records are refused with
// ErrRecordTooLarge.
const (
	MaxRecordBytes = 1 << 20
	MaxRecordMoves = 50_000
	MaxRecordNotes = 2_000
)

// RecordError is an error of ReadRecord: the line (1-based) where it is,
// the move it is on when it is in the move text, the word at fault and the
// cause.
type RecordError struct {
	Line int
	// Move is the move the problem is on (1-based, counting every move of
	// the record: the move at fault, or the one that would come next), 0 in
	// the tags. Number is its number as the record writes it.
	Move   int
	Number MoveNumber
	Word   string // the word at fault, if any
	Err    error
}

func (e *RecordError) Error() string {
	switch {
	case e.Move > 0 && e.Word != "":
		return fmt.Sprintf("%v: line %d, move %s %s: %v", ErrBadRecord, e.Line, e.Number, e.Word, e.Err)
	case e.Move > 0:
		return fmt.Sprintf("%v: line %d, move %s: %v", ErrBadRecord, e.Line, e.Number, e.Err)
	case e.Word != "":
		return fmt.Sprintf("%v: line %d: %q: %v", ErrBadRecord, e.Line, e.Word, e.Err)
	}
	return fmt.Sprintf("%v: line %d: %v", ErrBadRecord, e.Line, e.Err)
}

// Unwrap gives ErrBadRecord and the cause to errors.Is and errors.As.
func (e *RecordError) Unwrap() []error { return []error{ErrBadRecord, e.Err} }

// CaptureMarkError is a capture mark ("F+3") that disagrees with the move:
// Mark is the number written, Captured what the move gains its player.
type CaptureMarkError struct{ Mark, Captured int }

func (e *CaptureMarkError) Error() string {
	return fmt.Sprintf("%v: it says %d, the move captures %d", ErrCaptureMark, e.Mark, e.Captured)
}

// Unwrap gives ErrCaptureMark.
func (e *CaptureMarkError) Unwrap() error { return ErrCaptureMark }

// Tag is one `[Name "value"]` pair of a game record.
type Tag struct{ Name, Value string }

// Note is a comment `{...}` or a variation `(...)` of the move text, kept to
// show it and to write it back; a variation is never played.
type Note struct {
	Ply       int    // the moves of the record before it (0: before the first)
	Text      string // its text, spaces and line breaks collapsed to one space
	Variation bool
}

// Record is a game record in the Oware Game Notation (OGN) of the Aualé
// program (RULES.md section 1): tags `[Name "value"]`, then the move text
// such as `1. C d+2 2. E b {a comment} 26-22`. ReadRecord describes what is
// read, Format what is written. A `=` between moves records an agreement
// to end (in Nam-nam: the round, or between rounds the match): this
// project's extension, as are the Wari, Warri and Nam-nam variants.
type Record struct {
	Tags       []Tag    // in file order
	Rules      Rules    // from the Variant tag (default abapa)
	Start      Position // from the FEN tag (default the start)
	Moves      []int    // the moves played, up to the end of the game
	Agreements []int    // for each "=", the number of moves before it
	Notes      []Note   // comments and variations, in order
	// Ignored counts the moves written after the end of the game: read as
	// labels, not played.
	Ignored int
	// End is how the game ended when its moves do not show it, from the
	// Termination tag: ReasonResignation (Loser resigned after the last
	// move) or ReasonAgreement (Oware: the players agreed to end after the
	// last move); "" otherwise.
	End   Reason
	Loser Side
}

// Tag returns the value of the named tag (any case), or "".
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// Game replays the record's moves and agreements (ReadRecord checked them)
// and applies its End.
func (r *Record) Game() *Game {
	g, err := ReplayMatch(r.Rules, r.Start, r.Moves, r.Agreements, nil)
	if err != nil { // only when a Budget ran out since ReadRecord
		g = NewGame(r.Rules, r.Start)
	}
	r.applyEnd(g)
	return g
}

// applyEnd ends g as the Termination tag says, when its moves did not.
func (r *Record) applyEnd(g *Game) {
	if g.Over {
		return
	}
	switch r.End {
	case ReasonResignation:
		_ = g.Resign(r.Loser)
	case ReasonAgreement:
		if _, rounds := g.Rules.(Rounds); !rounds {
			_, _ = g.Agree()
		}
	}
}

// VariantTag names a rule set and its settings for the Variant tag: "Oware
// Abapa" (as Aualé writes it), "Wari (grand slam as last resort)", "Warri
// (grand slam with extra turn)", "Nam-nam" or "Nam-nam (fours: owner)". The
// names of the other rule sets cannot be taken for Abapa's.
func VariantTag(r Rules) string {
	switch r := r.(type) {
	case NamNam:
		if r.Fours != FoursLast {
			return "Nam-nam (fours: " + r.Fours.String() + ")"
		}
		return "Nam-nam"
	case Oware:
		switch r.GrandSlam {
		case Wari:
			return "Wari (grand slam as last resort)"
		case Warri:
			return "Warri (grand slam with extra turn)"
		}
	}
	return "Oware Abapa"
}

// variantNames maps the names of the Variant tag, as rulesFromVariant
// normalizes them, to the rule set keys.
var variantNames = map[string]string{
	"oware": "abapa", "abapa": "abapa", "awale": "abapa", "awari": "abapa", "ayo": "abapa",
	"wari": "wari", "warri": "warri",
	"namnam": "namnam", "baawa": "namnam", "anenam": "namnam",
}

// rulesFromVariant reads a Variant tag: a name of variantNames in any case,
// with or without accents, spaces or hyphens, with or without "Oware"
// before it, with words after it that describe it (ignored) and, for
// Nam-nam, the fours setting as "fours=owner" or "(fours: owner)".
func rulesFromVariant(v string) (Rules, error) {
	words := strings.Fields(strings.Map(func(c rune) rune {
		switch c {
		case '-', '_', '(', ')', ':', '=', ',', ';':
			return ' '
		case 'é', 'É', 'è', 'ê':
			return 'e'
		}
		return c
	}, strings.ToLower(v)))
	if len(words) > 1 && words[0] == "oware" {
		words = words[1:]
	}
	if len(words) > 1 && (words[0]+words[1] == "namnam" || words[0]+words[1] == "baawa") {
		words = append([]string{words[0] + words[1]}, words[2:]...)
	}
	if len(words) == 0 {
		return Oware{}, nil
	}
	name, ok := variantNames[words[0]]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrBadRules, v)
	}
	fours := ""
	for i, w := range words {
		if w == "fours" && name == "namnam" {
			if i+1 == len(words) {
				return nil, fmt.Errorf("%w: %q: the fours setting has no value", ErrBadRules, v)
			}
			fours = words[i+1]
		}
	}
	return NewRules(name, fours)
}

// resultTag is the final score of the Result tag, "S-N", or "*" while the
// game goes on: the captures (Oware) or the seeds each player has (Nam-nam)
// where the game ended. After a resignation the winner is also credited
// with the seeds the loser had not won, so the score names the winner.
func resultTag(g *Game) string {
	if !g.Over {
		return "*"
	}
	score := [2]int{int(g.Position.Captured[South]), int(g.Position.Captured[North])}
	if r, ok := g.Rules.(Rounds); ok {
		score = r.Totals(g.Position)
	}
	if g.Reason == ReasonResignation {
		loser := South
		if g.Result == SouthWins {
			loser = North
		}
		w := loser.Opponent()
		score[w] = max(TotalSeeds-score[loser], score[loser]+1)
	}
	return fmt.Sprintf("%d-%d", score[South], score[North])
}

// terminationTag is the Termination tag of a finished game: how it ended
// and who won, e.g. "resignation; north wins" or "repetition; draw".
func terminationTag(g *Game) string {
	switch g.Result {
	case SouthWins, NorthWins:
		return string(g.Reason) + "; " + g.Result.String() + " wins"
	}
	return string(g.Reason) + "; draw"
}

// readTermination reads a Termination tag written by terminationTag: the
// reason, and with a resignation who resigned. Other values say nothing.
func readTermination(v string) (end Reason, loser Side) {
	reason, who, _ := strings.Cut(strings.ToLower(v), ";")
	switch Reason(strings.TrimSpace(reason)) {
	case ReasonAgreement:
		return ReasonAgreement, South
	case ReasonResignation:
		switch strings.TrimSpace(who) {
		case "south wins":
			return ReasonResignation, North
		case "north wins":
			return ReasonResignation, South
		}
	}
	return "", South
}
