package content_test

import (
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"oware/content"
	"oware/locales"
	"oware/models"
	"oware/models/modelstest"
)

// lessons reads the embedded lesson sources by slug and locale.
func lessons(t *testing.T) (map[string]map[string]models.Tutorial, []models.Tutorial) {
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
	return out, srcs
}

// TestLessonTasksAgreeWithEngine: every task of every lesson in every
// language has the goal the engine can meet, and an accept list written
// in the source is the engine's accepted set (content.CheckLesson).
func TestLessonTasksAgreeWithEngine(t *testing.T) {
	_, srcs := lessons(t)
	tasks := 0
	for _, l := range srcs {
		if err := content.CheckLesson(t.Context(), &l); err != nil {
			t.Error(err)
		}
		for _, s := range l.Steps {
			if s.Task != "" {
				tasks++
			}
		}
	}
	t.Logf("%d lessons, %d tasks checked", len(srcs), tasks)
}

// TestLessonsSameInEveryLanguage: every lesson exists in cs, it and en,
// in one stage at one place, with the same steps: the same board, rules,
// highlight, task and accept list (only the words differ).
func TestLessonsSameInEveryLanguage(t *testing.T) {
	bySlug, _ := lessons(t)
	for slug, byLang := range bySlug {
		en, ok := byLang["en"]
		if !ok {
			t.Errorf("%s: no English source", slug)
			continue
		}
		for _, lang := range locales.Langs {
			l, ok := byLang[lang]
			switch {
			case !ok:
				t.Errorf("%s: no %s source", slug, lang)
				continue
			case l.Stage != en.Stage || l.Ordinal != en.Ordinal:
				t.Errorf("%s/%s: stage %s %d, en %s %d", lang, slug, l.Stage, l.Ordinal, en.Stage, en.Ordinal)
			case len(l.Steps) != len(en.Steps):
				t.Errorf("%s/%s: %d steps, en has %d", lang, slug, len(l.Steps), len(en.Steps))
				continue
			}
			for i, s := range l.Steps {
				e := en.Steps[i]
				s.Title, s.Text, e.Title, e.Text = "", "", "", ""
				if s != e {
					t.Errorf("%s/%s step %d: %+v differs from en %+v", lang, slug, i+1, s, e)
				}
			}
		}
	}
}

// TestCheckLessonRefusesWrongAnswers: a planted wrong accept list and a
// goal no move meets are refused with the lesson and step named. On the
// board 3-2-5-1-2-4-4-4-2-1-3-1-9-7-S only F captures (d becomes 2 and c
// 3: 5 seeds, RULES.md 2.3).
func TestCheckLessonRefusesWrongAnswers(t *testing.T) {
	for _, c := range []struct{ task, accept, want string }{
		{"capture", "E F", "the engine finds [F]"},
		{"capture", "E", "the engine finds [F]"},
		{"capture 6", "", "no move captures 6 seeds or more"},
		{"feed", "", "nothing to feed"},
		{"play", "a", "not legal: a"},
		// A (3) is never taken: North's f makes it 4, e ends in B.
		{"save A", "", "every move meets the goal"},
	} {
		l := models.Tutorial{Locale: "en", Slug: "planted", Steps: []models.TutorialStep{{
			Number: 1, Title: "Capture", Rules: "abapa", Position: "3-2-5-1-2-4-4-4-2-1-3-1-9-7-S", Task: c.task, Accept: c.accept,
		}}}
		err := content.CheckLesson(t.Context(), &l)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "en/planted step 1") {
			t.Errorf("%q accepting %q: %v, want %q", c.task, c.accept, err, c.want)
		}
	}
	// The opening book plays F alone at the start (F +36, the next B -175).
	book := models.Tutorial{Locale: "en", Slug: "planted", Steps: []models.TutorialStep{{
		Number: 1, Title: "Book", Rules: "abapa", Position: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", Task: "book", Accept: "E",
	}}}
	if err := content.CheckLesson(t.Context(), &book); err == nil || !strings.Contains(err.Error(), "the engine finds [F]") {
		t.Errorf("book accepting E: %v", err)
	}
	l := models.Tutorial{Locale: "en", Slug: "right", Steps: []models.TutorialStep{{
		Number: 1, Title: "Capture", Rules: "abapa", Position: "3-2-5-1-2-4-4-4-2-1-3-1-9-7-S", Task: "capture 5",
	}}}
	if err := content.CheckLesson(t.Context(), &l); err != nil || l.Steps[0].Accept != "F" {
		t.Errorf("capture 5: accept %q (%v), want F", l.Steps[0].Accept, err)
	}
}

// TestGoalMessagesInCatalogs: every goal_ and tut_task_ message id the
// tutor package names is in the course's catalogs (TestCatalogs in
// handlers checks cs and it against en).
func TestGoalMessagesInCatalogs(t *testing.T) {
	en, err := fs.ReadFile(locales.Catalogs, "course.en.toml")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../tutor/*.go")
	ids := regexp.MustCompile(`"(goal_[a-z_]+)"`)
	n := 0
	for _, f := range files {
		src, _ := os.ReadFile(f)
		for _, m := range ids.FindAllStringSubmatch(string(src), -1) {
			n++
			if !regexp.MustCompile(`(?m)^\[?` + m[1] + `\b`).Match(en) {
				t.Errorf("%s: %s is not in course.en.toml", f, m[1])
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d message ids found in ../tutor", n)
	}
}

// TestCourse: the course's lessons in every language in course order,
// with their steps and tasks counted (the rules stage's lessons, Nam-nam's,
// strategy's mobility and seeds-at-home, and the openings' first-moves
// and opening-ideas, counted by hand in the sources), each of 6 to 15
// steps, at least half of them tasks.
func TestCourse(t *testing.T) {
	db := modelstest.Open(t, "sqlite")
	if err := content.Load(t.Context(), db, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	s := content.New(db)
	want := map[string][2]int{
		"oware-step-by-step": {12, 6}, "sowing": {6, 5}, "captures": {7, 5}, "feeding": {6, 4},
		"game-end": {6, 3}, "grand-slam": {8, 6}, "rules-practice": {6, 6}, "namnam": {10, 8}, "namnam-pits": {6, 4},
		"mobility": {8, 6}, "seeds-at-home": {7, 5}, "quiet-grand-slam": {7, 6},
		"first-moves": {9, 6}, "opening-ideas": {12, 9},
		"namnam-practice": {6, 5},
	}
	var en []content.Lesson
	for _, lang := range locales.Langs {
		list, err := s.Course(t.Context(), lang)
		if err != nil {
			t.Fatal(err)
		}
		if lang == "en" {
			en = list
		}
		var order []string
		for _, l := range list {
			if l.Steps < 6 || l.Steps > 15 || 2*l.Tasks < l.Steps {
				t.Errorf("%s/%s: %d steps, %d tasks", lang, l.Slug, l.Steps, l.Tasks)
			}
			if w, ok := want[l.Slug]; ok && (l.Steps != w[0] || l.Tasks != w[1]) {
				t.Errorf("%s/%s: %d steps and %d tasks, want %v", lang, l.Slug, l.Steps, l.Tasks, w)
			}
			if l.Stage == "rules" || l.Stage == "openings" || l.Stage == "namnam" {
				order = append(order, l.Slug)
			}
		}
		if got := strings.Join(order, " "); got != "oware-step-by-step sowing captures feeding game-end grand-slam rules-practice first-moves opening-ideas namnam namnam-pits namnam-practice" {
			t.Errorf("%s: order %s", lang, got)
		}
	}
	for i, l := range en {
		if i > 0 && slices.Index(models.Stages, l.Stage) < slices.Index(models.Stages, en[i-1].Stage) {
			t.Errorf("%s (%s) after %s (%s)", l.Slug, l.Stage, en[i-1].Slug, en[i-1].Stage)
		}
	}
}
