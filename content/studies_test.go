package content_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"oware/content"
	"oware/locales"
	"oware/models"
	"oware/models/modelstest"
)

// catalog is a localizer of the site's message catalogs in one locale.
type catalog struct{ loc *i18n.Localizer }

func newCatalog(t *testing.T, lang string) catalog {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	files, _ := fs.Glob(locales.Catalogs, "*"+lang+".toml")
	for _, f := range files {
		if _, err := b.LoadMessageFileFS(locales.Catalogs, f); err != nil {
			t.Fatal(err)
		}
	}
	return catalog{i18n.NewLocalizer(b, lang)}
}

func (c catalog) T(id string, data ...any) string { return c.N(id, -1, data...) }

func (c catalog) N(id string, count int, data ...any) string {
	m := map[string]any{}
	for i := 0; i+1 < len(data); i += 2 {
		m[fmt.Sprint(data[i])] = data[i+1]
	}
	cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: m}
	if count >= 0 {
		m["Count"] = count
		cfg.PluralCount = count
	}
	s, err := c.loc.Localize(cfg)
	if err != nil {
		return "!MISSING:" + id
	}
	return s
}

// The positions of the tests, South to move (pits A-F are South's, a-f
// North's; RULES.md 1).
const (
	// E sows into F; F's one seed makes a 2 and captures it (RULES.md 2.3).
	captureTwo = "0-0-0-0-1-1-1-2-0-0-0-5-20-18-S"
	// North's row is empty; E (2 seeds) reaches a, and so does F; D does
	// not (nor is it legal, RULES.md 2.5).
	feedBoth = "0-0-0-1-2-1-0-0-0-0-0-0-24-20-S"
	// North's row is empty and only F reaches it: E is not legal (RULES.md 2.5).
	feedOnlyF = "0-0-0-0-1-1-0-0-0-0-0-0-24-22-S"
	// North's f (3 seeds) ends in C: after F (to a) it makes C a 2 and
	// takes it; after C moves on, C is empty and nothing is taken.
	saveC = "0-0-1-0-0-1-0-0-0-0-0-3-22-21-S"
	// E (2 seeds) and F (1) both end in a and make it a 2.
	bothCapture = "0-0-0-0-2-1-1-1-0-0-0-0-22-21-S"
	// F is South's only move.
	onlyF = "0-0-0-0-0-3-1-1-0-0-0-0-22-21-S"
	// F wins at once (22 + a's 3 = 25, RULES.md 2.6), a final difference
	// of 19 that no other move comes within 4 seeds of (tutor's
	// TestAcceptedBest).
	bestF = "2-1-0-1-0-1-2-4-1-5-1-2-22-6-S"
)

func task(goal string, n int, pit string, accept ...string) *content.Task {
	return &content.Task{Goal: goal, N: n, Pit: pit, Accept: accept}
}

func newStudies(t *testing.T, d string) (*content.Studies, *models.DB, uint, uint) {
	db := modelstest.Open(t, d)
	var ids []uint
	for _, name := range []string{"Ama", "Kofi"} {
		u := &models.User{Username: name, PasswordHash: "h"}
		if err := db.CreateUser(t.Context(), u); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	return content.NewStudies(db), db, ids[0], ids[1]
}

func study(vis string, chapters ...content.Chapter) content.StudyInput {
	return content.StudyInput{Title: "Captures", Lang: "en", Visibility: vis, Chapters: chapters}
}

func chapter(position string, t *content.Task) content.Chapter {
	return content.Chapter{Title: "A chapter", Position: position, Text: "Look at **F**.", Task: t}
}

// TestStudyTasks: the accepted moves of a task are the engine's: a
// planted wrong answer (E for a capture of 2: E captures nothing), a
// missed one (E alone when F feeds too), an illegal one and an unmet goal
// are refused with the reason, in the author's language; right ones are
// stored, the position written as the engine writes it.
func TestStudyTasks(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			s, _, ama, _ := newStudies(t, d)
			ctx := t.Context()
			en, cs := newCatalog(t, "en"), newCatalog(t, "cs")
			ok := study(content.Public,
				chapter(" "+captureTwo+" ", task("capture", 2, "", "F")),
				chapter(feedBoth, task("feed", 0, "", "F", "E")),
				chapter(saveC, task("save", 0, " C", "C")),
				chapter(bestF, task("best", 0, "", "F")),
				content.Chapter{Title: "Nam-nam", Rules: "namnam", Position: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0"},
			)
			st, err := s.Create(ctx, ama, ok)
			if err != nil {
				t.Fatalf("a right study: %v", err)
			}
			if st.Owner != "Ama" || len(st.Chapters) != 5 || st.Chapters[0].Position != captureTwo || st.Chapters[0].Rules != "abapa" ||
				strings.Join(st.Chapters[1].Task.Accept, " ") != "E F" || st.Chapters[2].Task.Pit != "C" {
				t.Errorf("stored: %+v", st)
			}
			for _, c := range []struct {
				what string
				ch   content.Chapter
				en   string
			}{
				{"a planted wrong answer", chapter(captureTwo, task("capture", 2, "", "E")),
					"Chapter 1: The engine disagrees: E is not a move that captures at least 2 seeds. The moves that do: F."},
				{"a missed answer", chapter(feedBoth, task("feed", 0, "", "E")),
					"Chapter 1: The engine disagrees: F also gives the opponent's empty row seeds, so a learner who plays it would be told it is wrong. The moves that do: E, F."},
				{"a move that does not save C", chapter(saveC, task("save", 0, "C", "F")),
					"Chapter 1: The engine disagrees: F is not a move that keeps pit C from being captured by the reply. The moves that do: C."},
				{"an illegal answer", chapter(feedOnlyF, task("feed", 0, "", "E")),
					"Chapter 1: E is not a legal move in this position."},
				{"no capture of 3", chapter(captureTwo, task("capture", 3, "", "F")),
					"Chapter 1: No move here captures 3 seeds or more."},
				{"a best move in Nam-nam", content.Chapter{Title: "Nam-nam", Rules: "namnam", Position: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0", Task: task("best", 0, "", "A")},
					"Chapter 1: The best move is searched in the Oware rule sets only, not in Nam-nam."},
				{"a task every move meets", chapter(bothCapture, task("capture", 2, "", "E", "F")),
					"Chapter 1: Every move meets this goal, so the task has no wrong answer."},
				{"an empty pit as the best move", chapter(bestF, task("best", 0, "", "E")),
					"Chapter 1: E is not a legal move in this position."},
				{"a planted wrong best move", chapter(bestF, task("best", 0, "", "A")),
					"Chapter 1: The engine disagrees: A is not a move that is the best by the engine's search. The moves that do: F."},
				{"a bad position", chapter("4-4-4-4-4-4-4-4-4-4-4-4-0-1-S", nil),
					"Chapter 1: This is not a position of these rules. A position string gives the seeds of pits A to F and a to f, the captures of South and North and who moves, for example 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S, and holds 48 seeds in all."},
				{"no such goal", chapter(captureTwo, task("win", 0, "", "F")),
					"Chapter 1: Unknown goal “win”: a task asks for the best move, a capture, a move that feeds or a move that saves a pit."},
				{"a pit that is not a label", chapter(captureTwo, task("capture", 2, "", "G")),
					"Chapter 1: “G” is not a pit: list the right moves as letters from A to F or a to f."},
			} {
				_, err := s.Create(ctx, ama, study(content.Public, c.ch))
				var se *content.StudyError
				if !errors.As(err, &se) {
					t.Errorf("%s: %v, want a reason", c.what, err)
					continue
				}
				if got := se.Reason(en); got != c.en {
					t.Errorf("%s:\n got %s\nwant %s", c.what, got, c.en)
				}
				if got := se.Reason(cs); strings.Contains(got, "MISSING") || got == se.Reason(en) {
					t.Errorf("%s in Czech: %s", c.what, got)
				}
			}
			_, err = s.Create(ctx, ama, study(content.Public, chapter(captureTwo, task("capture", 2, "", "E"))))
			var se *content.StudyError
			errors.As(err, &se)
			if got, want := se.Reason(cs), "Kapitola 1: Počítač nesouhlasí: E není tah, který zajme aspoň 2 semínka. Takové tahy jsou: F."; got != want {
				t.Errorf("in Czech:\n got %s\nwant %s", got, want)
			}
			right, err := content.Answer(en, st.Chapters[0], "F")
			if err != nil || !right.Correct || right.Move.Pit != 5 {
				t.Errorf("F for a capture of 2: %+v %v", right, err)
			}
			wrong, err := content.Answer(en, st.Chapters[0], "E")
			if err != nil || wrong.Correct || len(wrong.Lines) == 0 || strings.Contains(strings.Join(wrong.Lines, " "), "MISSING") {
				t.Errorf("E for a capture of 2: %+v %v", wrong, err)
			}
			if saved, _ := content.Answer(en, st.Chapters[2], "C"); !saved.Correct {
				t.Errorf("C saves C: %+v", saved)
			}
			if lost, _ := content.Answer(en, st.Chapters[2], "F"); lost.Correct {
				t.Errorf("F saves C: %+v", lost)
			}
			if mine, _ := s.Mine(ctx, ama); len(mine) != 1 {
				t.Errorf("a refused study was stored: %d studies", len(mine))
			}
		})
	}
}

// TestStudyBounds: a study of more than MaxStudyChapters chapters, a
// title over MaxStudyTitle, a text over MaxChapterText characters, no
// chapter, and a study past MaxStudies of an account are refused.
func TestStudyBounds(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			s, _, ama, kofi := newStudies(t, d)
			ctx := t.Context()
			refused := func(what, id string, in content.StudyInput) {
				t.Helper()
				_, err := s.Create(ctx, ama, in)
				var se *content.StudyError
				if !errors.As(err, &se) || se.ID != id {
					t.Errorf("%s: %v, want %s", what, err, id)
				}
			}
			many := make([]content.Chapter, content.MaxStudyChapters+1)
			for i := range many {
				many[i] = chapter(onlyF, nil)
			}
			refused("too many chapters", "st_err_chapters", study(content.Public, many...))
			if _, err := s.Create(ctx, kofi, study(content.Public, many[1:]...)); err != nil {
				t.Errorf("%d chapters: %v", content.MaxStudyChapters, err)
			}
			long := study(content.Public, chapter(onlyF, nil))
			long.Title = strings.Repeat("š", content.MaxStudyTitle+1)
			refused("a long title", "st_err_title_long", long)
			long.Title = strings.Repeat("š", content.MaxStudyTitle)
			text := chapter(onlyF, nil)
			text.Text = strings.Repeat("é", content.MaxChapterText+1)
			refused("a long text", "st_err_text_long", study(content.Public, text))
			refused("no chapter", "st_err_no_chapters", study(content.Public))
			refused("no such visibility", "st_err_visibility", study("friends", chapter(onlyF, nil)))
			refused("no such language", "st_err_lang", content.StudyInput{Title: "x", Lang: "de", Visibility: content.Public, Chapters: []content.Chapter{chapter(onlyF, nil)}})
			for i := range content.MaxStudies {
				if _, err := s.Create(ctx, ama, long); err != nil {
					t.Fatalf("study %d: %v", i+1, err)
				}
			}
			if _, err := s.Create(ctx, ama, long); !errors.Is(err, content.ErrStudyLimit) {
				t.Errorf("study %d: %v, want the limit", content.MaxStudies+1, err)
			}
			if _, err := s.Fork(ctx, ama, func() string { m, _ := s.Mine(ctx, kofi); return m[0].ID }()); !errors.Is(err, content.ErrStudyLimit) {
				t.Errorf("a fork past the limit: %v", err)
			}
		})
	}
}

// TestStudyVisibility: another account reads a public or unlisted study,
// not a private or hidden one (ErrNotFound), which their owner still
// reads; the search lists public ones of the language with every word
// asked; a fork is a private copy of its own owner naming its origin; an
// edit at an old version is a conflict, and another's is not found.
func TestStudyVisibility(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			s, _, ama, kofi := newStudies(t, d)
			ctx := t.Context()
			make := func(title, vis string) *content.Study {
				in := study(vis, chapter(captureTwo, task("capture", 1, "", "F")))
				in.Title = title
				st, err := s.Create(ctx, ama, in)
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
			pub, unl, priv, hid := make("Chains of captures", content.Public), make("Captures by link", content.Unlisted),
				make("My captures", content.Private), make("Hidden captures", content.Public)
			if err := s.Hide(ctx, hid.ID, true); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				st     *content.Study
				viewer uint
				seen   bool
			}{{pub, kofi, true}, {unl, kofi, true}, {priv, kofi, false}, {hid, kofi, false}, {priv, ama, true}, {hid, ama, true}, {priv, 0, false}, {unl, 0, true}} {
				got, err := s.Get(ctx, c.st.ID, c.viewer)
				if c.seen && (err != nil || got.Title != c.st.Title) || !c.seen && !errors.Is(err, content.ErrNotFound) {
					t.Errorf("%s seen by %d: %v %v, want seen %v", c.st.Title, c.viewer, got, err, c.seen)
				}
			}
			titles := func(lang, q string) string {
				list, err := s.Search(ctx, lang, q)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, st := range list {
					out = append(out, st.Title)
				}
				return strings.Join(out, "; ")
			}
			for q, want := range map[string]string{"": "Chains of captures", "CHAINS captures": "Chains of captures", "look": "Chains of captures", "link": "", "hidden": "", "my": ""} {
				if got := titles("en", q); got != want {
					t.Errorf("search %q: %q, want %q", q, got, want)
				}
			}
			if got := titles("it", ""); got != "" {
				t.Errorf("Italian studies: %q", got)
			}

			fork, err := s.Fork(ctx, kofi, unl.ID)
			if err != nil || fork.Owner != "Kofi" || fork.Visibility != content.Private || fork.ForkedFrom != unl.ID || fork.ID == unl.ID || fork.Title != unl.Title || len(fork.Chapters) != 1 {
				t.Fatalf("fork: %+v %v", fork, err)
			}
			if _, err := s.Fork(ctx, kofi, priv.ID); !errors.Is(err, content.ErrNotFound) {
				t.Errorf("fork of another's private study: %v", err)
			}
			if _, err := s.Edit(ctx, kofi, pub.ID, pub.Version, func(in *content.StudyInput) error { in.Title = "Mine"; return nil }); !errors.Is(err, content.ErrNotFound) {
				t.Errorf("edit of another's study: %v", err)
			}
			moved, err := s.Edit(ctx, ama, pub.ID, pub.Version, func(in *content.StudyInput) error {
				in.Chapters = append(in.Chapters, chapter(onlyF, nil))
				in.Chapters[0], in.Chapters[1] = in.Chapters[1], in.Chapters[0]
				return nil
			})
			if err != nil || len(moved.Chapters) != 2 || moved.Chapters[0].Position != onlyF || moved.Version != pub.Version+1 {
				t.Fatalf("edit: %+v %v", moved, err)
			}
			if _, err := s.Edit(ctx, ama, pub.ID, pub.Version, func(*content.StudyInput) error { return nil }); !errors.Is(err, models.ErrConflict) {
				t.Errorf("edit at an old version: %v", err)
			}
			if err := s.Delete(ctx, kofi, pub.ID); !errors.Is(err, content.ErrNotFound) {
				t.Errorf("delete of another's: %v", err)
			}
			if err := s.Delete(ctx, ama, pub.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(ctx, pub.ID, ama); !errors.Is(err, content.ErrNotFound) {
				t.Errorf("deleted study: %v", err)
			}
		})
	}
}
