package handlers

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"oware/engine"
	"oware/locales"
)

// TestTutorialHints: the engine's verdict on wrong answers says why, in
// every language, for every kind of mistake.
func TestTutorialHints(t *testing.T) {
	b, err := loadBundle()
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	en := newLocalizer(b, "en", log)
	const slam = "5-3-5-4-2-3-1-2-1-0-0-0-12-10-S" // F is a grand slam; C, D, E capture
	for _, c := range []struct {
		rules, pos, task, accept, answer string
		correct                          bool
		want                             string // in the English verdict
	}{
		{"abapa", slam, "capture", "C D E", "F", false, "F would be a grand slam: it would take every seed on your opponent's row, so under Abapa it captures nothing."},
		{"abapa", slam, "capture", "C D E", "A", false, "The sowing of A ends on your own row, in F, so nothing is captured."},
		{"abapa", slam, "capture", "C D E", "b", false, "Pit b is on your opponent's row; you sow only from your own row."},
		{"abapa", slam, "capture", "C D E", "x", false, "There is no such pit."},
		{"abapa", slam, "capture", "C D E", "D", true, "You capture 5 seeds (b, a)."},
		{"abapa", slam, "play", "F", "C", false, "This step asks you to play F."},
		{"wari", slam, "play", "C", "F", false, "F would be a grand slam, which Wari forbids while you have another move."},
		{"abapa", "2-1-3-4-2-1-0-0-0-0-0-0-17-18-S", "feed", "D E F", "B", false, "Your opponent's row is empty and B does not reach it: you must feed them."},
		{"abapa", "2-1-3-4-2-1-0-0-0-0-0-0-17-18-S", "feed", "D E F", "D", true, "It puts 2 seeds into your opponent's row"},
		{"abapa", "2-1-0-1-0-1-2-4-1-5-1-2-22-6-S", "capture", "F", "C", false, "Pit C is empty, there is nothing to sow."},
		{"abapa", "3-2-5-1-2-4-4-4-2-1-3-1-9-7-S", "capture", "F", "E", false, "The last seed of E lands in a, which then holds 5 seeds: only 2 or 3 are captured."},
	} {
		r, _ := engine.RulesByName(c.rules)
		pos, err := r.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		accept, _ := parseLabels(c.accept)
		v := checkMove(en, r, pos, c.task, accept, c.answer)
		if v.correct != c.correct || !strings.Contains(strings.Join(v.lines, " "), c.want) {
			t.Errorf("%s %s %s: %v %q, want %v %q", c.rules, c.task, c.answer, v.correct, v.lines, c.correct, c.want)
		}
		for _, lang := range locales.Langs {
			v := checkMove(newLocalizer(b, lang, log), r, pos, c.task, accept, c.answer)
			for _, line := range v.lines {
				if strings.Contains(line, missingPrefix) || strings.Contains(line, "<no value>") {
					t.Errorf("%s: %q", lang, line)
				}
			}
		}
	}
	r, _ := engine.RulesByName("wari")
	pos, _ := r.ParsePosition(slam)
	v := checkLegal(en, r, pos, []string{"A", "F"})
	if v.correct || len(v.lines) != 2 || !strings.Contains(v.lines[0], "F is not legal: F would be a grand slam") || v.lines[1] != "You missed 4 legal moves." {
		t.Errorf("legal A F: %v %q", v.correct, v.lines)
	}
	if v := checkLegal(en, r, pos, []string{"A", "B", "C", "D", "E"}); !v.correct {
		t.Errorf("legal A-E: %q", v.lines)
	}
}
