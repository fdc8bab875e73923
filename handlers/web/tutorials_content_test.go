package web_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"oware/engine"
	"oware/locales"
	"oware/models"
	"oware/tutor"
)

// tutorialSources reads the embedded tutorial sources by slug and locale.
func tutorialSources(t *testing.T) map[string]map[string]models.Tutorial {
	t.Helper()
	srcs, err := models.ReadTutorialSources(locales.TutorialSources)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]models.Tutorial{}
	for _, s := range srcs {
		if out[s.Slug] == nil {
			out[s.Slug] = map[string]models.Tutorial{}
		}
		out[s.Slug][s.Locale] = s
	}
	return out
}

// labelSet reads a space-separated list of labels.
func labelSet(t *testing.T, s string) engine.Moves {
	t.Helper()
	var m engine.Moves
	for _, f := range strings.Fields(s) {
		pit, err := engine.ParseLabel(f)
		if err != nil {
			t.Fatalf("label %q: %v", f, err)
		}
		m |= 1 << pit
	}
	return m
}

// TestTutorialsSameInEveryLanguage: every tutorial exists in cs, it and en
// with the same number of steps, and each step has the same board and task
// in every language (only the words differ).
func TestTutorialsSameInEveryLanguage(t *testing.T) {
	all := tutorialSources(t)
	for _, slug := range []string{"oware-step-by-step", "grand-slam", "namnam"} {
		if all[slug] == nil {
			t.Errorf("tutorial %s missing", slug)
		}
	}
	for slug, byLang := range all {
		en, ok := byLang["en"]
		if !ok {
			t.Errorf("%s: no English source", slug)
			continue
		}
		for _, lang := range locales.Langs {
			tu, ok := byLang[lang]
			if !ok {
				t.Errorf("%s: no %s source", slug, lang)
				continue
			}
			if tu.Ordinal != en.Ordinal {
				t.Errorf("%s/%s: number %d, en %d", lang, slug, tu.Ordinal, en.Ordinal)
			}
			if len(tu.Steps) != len(en.Steps) {
				t.Errorf("%s/%s: %d steps, en has %d", lang, slug, len(tu.Steps), len(en.Steps))
				continue
			}
			for i, s := range tu.Steps {
				e := en.Steps[i]
				s.Title, s.Text, e.Title, e.Text = "", "", "", ""
				if s != e {
					t.Errorf("%s/%s step %d: board or task %+v differs from en %+v", lang, slug, i+1, s, e)
				}
			}
		}
	}
}

// TestTutorialTasksAgreeWithEngine: every step's position parses under its
// rule set; every task has an accepted answer, every accepted answer is a
// legal move, and for "capture N", "feed" and "legal" the accepted set is
// exactly the set of moves that do so, each move played here; "play" is
// checked against playOracle. ("best", "book", "save" and practice are the goal
// checker's, content.TestLessonTasksAgreeWithEngine.)
func TestTutorialTasksAgreeWithEngine(t *testing.T) {
	for slug, byLang := range tutorialSources(t) {
		for lang, tu := range byLang {
			for _, s := range tu.Steps {
				name := lang + "/" + slug + " step " + s.Title
				r, err := tutor.ParseRules(s.Rules)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				pos, err := r.ParsePosition(s.Position)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				labelSet(t, s.Highlight)
				goal, err := tutor.ParseGoal(s.Task)
				if s.Task == "" || err == nil && (goal.Kind == tutor.GoalBest || goal.Kind == tutor.GoalBook || goal.Kind == tutor.GoalSave || goal.Kind == tutor.GoalPractice) {
					continue
				}
				accept := labelSet(t, s.Accept)
				if accept == 0 {
					t.Errorf("%s: task %s without an accepted answer", name, s.Task)
				}
				legal := r.LegalMoves(pos)
				if s.Task != "legal" && accept&^legal != 0 {
					t.Errorf("%s: accepted %v, but only %v are legal", name, accept.Labels(), legal.Labels())
				}
				var want engine.Moves
				for _, pit := range legal.Pits() {
					_, mv, err := r.Play(pos, pit)
					if err != nil {
						t.Fatalf("%s: legal %s refused: %v", name, engine.Label(pit), err)
					}
					switch goal.Kind {
					case "capture":
						// In Nam-nam's owner setting the opponent may
						// capture during the move: only the mover's count.
						if capturedBy(mv, mv.Mover) >= goal.N {
							want |= 1 << pit
						}
					case "feed":
						if feedsRow(mv) {
							want |= 1 << pit
						}
					}
				}
				switch goal.Kind {
				case "legal":
					want = legal
				case "feed":
					if pos.RowSeeds(pos.ToMove.Opponent()) != 0 {
						t.Errorf("%s: a feed task, but the opponent's row is not empty", name)
					}
				case "play":
					want = checkPlayOracle(t, name, s.Rules, s.Position, r, pos, legal) & accept
				}
				if accept != want {
					t.Errorf("%s: task %s accepts %v, the engine finds %v", name, s.Task, accept.Labels(), want.Labels())
				}
			}
		}
	}
}

// playOracle holds, for every "play" step (by rule set and position), the
// moves the step's text asks for and the position each must leave, worked
// out by hand from the text and RULES.md (sections 2.3-2.6, 3 and 4), not
// by the engine. A play step missing here fails the test.
var playOracle = map[string]map[string]string{
	// 2.3: C's 4 seeds go into D, E, F and a; E's into F, a, b and c.
	"abapa 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S": {"C": "4-4-0-5-5-5-5-4-4-4-4-4-0-0-N", "E": "4-4-4-4-0-5-5-5-5-4-4-4-0-0-N"},
	// 2.3: B's 7 seeds go into C, D, E, F, a, b and c (5: no capture).
	"abapa 3-7-2-1-2-4-3-2-4-1-3-2-7-7-S": {"B": "3-0-3-2-3-5-4-3-5-1-3-2-7-7-N"},
	// 2.2: 12 seeds from D: E..f, A..C, D skipped, the last into E (3).
	"abapa 1-0-2-12-1-0-2-1-3-0-2-1-12-11-S": {"D": "2-1-3-0-3-1-3-2-4-1-3-2-12-11-N"},
	// 2.3: 13 seeds skip F: a..f, A..E, then a, b; b ends with 4, no capture.
	"abapa 2-1-3-0-2-13-3-2-4-1-0-2-8-7-S": {"F": "3-2-4-1-3-0-5-4-5-2-1-3-8-7-N"},
	// 3, abapa: the grand slam a, b, c = 2, 3, 2 captures nothing.
	"abapa 5-3-5-4-2-3-1-2-1-0-0-0-12-10-S": {"F": "5-3-5-4-2-0-2-3-2-0-0-0-12-10-N"},
	// 3, wari: both moves are grand slams: 7 captured (22), the game ends
	// and South takes the 4 seeds left on its row (26).
	"wari 0-0-0-0-4-3-1-2-1-0-0-0-15-22-S": {
		"E": "0-0-0-0-0-0-0-0-0-0-0-0-26-22-N",
		"F": "0-0-0-0-0-0-0-0-0-0-0-0-26-22-N",
	},
	// 3, warri: the grand slam takes the row (19) and South moves again.
	"warri 5-3-5-4-2-3-1-2-1-0-0-0-12-10-S": {"F": "5-3-5-4-2-0-0-0-0-0-0-0-19-10-S"},
	// 3, warri: 7 captured (21), no move can feed: South's 9 seeds make 30.
	"warri 3-2-2-1-1-3-1-2-1-0-0-0-14-18-S": {"F": "0-0-0-0-0-0-0-0-0-0-0-0-30-18-S"},
	// 4: C's 3 seeds end in the empty F.
	"namnam 2-1-3-1-2-0-3-2-0-4-1-2-12-15-S-SSSSSSNNNNNN-0-0": {"C": "2-1-0-2-3-1-3-2-0-4-1-2-12-15-N-SSSSSSNNNNNN-0-0"},
	// 4: A into B, C; C's 3 into D, E, F; F's 2 into a, b; b was empty.
	"namnam 2-1-2-3-0-1-2-0-3-1-4-2-14-13-S-SSSSSSNNNNNN-0-0": {"A": "0-2-0-4-1-0-3-1-3-1-4-2-14-13-N-SSSSSSNNNNNN-0-0"},
	// 4, fours=owner: E's four to South (17), a's to North (16), ends in b.
	"namnam fours=owner 1-2-1-4-3-1-3-0-2-1-3-2-13-12-S-SSSSSSNNNNNN-0-0": {"D": "1-2-1-0-0-2-0-1-2-1-3-2-17-16-N-SSSSSSNNNNNN-0-0"},
	// 4: a four in D (29), 2 seeds left: the round ends, F to South (30),
	// d to North (18).
	"namnam 0-0-1-3-0-1-0-0-0-1-0-0-25-17-S-SSSSSSNNNNNN-0-0": {"C": "0-0-0-0-0-0-0-0-0-0-0-0-30-18-N-SSSSSSNNNNNN-0-0"},
	// 4: either move ends the round and North keeps 3 seeds in all (its
	// store's 1 included): 45 to 3, the match is over.
	"namnam 0-0-1-3-0-0-1-0-0-0-0-0-38-1-S-SSSSSSNxSSSS-3-1": {
		"C": "0-0-0-0-0-0-0-0-0-0-0-0-42-2-N-SSSSSSNxSSSS-3-1",
		"D": "0-0-0-0-0-0-0-0-0-0-0-0-42-2-N-SSSSSSNxSSSS-3-1",
	},
}

// checkPlayOracle returns the moves playOracle asks for in a play step and
// checks that each leaves the position written there.
func checkPlayOracle(t *testing.T, name, rules, position string, r engine.Rules, pos engine.Position, legal engine.Moves) engine.Moves {
	t.Helper()
	if rules == "" {
		rules = "abapa"
	}
	after, ok := playOracle[rules+" "+position]
	if !ok {
		t.Errorf("%s: play step %s %s has no hand-derived answer in playOracle", name, rules, position)
		return 0
	}
	var want engine.Moves
	for label, wantPos := range after {
		pit, err := engine.ParseLabel(label)
		if err != nil || !legal.Has(pit) {
			t.Errorf("%s: oracle move %s is not legal", name, label)
			continue
		}
		want |= 1 << pit
		got, _, err := r.Play(pos, pit)
		if err != nil {
			t.Errorf("%s: %s refused: %v", name, label, err)
		} else if f := r.FormatPosition(got); f != wantPos {
			t.Errorf("%s: %s leaves %s, the text says %s", name, label, f, wantPos)
		}
	}
	return want
}

// capturedBy returns the seeds mv captured for side.
func capturedBy(mv engine.Move, side engine.Side) int {
	n := 0
	for _, c := range mv.Captures {
		if c.By == side {
			n += c.Seeds
		}
	}
	return n
}

// feedsRow reports whether the move sowed into the opponent's row.
func feedsRow(mv engine.Move) bool {
	return slices.ContainsFunc(mv.Sown, func(p int) bool { return engine.RowOf(p) != mv.Mover })
}

// stepClaim is what a step's text says about a move: checked with the
// engine, and the numbers it names must appear in its text in every
// language.
type stepClaim struct {
	slug    string
	step    int    // from 1
	pit     string // the move; "" for a claim about the position itself
	check   func(t *testing.T, r engine.Rules, before, after engine.Position, mv engine.Move, err error)
	mention []string // numbers the text names
}

// TestTutorialTextsTrue plays the moves the tutorial texts talk about and
// checks that the texts are true.
func TestTutorialTextsTrue(t *testing.T) {
	captures := func(n int) func(*testing.T, engine.Rules, engine.Position, engine.Position, engine.Move, error) {
		return func(t *testing.T, _ engine.Rules, _, _ engine.Position, mv engine.Move, err error) {
			t.Helper()
			if err != nil || mv.Captured() != n {
				t.Errorf("captured %d (%v), text says %d", mv.Captured(), err, n)
			}
		}
	}
	refused := func(sentinel error) func(*testing.T, engine.Rules, engine.Position, engine.Position, engine.Move, error) {
		return func(t *testing.T, _ engine.Rules, _, _ engine.Position, _ engine.Move, err error) {
			t.Helper()
			if !errors.Is(err, sentinel) {
				t.Errorf("got %v, text says %v", err, sentinel)
			}
		}
	}
	score := func(south, north int) func(*testing.T, engine.Position) {
		return func(t *testing.T, p engine.Position) {
			t.Helper()
			if int(p.Captured[engine.South]) != south || int(p.Captured[engine.North]) != north {
				t.Errorf("score %d-%d, text says %d-%d", p.Captured[0], p.Captured[1], south, north)
			}
		}
	}
	claims := []stepClaim{
		// Tutorial 1: the seed's worked positions.
		{"oware-step-by-step", 1, "", func(t *testing.T, r engine.Rules, p, _ engine.Position, _ engine.Move, _ error) {
			if p != r.Start() {
				t.Errorf("not the start position")
			}
		}, []string{"4", "48", "25"}},
		{"oware-step-by-step", 3, "C", func(t *testing.T, _ engine.Rules, _, _ engine.Position, mv engine.Move, err error) {
			if err != nil || !slices.Equal(mv.Sown, []int{3, 4, 5, 6}) || mv.Captured() != 0 {
				t.Errorf("C sows %v, captures %d (%v); text: D, E, F, a", mv.Sown, mv.Captured(), err)
			}
		}, []string{"4"}},
		{"oware-step-by-step", 4, "F", func(t *testing.T, _ engine.Rules, _, after engine.Position, mv engine.Move, err error) {
			want := []int{6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 6, 7}
			if err != nil || !slices.Equal(mv.Sown, want) || after.Pits[5] != 0 {
				t.Errorf("F sows %v (%v), F holds %d; text: a..f, A..E, skip F, a, b", mv.Sown, err, after.Pits[5])
			}
		}, []string{"13", "12"}},
		// The text does not name the move (the learner is to find it): it
		// says that one move captures 5 seeds from two pits side by side,
		// which held 1 or 2 seeds. The right answer's feedback names the
		// pits (TestTutorialHints).
		{"oware-step-by-step", 5, "F", func(t *testing.T, r engine.Rules, before, _ engine.Position, mv engine.Move, err error) {
			captures(5)(t, nil, before, before, mv, err)
			if len(mv.Captures) != 2 || mv.Captures[0].Pit-mv.Captures[1].Pit != 1 {
				t.Errorf("captures %+v; text: two pits side by side", mv.Captures)
			}
			for _, c := range mv.Captures {
				if n := before.Pits[c.Pit]; n != 1 && n != 2 {
					t.Errorf("%s held %d; text: 1 or 2", engine.Label(c.Pit), n)
				}
			}
			for _, pit := range r.LegalMoves(before).Pits() {
				if _, other, _ := r.Play(before, pit); pit != mv.Pit && other.Captured() > 0 {
					t.Errorf("%s captures too; text: one move captures", engine.Label(pit))
				}
			}
		}, []string{"5", "3", "1", "2"}},
		{"oware-step-by-step", 6, "F", func(t *testing.T, _ engine.Rules, _, _ engine.Position, mv engine.Move, err error) {
			if err != nil || !mv.GrandSlam || mv.Captured() != 0 {
				t.Errorf("F: grand slam %v, captured %d (%v); text: a grand slam that captures nothing", mv.GrandSlam, mv.Captured(), err)
			}
		}, []string{"3", "2"}},
		{"oware-step-by-step", 6, "C", captures(5), nil},
		{"oware-step-by-step", 6, "D", captures(5), nil},
		{"oware-step-by-step", 6, "E", captures(2), nil},
		{"oware-step-by-step", 7, "A", refused(engine.ErrMustFeed), nil},
		{"oware-step-by-step", 7, "B", refused(engine.ErrMustFeed), nil},
		{"oware-step-by-step", 7, "C", refused(engine.ErrMustFeed), nil},
		{"oware-step-by-step", 8, "F", func(t *testing.T, _ engine.Rules, _, after engine.Position, mv engine.Move, err error) {
			if err != nil || !mv.Over || mv.Reason != engine.ReasonMajority || mv.Result != engine.Winner(engine.South) {
				t.Errorf("F: over %v %s %v (%v); text: South wins with 25", mv.Over, mv.Reason, mv.Result, err)
			}
			score(25, 6)(t, after)
		}, []string{"22", "2", "25"}},
		{"oware-step-by-step", 9, "", func(t *testing.T, r engine.Rules, p, _ engine.Position, _ engine.Move, _ error) {
			if r.LegalMoves(p) != 0 || p.RowSeeds(engine.North) != 0 {
				t.Errorf("South can still move: %v", r.LegalMoves(p).Labels())
			}
			score(26, 22)(t, r.Settle(p))
		}, []string{"6", "20", "26", "22", "24"}},
		{"oware-step-by-step", 10, "", func(t *testing.T, _ engine.Rules, p, _ engine.Position, _ engine.Move, _ error) {
			score(26, 22)(t, p)
		}, []string{"26", "22"}},
		// Tutorial 2: one position under each grand slam rule.
		{"grand-slam", 1, "F", func(t *testing.T, _ engine.Rules, _, _ engine.Position, mv engine.Move, err error) {
			if err != nil || !mv.GrandSlam {
				t.Errorf("F is no grand slam (%v)", err)
			}
		}, []string{"4", "3", "7"}},
		{"grand-slam", 1, "C", captures(5), []string{"5"}},
		{"grand-slam", 1, "D", captures(5), nil},
		{"grand-slam", 1, "E", captures(2), []string{"2"}},
		{"grand-slam", 1, "A", captures(0), nil},
		{"grand-slam", 1, "B", captures(0), nil},
		{"grand-slam", 2, "F", func(t *testing.T, _ engine.Rules, _, after engine.Position, mv engine.Move, err error) {
			if err != nil || !mv.GrandSlam || mv.Captured() != 0 || mv.ExtraTurn {
				t.Errorf("abapa F: %+v (%v); text: nothing captured", mv, err)
			}
			score(12, 10)(t, after)
		}, []string{"12", "7"}},
		{"grand-slam", 3, "F", refused(engine.ErrGrandSlamForbidden), nil},
		{"grand-slam", 4, "E", func(t *testing.T, _ engine.Rules, _, after engine.Position, mv engine.Move, err error) {
			if err != nil || !mv.GrandSlam || mv.Captured() != 7 || !mv.Over || mv.Reason != engine.ReasonGrandSlam {
				t.Errorf("wari E: %+v (%v); text: captures 7, game over", mv, err)
			}
			score(26, 22)(t, after)
		}, []string{"7", "22", "4", "26"}},
		{"grand-slam", 4, "F", func(t *testing.T, _ engine.Rules, _, after engine.Position, mv engine.Move, err error) {
			if err != nil || !mv.GrandSlam || mv.Captured() != 7 || !mv.Over {
				t.Errorf("wari F: %+v (%v)", mv, err)
			}
			score(26, 22)(t, after)
		}, nil},
		{"grand-slam", 5, "F", func(t *testing.T, r engine.Rules, _, after engine.Position, mv engine.Move, err error) {
			if err != nil || !mv.GrandSlam || mv.Captured() != 7 || !mv.ExtraTurn || mv.Over || after.ToMove != engine.South {
				t.Errorf("warri F: %+v (%v); text: captures 7, South moves again", mv, err)
			}
			score(19, 10)(t, after)
		}, []string{"7", "19"}},
		{"grand-slam", 6, "A", refused(engine.ErrMustFeed), nil},
		{"grand-slam", 6, "B", refused(engine.ErrMustFeed), nil},
		{"grand-slam", 7, "F", func(t *testing.T, _ engine.Rules, _, after engine.Position, mv engine.Move, err error) {
			if err != nil || !mv.GrandSlam || mv.Captured() != 7 || !mv.Over || mv.Reason != engine.ReasonCannotFeed {
				t.Errorf("warri F: %+v (%v); text: captures 7, cannot feed, game over", mv, err)
			}
			score(30, 18)(t, after)
		}, []string{"7", "21", "9", "30", "18"}},
	}
	claims = append(claims, namnamClaims()...)
	all := tutorialSources(t)
	for _, c := range claims {
		for _, lang := range locales.Langs {
			tu := all[c.slug][lang]
			if c.step > len(tu.Steps) {
				t.Errorf("%s/%s: no step %d", lang, c.slug, c.step)
				continue
			}
			s := tu.Steps[c.step-1]
			t.Run(lang+"/"+c.slug+"/"+s.Title+"/"+c.pit, func(t *testing.T) {
				r, err := tutor.ParseRules(s.Rules)
				if err != nil {
					t.Fatal(err)
				}
				pos, err := r.ParsePosition(s.Position)
				if err != nil {
					t.Fatal(err)
				}
				var after engine.Position
				var mv engine.Move
				if c.pit != "" {
					pit, err := engine.ParseLabel(c.pit)
					if err != nil {
						t.Fatal(err)
					}
					after, mv, err = r.Play(pos, pit)
					c.check(t, r, pos, after, mv, err)
				} else {
					c.check(t, r, pos, after, mv, nil)
				}
				for _, n := range c.mention {
					if !containsNumber(s.Text, n) {
						t.Errorf("the text does not name %s", n)
					}
				}
			})
		}
	}
	// The Warri grand slam of step 5 leads to the position of step 6.
	for _, lang := range locales.Langs {
		steps := all["grand-slam"][lang].Steps
		r, _ := engine.RulesByName("warri")
		p, _ := r.ParsePosition(steps[4].Position)
		after, _, err := r.Play(p, 5)
		if err != nil || r.FormatPosition(after) != steps[5].Position {
			t.Errorf("%s: after F the position is %s (%v), step 6 shows %s", lang, r.FormatPosition(after), err, steps[5].Position)
		}
	}
	// Nam-nam: the round that C ends in step 8 is followed by the round of
	// step 9 (the refill example: South 30, North 18).
	for _, lang := range locales.Langs {
		steps := all["namnam"][lang].Steps
		r, _ := tutor.ParseRules(steps[7].Rules)
		p, _ := r.ParsePosition(steps[7].Position)
		end, mv, err := r.Play(p, 2)
		if err != nil || !mv.RoundOver {
			t.Fatalf("%s: namnam step 8 C does not end the round (%v)", lang, err)
		}
		for _, starter := range []engine.Side{engine.South, engine.North} {
			next, over, _ := r.(engine.Rounds).NextRound(end, starter)
			if over || r.FormatPosition(next) != steps[8].Position {
				t.Errorf("%s: the next round is %s (over %v), step 9 shows %s", lang, r.FormatPosition(next), over, steps[8].Position)
			}
		}
	}
}

// namnamClaims are the claims of the Nam-nam tutorial (RULES.md 4).
func namnamClaims() []stepClaim {
	const slug = "namnam"
	type check = func(t *testing.T, r engine.Rules, before, after engine.Position, mv engine.Move, err error)
	labels := func(pits []int) string {
		var l []string
		for _, p := range pits {
			l = append(l, engine.Label(p))
		}
		return strings.Join(l, " ")
	}
	// relay: the move is legal, lifts exactly the pits lifts (the first
	// being the move's) and sows into sown.
	relay := func(lifts, sown string) check {
		return func(t *testing.T, _ engine.Rules, _, _ engine.Position, mv engine.Move, err error) {
			t.Helper()
			if err != nil || labels(mv.Lifts) != lifts || labels(mv.Sown) != sown {
				t.Errorf("lifts %q, sows %q (%v); text: lifts %q, sows %q", labels(mv.Lifts), labels(mv.Sown), err, lifts, sown)
			}
		}
	}
	// fours: the move's captures, "pit seeds by" each, in order.
	fours := func(want ...string) check {
		return func(t *testing.T, _ engine.Rules, _, _ engine.Position, mv engine.Move, err error) {
			t.Helper()
			var got []string
			for _, c := range mv.Captures {
				got = append(got, engine.Label(c.Pit)+" "+strconv.Itoa(c.Seeds)+" "+c.By.String())
			}
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("captures %q (%v); text: %q", got, err, want)
			}
		}
	}
	all := func(checks ...check) check {
		return func(t *testing.T, r engine.Rules, before, after engine.Position, mv engine.Move, err error) {
			t.Helper()
			for _, c := range checks {
				c(t, r, before, after, mv, err)
			}
		}
	}
	seedsIn := func(label string, n int) check {
		return func(t *testing.T, _ engine.Rules, before, _ engine.Position, _ engine.Move, _ error) {
			t.Helper()
			pit, _ := engine.ParseLabel(label)
			if int(before.Pits[pit]) != n {
				t.Errorf("%s holds %d, text says %d", label, before.Pits[pit], n)
			}
		}
	}
	owners := func(want string, stores ...int) check {
		return func(t *testing.T, _ engine.Rules, before, _ engine.Position, _ engine.Move, _ error) {
			t.Helper()
			var got []byte
			for _, o := range before.Owner {
				got = append(got, "SNx"[o])
			}
			if string(got) != want || int(before.Store[engine.South]) != stores[0] || int(before.Store[engine.North]) != stores[1] {
				t.Errorf("owners %s, stores %v; text: %s, %v", got, before.Store, want, stores)
			}
		}
	}
	// roundEnds: the move ends the round for reason with these totals;
	// matchOver: and the match, South winning.
	roundEnds := func(reason engine.Reason, south, north int, matchOver bool) check {
		return func(t *testing.T, r engine.Rules, _, after engine.Position, mv engine.Move, err error) {
			t.Helper()
			rounds := r.(engine.Rounds)
			if err != nil || !mv.RoundOver || mv.RoundReason != reason {
				t.Fatalf("round over %v (%s, %v); text: over, %s", mv.RoundOver, mv.RoundReason, err, reason)
			}
			if tot := rounds.Totals(after); tot != [2]int{south, north} {
				t.Errorf("totals %v, text says %d-%d", tot, south, north)
			}
			_, over, result := rounds.NextRound(after, engine.South)
			if over != matchOver || (over && result != engine.Winner(engine.South)) {
				t.Errorf("match over %v %v; text: %v, South wins", over, result, matchOver)
			}
		}
	}
	none := fours()
	return []stepClaim{
		{slug, 1, "", func(t *testing.T, r engine.Rules, p, _ engine.Position, _ engine.Move, _ error) {
			if p != r.Start() || r.Name() != "namnam" {
				t.Errorf("not the Nam-nam start position")
			}
			for pit := range engine.PitsPerRow {
				if _, mv, err := r.Play(p, pit); err != nil || mv.Steps != 26 || mv.Captured() != 0 {
					t.Errorf("%s drops %d seeds, captures %d (%v); text: 26", engine.Label(pit), mv.Steps, mv.Captured(), err)
				}
			}
		}, []string{"48", "4", "26"}},
		{slug, 2, "", owners("SSSSSSNNNNNN", 0, 0), nil},
		{slug, 3, "C", all(relay("C", "D E F"), none, seedsIn("C", 3), seedsIn("F", 0)), []string{"3"}},
		{slug, 4, "A", all(relay("A C F", "B C D E F a b"), none, seedsIn("A", 2), seedsIn("C", 2), seedsIn("F", 1), seedsIn("b", 0), seedsIn("D", 3)), []string{"2", "3", "7", "4"}},
		{slug, 5, "A", all(relay("A", "B"), fours("B 4 south"), seedsIn("B", 3)), []string{"3", "4"}},
		{slug, 5, "D", all(relay("D F", "E F a b"), fours("b 4 south"), seedsIn("b", 3)), nil},
		{slug, 5, "B", none, nil},
		{slug, 5, "F", none, nil},
		{slug, 6, "D", func(t *testing.T, r engine.Rules, before, after engine.Position, mv engine.Move, err error) {
			if n, ok := r.(engine.NamNam); !ok || n.Fours != engine.FoursOwner {
				t.Fatalf("rules %v; text: the owner setting", r)
			}
			all(relay("D", "E F a b"), fours("E 4 south", "a 4 north"), seedsIn("b", 0))(t, r, before, after, mv, err)
			if after.Captured != [2]uint8{17, 16} || before.Captured != [2]uint8{13, 12} {
				t.Errorf("captures %v to %v; text: 13 to 17, 12 to 16", before.Captured, after.Captured)
			}
			// With the standard setting the same move captures nothing.
			last, _ := engine.NewRules("namnam", "last")
			_, mv, err = last.Play(before, 3)
			none(t, last, before, before, mv, err)
		}, []string{"4", "3", "13", "17", "12", "16"}},
		{slug, 7, "A", func(t *testing.T, _ engine.Rules, before, _ engine.Position, _ engine.Move, err error) {
			if !errors.Is(err, engine.ErrEndlessSowing) {
				t.Errorf("A: %v; text: never ends", err)
			}
			if before.BoardSeeds() != 9 || before.Pits[0] != 2 || before.Pits[1] != 0 || before.Pits[2] != 1 {
				t.Errorf("%d seeds on the board, A %d, B %d, C %d; text: 9, A 2 into B and C, C then 2", before.BoardSeeds(), before.Pits[0], before.Pits[1], before.Pits[2])
			}
		}, []string{"9", "2"}},
		{slug, 8, "C", func(t *testing.T, r engine.Rules, before, after engine.Position, mv engine.Move, err error) {
			all(fours("D 4 south"), roundEnds(engine.ReasonFewSeeds, 30, 18, false))(t, r, before, after, mv, err)
			if before.BoardSeeds() != 6 || before.Captured != [2]uint8{25, 17} || before.Owner[5] != engine.South || before.Owner[9] != engine.North ||
				before.Pits[5] != 1 || before.Pits[9] != 1 {
				t.Errorf("board %d seeds, captures %v; text: 6 seeds, 25 and 17, F (South's) and d (North's) 1 each", before.BoardSeeds(), before.Captured)
			}
		}, []string{"6", "4", "2", "25", "17", "30", "18"}},
		{slug, 9, "", func(t *testing.T, r engine.Rules, before, after engine.Position, mv engine.Move, err error) {
			owners("SSSSSSNNNNxS", 2, 2)(t, r, before, after, mv, err)
			if before.ToMove != engine.North || before.BoardSeeds() != 44 {
				t.Errorf("to move %v, %d seeds on the board; text: North starts, 24 + 16 + 4", before.ToMove, before.BoardSeeds())
			}
		}, []string{"18", "16", "2", "30", "24", "6"}},
		{slug, 10, "C", all(owners("SSSSSSNxSSSS", 3, 1), fours("D 4 south"), roundEnds(engine.ReasonFewSeeds, 45, 3, true)), []string{"1", "3", "45"}},
		{slug, 10, "D", all(relay("D a", "E F a b c"), none, roundEnds(engine.ReasonNoMoves, 45, 3, true)), nil},
	}
}

// containsNumber reports whether text names the number n as a whole word
// (not as part of a larger number or a position string).
func containsNumber(text, n string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], n)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(n)
		before := j == 0 || !isDigitOrDash(text[j-1])
		after := end == len(text) || !isDigitOrDash(text[end])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isDigitOrDash(b byte) bool { return b >= '0' && b <= '9' || b == '-' }
