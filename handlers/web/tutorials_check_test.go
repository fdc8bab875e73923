package web

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"oware/engine"
	"oware/handlers/core"
	"oware/locales"
	"oware/tutor"
)

// Nam-nam positions of the hint tests (the boards of tutorial 3).
const (
	nnFours    = "1-3-0-2-0-1-0-3-2-1-4-2-15-14-S-SSSSSSNNNNNN-0-0" // A captures B, D relays to b
	nnRelay    = "2-1-2-3-0-1-2-0-3-1-4-2-14-13-S-SSSSSSNNNNNN-0-0" // A relays through C and F to b
	nnOwner    = "1-2-1-4-3-1-3-0-2-1-3-2-13-12-S-SSSSSSNNNNNN-0-0" // D makes 4 in E and in a
	nnEndless  = "2-0-1-0-1-0-1-0-1-0-2-1-19-20-S-SSSSSSNNNNNN-0-0" // A never ends
	nnRefill   = "4-4-4-4-4-4-4-4-4-4-0-4-0-0-N-SSSSSSNNNNxS-2-2"   // e nobody's, f South's
	nnRoundEnd = "0-0-1-3-0-1-0-0-0-1-0-0-25-17-S-SSSSSSNNNNNN-0-0" // C ends the round
	nnMatchEnd = "0-0-1-3-0-0-1-0-0-0-0-0-38-1-S-SSSSSSNxSSSS-3-1"  // C and D end the match
)

// TestTutorialHints: the engine's verdict on wrong answers says why, in
// every language, for every kind of mistake.
func TestTutorialHints(t *testing.T) {
	b, err := core.LoadBundle()
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	en := core.NewLocalizer(b, "en", log)
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
		// Tutorial 1 step 5 leaves the capture to the learner: the
		// feedback names it.
		{"abapa", "3-2-5-1-2-4-4-4-2-1-3-1-9-7-S", "capture", "F", "F", true, "F sows 4 seeds, the last one into d. You capture 5 seeds (d, c)."},
		// Nam-nam (RULES.md 4): pits owned by the opponent or by nobody, an
		// endless sowing, a relay that ends in an empty pit, the owner
		// setting, the end of a round and of the match.
		{"namnam", nnFours, "capture", "A D", "b", false, "Pit b belongs to your opponent this round: you sow only from the pits you own."},
		{"namnam", nnFours, "capture", "A D", "B", false, "The last seed of B lands in E, which was empty: the move ends there and nothing is captured."},
		{"namnam", nnFours, "capture", "A D", "D", true, "D starts a relay: it lifts again from F and sows 4 seeds in all, the last one into b. You capture 4 seeds (b)."},
		{"namnam", nnRelay, "capture", "C", "A", false, "The first lap of A ends in C, which then holds 3 seeds, not 4: they are lifted and sown on. The relay finally ends in b, which was empty: no four, nothing captured."},
		// A's 13 seeds go round the board into B twice: B then holds 2 and
		// is lifted; C gets a 2nd seed and D (8+1) a 10th, which is lifted
		// too: its 10 seeds end in B, emptied by the first lift.
		{"namnam", "13-0-0-8-0-0-0-0-0-0-0-0-14-13-S-SSSSSSNNNNNN-0-0", "capture", "D", "A", false, "The first lap of A goes round the whole board and ends in B, which does not make a four there: its seeds are lifted and sown on. The relay finally ends in B, which was empty: no four, nothing captured."},
		{"namnam", nnRefill, "play", "a", "e", false, "Pit e belongs to nobody this round: no one may sow from it."},
		{"namnam", nnRefill, "play", "a", "f", false, "Pit f belongs to your opponent this round"},
		{"namnam", nnEndless, "play", "C", "A", false, "The sowing of A would never end, so it is not allowed."},
		{"namnam", "0-0-1-0-0-0-1-0-0-0-0-0-45-1-S-SSSSSSNNNNNN-0-0", "play", "C", "C", false, "The round is over: there is no move to play."},
		{"namnam fours=owner", nnOwner, "play", "D", "D", true, "D sows 4 seeds, the last one into b. You capture 4 seeds (E). As the owner, your opponent takes 4 seeds (a). b was empty, so the move ends there."},
		{"namnam fours=owner", nnOwner, "capture", "A B C D F", "E", false, "The last seed of E lands in b, which was empty: the move ends there and nothing is captured. As the owner, your opponent takes 4 seeds (a)."},
		{"namnam", nnRoundEnd, "play", "C", "C", true, "Fewer than 4 seeds are left: the round is over. Each player takes the seeds in the pits they own: South has 30 in all, North 18. North has fewer seeds, so North starts the next round."},
		{"namnam", nnMatchEnd, "play", "C D", "D", true, "Your opponent has no legal move: the round is over. Each player takes the seeds in the pits they own: South has 45 in all, North 3. North cannot fill a single pit: South wins the match, 45 to 3."},
	} {
		r, err := tutor.ParseRules(c.rules)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := r.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		accept, _ := tutor.ParseLabels(c.accept)
		v := tutor.CheckMove(en, r, pos, c.task, accept, c.answer)
		if v.Correct != c.correct || !strings.Contains(strings.Join(v.Lines, " "), c.want) {
			t.Errorf("%s %s %s: %v %q, want %v %q", c.rules, c.task, c.answer, v.Correct, v.Lines, c.correct, c.want)
		}
		for _, lang := range locales.Langs {
			v := tutor.CheckMove(core.NewLocalizer(b, lang, log), r, pos, c.task, accept, c.answer)
			for _, line := range v.Lines {
				if strings.Contains(line, core.MissingPrefix) || strings.Contains(line, "<no value>") {
					t.Errorf("%s: %q", lang, line)
				}
			}
		}
	}
	// Nam-nam: every pit is a choice; the hints say whose a pit is.
	nn, _ := tutor.ParseRules("namnam")
	refill, _ := nn.ParsePosition(nnRefill)
	if v := tutor.CheckLegal(en, nn, refill, []string{"a", "b", "c", "d", "e", "f"}); v.Correct || len(v.Lines) != 2 ||
		v.Lines[0] != "e is not legal: pit e belongs to nobody this round: no one may sow from it." ||
		v.Lines[1] != "f is not legal: pit f belongs to your opponent this round: you sow only from the pits you own." {
		t.Errorf("namnam legal a-f: %v %q", v.Correct, v.Lines)
	}
	endless, _ := nn.ParsePosition(nnEndless)
	if v := tutor.CheckLegal(en, nn, endless, []string{"A", "C", "E"}); v.Correct || len(v.Lines) != 1 || v.Lines[0] != "A is not legal: the sowing of A would never end, so it is not allowed." {
		t.Errorf("namnam legal A C E: %v %q", v.Correct, v.Lines)
	}
	if v := tutor.CheckLegal(en, nn, endless, []string{"C", "E"}); !v.Correct {
		t.Errorf("namnam legal C E: %q", v.Lines)
	}
	for _, bad := range []string{"namnam fours=all", "namnam owner", "abapa fours=owner", "oware"} {
		if _, err := tutor.ParseRules(bad); err == nil {
			t.Errorf("rules %q accepted", bad)
		}
	}
	r, _ := engine.RulesByName("wari")
	pos, _ := r.ParsePosition(slam)
	v := tutor.CheckLegal(en, r, pos, []string{"A", "F"})
	if v.Correct || len(v.Lines) != 2 || !strings.Contains(v.Lines[0], "F is not legal: F would be a grand slam") || v.Lines[1] != "You missed 4 legal moves." {
		t.Errorf("legal A F: %v %q", v.Correct, v.Lines)
	}
	if v := tutor.CheckLegal(en, r, pos, []string{"A", "B", "C", "D", "E"}); !v.Correct {
		t.Errorf("legal A-E: %q", v.Lines)
	}
}
