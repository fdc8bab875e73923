package content

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"oware/engine"
	"oware/locales"
	"oware/models"
)

// pageSources returns the shipped page sources by locale and slug.
func pageSources(t *testing.T) map[string]map[string]models.PageSource {
	t.Helper()
	srcs, err := models.ReadPageSources(locales.Pages)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]models.PageSource{}
	for _, s := range srcs {
		if out[s.Locale] == nil {
			out[s.Locale] = map[string]models.PageSource{}
		}
		out[s.Locale][s.Slug] = s
	}
	return out
}

// sourcesHeading is the last section of a page with references, by locale.
var sourcesHeading = map[string]string{"cs": "## Prameny", "it": "## Fonti", "en": "## Sources"}

// TestHistoryPage: the history page has at least 8,000 characters of text
// before its sources in every language (issue 32), ends with a sources
// section of the same number of entries in the three languages, and the
// text cites every entry (by its first name, e.g. "Murray"), so no source
// is listed for nothing.
func TestHistoryPage(t *testing.T) {
	entries := map[string]int{}
	for _, lang := range locales.Langs {
		src, ok := pageSources(t)[lang]["history"]
		if !ok {
			t.Fatalf("%s: no history page", lang)
		}
		text, sources, ok := strings.Cut(src.Body, sourcesHeading[lang]+"\n")
		if !ok {
			t.Errorf("%s: no section %q", lang, sourcesHeading[lang])
			continue
		}
		if n := utf8.RuneCountInString(text); n < 8000 {
			t.Errorf("%s: %d characters of text before the sources, want at least 8,000", lang, n)
		}
		for _, line := range strings.Split(sources, "\n") {
			entry, ok := strings.CutPrefix(line, "- ")
			if !ok {
				continue
			}
			entries[lang]++
			name, _, _ := strings.Cut(entry, " ")
			name = strings.Trim(name, ",.")
			if name == "van" { // van den Herik
				name = "van den Herik"
			}
			if !strings.Contains(text, "("+name) && !strings.Contains(text, "; "+name) {
				t.Errorf("%s: the source %q is never cited", lang, entry)
			}
		}
	}
	if entries["cs"] != entries["en"] || entries["it"] != entries["en"] || entries["en"] < 10 {
		t.Errorf("sources per language %v, want the same (at least 10) in each", entries)
	}
}

// ruleDiagram is what one diagram of the rules page must show, derived by
// hand from RULES.md: its rule set, position and moves, the numbers its
// caption states (the same digits in every language) and a check of what
// the engine does with it.
type ruleDiagram struct {
	rules, position, moves string
	numbers                []string
	check                  func(g *engine.Game, last engine.Move) string
}

// pitLabels writes pits as their labels, e.g. "D E F a".
func pitLabels(pits []int) string {
	out := make([]string, len(pits))
	for i, p := range pits {
		out[i] = engine.Label(p)
	}
	return strings.Join(out, " ")
}

// legal returns the legal moves of the game's position as labels.
func legal(g *engine.Game) string { return labels(g.LegalMoves()) }

// rulesDiagrams are the diagrams of the rules page in order, one for each
// rule of RULES.md 2 and 3.
var rulesDiagrams = []ruleDiagram{
	{"abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "", []string{"4"}, func(g *engine.Game, _ engine.Move) string {
		return map[bool]string{false: "not the start"}[g.Position == g.Rules.Start()]
	}},
	// 2.1: C's 4 seeds go one by one into the next four pits.
	{"abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "C", []string{"4", "5"}, func(g *engine.Game, m engine.Move) string {
		if pitLabels(m.Sown) != "D E F a" || m.Captured() != 0 || g.Position.Pits[2] != 0 {
			return "sown " + pitLabels(m.Sown)
		}
		return ""
	}},
	// 2.2: 13 seeds, F skipped, the last seed in b (4 seeds: no capture).
	{"abapa", "2-1-3-0-2-13-3-2-4-1-0-2-8-7-S", "F", []string{"13", "4"}, func(g *engine.Game, m engine.Move) string {
		if pitLabels(m.Sown) != "a b c d e f A B C D E a b" || g.Position.Pits[5] != 0 || g.Position.Pits[7] != 4 || m.Captured() != 0 {
			return "sown " + pitLabels(m.Sown)
		}
		return ""
	}},
	// 2.3: d (2) and c (3) captured, the chain stops at b (5).
	{"abapa", "3-2-5-1-2-4-4-4-2-1-3-1-9-7-S", "F", []string{"2", "3", "5"}, func(g *engine.Game, m engine.Move) string {
		if len(m.Captures) != 2 || engine.Label(m.Captures[0].Pit) != "d" || m.Captures[0].Seeds != 2 ||
			engine.Label(m.Captures[1].Pit) != "c" || m.Captures[1].Seeds != 3 || g.Position.Pits[7] != 5 {
			return "captures " + fmt.Sprint(m.Captures)
		}
		return ""
	}},
	// 2.4: the grand slam captures nothing under Abapa.
	{"abapa", "5-3-5-4-2-3-1-2-1-0-0-0-12-10-S", "F", []string{"2", "3"}, func(g *engine.Game, m engine.Move) string {
		if !m.GrandSlam || m.Captured() != 0 || g.Position.RowSeeds(engine.North) != 7 {
			return "not a grand slam that captures nothing"
		}
		return ""
	}},
	// 3, wari: F would be a grand slam and A..E are legal, so F is not.
	{"wari", "5-3-5-4-2-3-1-2-1-0-0-0-12-10-S", "", nil, func(g *engine.Game, _ engine.Move) string {
		if legal(g) != "A B C D E" {
			return "legal " + legal(g)
		}
		return ""
	}},
	// 3, warri: F takes the row (7, South 19), South moves again and must feed.
	{"warri", "5-3-5-4-2-3-1-2-1-0-0-0-12-10-S", "F", []string{"7", "19"}, func(g *engine.Game, m engine.Move) string {
		if !m.GrandSlam || m.Captured() != 7 || !m.ExtraTurn || g.Position.Captured[engine.South] != 19 || legal(g) != "C D E" {
			return "grand slam " + fmt.Sprint(m.Captures) + ", then " + legal(g)
		}
		return ""
	}},
	// 2.5: North's row is empty; only the feeding moves are legal.
	{"abapa", "2-1-3-4-2-1-0-0-0-0-0-0-17-18-S", "", nil, func(g *engine.Game, _ engine.Move) string {
		if legal(g) != "D E F" {
			return "legal " + legal(g)
		}
		return ""
	}},
	// 2.6: 22 + 3 = 25 wins at once.
	{"abapa", "3-2-1-2-0-2-0-2-1-1-1-1-22-10-S", "F", []string{"22", "3", "25"}, func(g *engine.Game, m engine.Move) string {
		if !g.Over || g.Reason != engine.ReasonMajority || g.Result != engine.Winner(engine.South) || g.Position.Captured[engine.South] != 25 {
			return fmt.Sprintf("over %v, %s", g.Over, g.Reason)
		}
		return ""
	}},
	// 2.6: no move can feed North: South takes the 6 on its row, 26 to 22.
	{"abapa", "3-2-1-0-0-0-0-0-0-0-0-0-20-22-S", "", []string{"6", "26", "22"}, func(g *engine.Game, _ engine.Move) string {
		end := g.Rules.Settle(g.Position)
		if g.LegalMoves() != 0 || end.Captured != [2]uint8{26, 22} {
			return "legal " + legal(g) + ", settled " + fmt.Sprint(end.Captured)
		}
		return ""
	}},
	// 2.6: after twelve forced moves the start comes back: 24 to 24.
	{"abapa", "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", "F f A a B b C c D d E e", []string{"24"}, func(g *engine.Game, m engine.Move) string {
		if !g.Over || g.Reason != engine.ReasonRepetition || g.Result != engine.Draw || g.Position.Captured != [2]uint8{24, 24} {
			return fmt.Sprintf("over %v, %s, %v", g.Over, g.Reason, g.Position.Captured)
		}
		return ""
	}},
}

// TestRulesDiagrams: the rules page has a diagram for every rule, the same
// positions and moves in every language, each showing what its text says:
// the engine plays its moves to the outcome derived by hand (rulesDiagrams)
// and its caption states the numbers of that outcome.
func TestRulesDiagrams(t *testing.T) {
	for _, lang := range locales.Langs {
		parts, err := Body(pageSources(t)[lang]["rules"].Body)
		if err != nil {
			t.Fatal(err)
		}
		var ds []*Diagram
		for _, p := range parts {
			if p.Diagram != nil {
				ds = append(ds, p.Diagram)
			}
		}
		if len(ds) != len(rulesDiagrams) {
			t.Errorf("%s: %d diagrams, want %d", lang, len(ds), len(rulesDiagrams))
			continue
		}
		for i, want := range rulesDiagrams {
			d := ds[i]
			if d.Rules.Name() != want.rules || d.Rules.FormatPosition(d.Position) != want.position || pitLabels(d.Moves) != want.moves {
				t.Errorf("%s: diagram %d is %s %s %q, want %s %s %q", lang, i+1, d.Rules.Name(),
					d.Rules.FormatPosition(d.Position), pitLabels(d.Moves), want.rules, want.position, want.moves)
				continue
			}
			g := engine.NewGame(d.Rules, d.Position)
			var last engine.Move
			for _, pit := range d.Moves {
				if last, err = g.Play(pit); err != nil {
					t.Fatalf("%s: diagram %d: %v", lang, i+1, err)
				}
			}
			if why := want.check(g, last); why != "" {
				t.Errorf("%s: diagram %d (%s %s): %s", lang, i+1, want.position, want.moves, why)
			}
			for _, n := range want.numbers {
				if !regexp.MustCompile(`\b` + n + `\b`).MatchString(d.Caption) {
					t.Errorf("%s: diagram %d: the caption does not say %s: %q", lang, i+1, n, d.Caption)
				}
			}
		}
	}
}

// glossaryAnchor is an entry's anchor in the glossary's source, "{#tempo}".
var glossaryAnchor = regexp.MustCompile(`(?m)^## .* \{#([a-z-]+)\}$`)

// glossaryLink is a link to a glossary entry in a page or a lesson.
var glossaryLink = regexp.MustCompile(`\(/([a-z]{2})/glossary#([a-z-]+)\)`)

// TestGlossaryAnchors: the glossary has the same entries (anchors) in
// every language, and every link to an entry from a page or a lesson goes
// to an anchor that exists, in the language of the text that links.
func TestGlossaryAnchors(t *testing.T) {
	anchors := map[string]map[string]bool{}
	pages := pageSources(t)
	for _, lang := range locales.Langs {
		anchors[lang] = map[string]bool{}
		for _, m := range glossaryAnchor.FindAllStringSubmatch(pages[lang]["glossary"].Body, -1) {
			anchors[lang][m[1]] = true
		}
	}
	if len(anchors["en"]) < 10 {
		t.Errorf("the English glossary has %d entries", len(anchors["en"]))
	}
	for _, lang := range locales.Langs {
		if fmt.Sprint(anchors[lang]) != fmt.Sprint(anchors["en"]) {
			t.Errorf("%s glossary entries %v, en %v", lang, anchors[lang], anchors["en"])
		}
	}
	texts := map[string]string{} // where -> text
	for lang, bySlug := range pages {
		for slug, s := range bySlug {
			texts[lang+"/"+slug] = s.Body
		}
	}
	tutorials, err := models.ReadTutorialSources(locales.TutorialSources)
	if err != nil {
		t.Fatal(err)
	}
	links := 0
	for _, tu := range tutorials {
		for _, s := range tu.Steps {
			texts[tu.Locale+"/tutorials/"+tu.Slug+"/"+s.Title] = s.Text
		}
	}
	for where, text := range texts {
		lang, _, _ := strings.Cut(where, "/")
		for _, m := range glossaryLink.FindAllStringSubmatch(text, -1) {
			links++
			if m[1] != lang || !anchors[lang][m[2]] {
				t.Errorf("%s links to /%s/glossary#%s, which is not an entry of the %s glossary", where, m[1], m[2], lang)
			}
		}
	}
	if links == 0 {
		t.Errorf("nothing links to the glossary")
	}
}
