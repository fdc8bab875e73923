package handlers_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"oware/engine"
	"oware/locales"
	"oware/models"
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
	for _, slug := range []string{"oware-step-by-step", "grand-slam"} {
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
// legal move, and for "capture", "feed" and "legal" the accepted set is
// exactly the set the engine computes.
func TestTutorialTasksAgreeWithEngine(t *testing.T) {
	for slug, byLang := range tutorialSources(t) {
		for lang, tu := range byLang {
			for _, s := range tu.Steps {
				name := lang + "/" + slug + " step " + s.Title
				r, err := engine.RulesByName(s.Rules)
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
				if s.Task == "" {
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
					switch s.Task {
					case "capture":
						if mv.Captured() > 0 {
							want |= 1 << pit
						}
					case "feed":
						if feedsRow(mv) {
							want |= 1 << pit
						}
					}
				}
				switch s.Task {
				case "legal":
					want = legal
				case "feed":
					if pos.RowSeeds(pos.ToMove.Opponent()) != 0 {
						t.Errorf("%s: a feed task, but the opponent's row is not empty", name)
					}
				case "play":
					want = accept
				}
				if accept != want {
					t.Errorf("%s: task %s accepts %v, the engine finds %v", name, s.Task, accept.Labels(), want.Labels())
				}
			}
		}
	}
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
		{"oware-step-by-step", 5, "F", func(t *testing.T, _ engine.Rules, before, _ engine.Position, mv engine.Move, err error) {
			captures(5)(t, nil, before, before, mv, err)
			if len(mv.Captures) != 2 || mv.Captures[0].Pit != 9 || mv.Captures[0].Seeds != 2 || mv.Captures[1].Pit != 8 || mv.Captures[1].Seeds != 3 {
				t.Errorf("captures %+v; text: d (2) then c (3)", mv.Captures)
			}
			if before.Pits[7]+1 != 5 {
				t.Errorf("b would hold %d, text says 5", before.Pits[7]+1)
			}
		}, []string{"4", "2", "3", "5"}},
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
				r, err := engine.RulesByName(s.Rules)
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
