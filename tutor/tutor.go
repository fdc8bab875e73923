// Package tutor checks the answers of tutorial tasks with the engine and
// says, in the learner's language, what a right move did or why a wrong one
// is wrong. It reads a step's notation (its rules and lists of pit labels)
// and knows nothing of HTTP or storage.
package tutor

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"oware/engine"
)

// Localizer gives the UI strings of one locale from the message catalogs
// (the handlers' localizer; views.Localizer has the same methods).
type Localizer interface {
	// T returns message id filled with data given as name, value pairs.
	T(id string, data ...any) string
	// N returns the plural form of message id for count ({{.Count}}).
	N(id string, count int, data ...any) string
}

// ParseRules reads the rules of a step: a rule set key ("abapa" when
// empty), for Nam-nam optionally with its table setting as in a game
// record's Variant tag ("namnam fours=owner"). Errors wrap
// engine.ErrBadRules.
func ParseRules(s string) (engine.Rules, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return engine.RulesByName("")
	}
	fours := ""
	for _, f := range fields[1:] {
		key, value, _ := strings.Cut(f, "=")
		if key != "fours" || value == "" {
			return nil, fmt.Errorf("%w: unknown setting %q", engine.ErrBadRules, f)
		}
		fours = value
	}
	return engine.NewRules(fields[0], fours)
}

// ParseLabels reads a space-separated list of pit labels ("C", "E F");
// errors wrap engine.ErrBadLabel.
func ParseLabels(s string) (engine.Moves, error) {
	var m engine.Moves
	for _, f := range strings.Fields(s) {
		pit, err := engine.ParseLabel(f)
		if err != nil {
			return 0, err
		}
		m |= 1 << pit
	}
	return m, nil
}

// Board reads a step's board: its rules, its position string and its
// lists of highlighted and accepted labels, all checked by the engine.
func Board(rules, position, highlight, accept string) (engine.Rules, engine.Position, error) {
	r, err := ParseRules(rules)
	if err != nil {
		return nil, engine.Position{}, err
	}
	p, err := r.ParsePosition(position)
	if err != nil {
		return nil, p, err
	}
	if _, err := ParseLabels(highlight); err != nil {
		return nil, p, err
	}
	if _, err := ParseLabels(accept); err != nil {
		return nil, p, err
	}
	return r, p, nil
}

// Verdict is the engine's judgement of an answer.
type Verdict struct {
	Correct bool
	Lines   []string // localized: what happened, or why it is wrong
	// Played is set when a right answer was a move: Move and After are it
	// and the position after it.
	Played bool
	Move   engine.Move
	After  engine.Position
	// Checked are the pits ticked (a "legal" task).
	Checked engine.Moves
}

// CheckMove judges the pit label sown for a move task on pos under r:
// task is the step's goal in its source form (ParseGoal: "play",
// "capture 3", "feed", "save b", "best", "book"), accept its accepted moves
// (Accepted's). A wrong answer's lines say, from the position, what the
// move misses or allows (the opponent's reply and its capture).
func CheckMove(l Localizer, r engine.Rules, pos engine.Position, task string, accept engine.Moves, label string) Verdict {
	g, err := ParseGoal(task)
	if err != nil {
		g = Goal{Kind: task}
	}
	pit, err := engine.ParseLabel(label)
	if err != nil {
		return Verdict{Lines: []string{l.T("tut_hint_bad_pit")}}
	}
	after, mv, err := r.Play(pos, pit)
	if err != nil {
		v := Verdict{Lines: []string{capitalize(illegalHint(l, r, pos, err, pit))}}
		if g.Kind == GoalPlay {
			v.Lines = append(v.Lines, l.T("tut_hint_play", "Labels", labelList(accept)))
		}
		return v
	}
	if !accept.Has(pit) {
		return Verdict{Lines: wrongLines(l, r, pos, g, accept, mv, after)}
	}
	return Verdict{Correct: true, Played: true, Move: mv, After: after, Lines: moveLines(l, r, g.Kind, mv, after)}
}

// CheckLegal judges the ticked pits (labels) of a "legal" task on pos
// under r against the engine's legal moves.
func CheckLegal(l Localizer, r engine.Rules, pos engine.Position, labels []string) Verdict {
	var ticked engine.Moves
	for _, s := range labels {
		pit, err := engine.ParseLabel(s)
		if err != nil {
			return Verdict{Lines: []string{l.T("tut_hint_bad_pit")}}
		}
		ticked |= 1 << pit
	}
	legal := r.LegalMoves(pos)
	v := Verdict{Checked: ticked}
	if ticked == legal {
		v.Correct = true
		v.Lines = []string{l.N("tut_ok_legal", legal.Count(), "Labels", labelList(legal))}
		return v
	}
	for _, pit := range (ticked &^ legal).Pits() {
		_, _, err := r.Play(pos, pit)
		v.Lines = append(v.Lines, l.T("tut_hint_not_legal", "Label", engine.Label(pit), "Why", illegalHint(l, r, pos, err, pit)))
	}
	if missed := (legal &^ ticked).Count(); missed > 0 {
		v.Lines = append(v.Lines, l.N("tut_hint_missed", missed))
	}
	return v
}

// capitalize returns s with its first letter in upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// labelList writes the labels of m: "C", "E, F".
func labelList(m engine.Moves) string { return strings.Join(m.Labels(), ", ") }
