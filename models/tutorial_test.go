package models_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"oware/locales"
	"oware/models"
)

// TestLoadTutorials: the embedded sources load; loading again writes
// nothing; a changed source replaces the steps.
func TestLoadTutorials(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		srcs, err := models.ReadTutorialSources(locales.TutorialSources)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := db.LoadTutorials(ctx, srcs); err != nil || n != len(srcs) {
			t.Fatalf("first load: %d of %d (%v)", n, len(srcs), err)
		}
		if n, err := db.LoadTutorials(ctx, srcs); err != nil || n != 0 {
			t.Fatalf("second load wrote %d (%v)", n, err)
		}
		list, err := db.Tutorials(ctx, "it")
		var slugs []string
		for _, l := range list {
			if l.Stage == "rules" || l.Stage == "namnam" { // the stages of the first lessons
				slugs = append(slugs, l.Stage+"/"+l.Slug)
			}
		}
		want := "rules/oware-step-by-step rules/sowing rules/captures rules/feeding rules/game-end rules/grand-slam rules/rules-practice namnam/namnam namnam/namnam-pits namnam/namnam-practice"
		if err != nil || strings.Join(slugs, " ") != want {
			t.Fatalf("it lessons %v (%v), want %s", slugs, err, want)
		}
		for i, s := range list[0].Steps {
			if s.Number != i+1 {
				t.Fatalf("steps out of order: %d at %d", s.Number, i)
			}
		}
		// A changed source: its steps are replaced.
		changed := srcs[0]
		changed.SourceHash = "changed"
		changed.Steps = changed.Steps[:2]
		if n, err := db.LoadTutorials(ctx, []models.Tutorial{changed}); err != nil || n != 1 {
			t.Fatalf("changed load: %d (%v)", n, err)
		}
		got, err := db.TutorialBySlug(ctx, changed.Locale, changed.Slug)
		if err != nil || len(got.Steps) != 2 || got.SourceHash != "changed" {
			t.Fatalf("after the change: %+v (%v)", got, err)
		}
		if _, err := db.TutorialBySlug(ctx, "en", "nope"); err != models.ErrNotFound {
			t.Errorf("unknown tutorial: %v", err)
		}
	})
}

// TestTutorialProgressGrows: progress is stored per player and tutorial,
// and never goes back.
func TestTutorialProgressGrows(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		u := &models.User{Username: "pupil", PasswordHash: "x"}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			step int
			done bool
		}{{3, false}, {2, false}, {8, true}, {1, false}} {
			if err := db.SaveTutorialProgress(ctx, u.ID, "grand-slam", p.step, p.done); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.SaveTutorialProgress(ctx, u.ID, "oware-step-by-step", 4, false); err != nil {
			t.Fatal(err)
		}
		list, err := db.TutorialProgressOf(ctx, u.ID)
		if err != nil || len(list) != 2 {
			t.Fatalf("%+v (%v)", list, err)
		}
		if g := list[0]; g.TutorialSlug != "grand-slam" || g.Step != 8 || !g.Done || g.UserID == nil || *g.UserID != u.ID {
			t.Errorf("grand-slam progress %+v", g)
		}
		if o := list[1]; o.TutorialSlug != "oware-step-by-step" || o.Step != 4 || o.Done {
			t.Errorf("oware-step-by-step progress %+v", o)
		}
	})
}

// TestParseTutorialSourceErrors: a broken source is refused with a message
// that names the file.
func TestParseTutorialSourceErrors(t *testing.T) {
	front := "---\ntitle: T\nsummary: S\nstage: rules\n---\n"
	for name, src := range map[string]string{
		"no stage":      "---\ntitle: T\nsummary: S\n---\n## One\n\n```step\nposition: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n```\n",
		"unknown stage": "---\ntitle: T\nsummary: S\nstage: dance\n---\n## One\n\n```step\nposition: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n```\n",
		"unknown goal":  front + "## One\n\n```step\nposition: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\ntask: dance 3\n```\n",
		"no step block": front + "## One\n\ntext\n",
		"no position":   front + "## One\n\n```step\nhighlight: A\n```\n",
		"unknown task":  front + "## One\n\n```step\nposition: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\ntask: dance\naccept: A\n```\n",
		"no accept":     front + "## One\n\n```step\nposition: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\ntask: play\n```\n",
		"text before":   front + "intro\n\n## One\n\n```step\nposition: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n```\n",
	} {
		_, err := models.ParseTutorialSource("en", "01-x", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "en/01-x.md") {
			t.Errorf("%s: %v", name, err)
		}
	}
	tu, err := models.ParseTutorialSource("en", "03-nam-nam", []byte(front+"## One\n\nBefore.\n\n```step\nposition: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\nrules: wari\n```\n\nAfter.\n"))
	if err != nil || tu.Slug != "nam-nam" || tu.Stage != "rules" || tu.Ordinal != 3 || len(tu.Steps) != 1 || tu.Steps[0].Text != "Before.\n\nAfter." || tu.Steps[0].Rules != "wari" {
		t.Errorf("%+v (%v)", tu, err)
	}
}

// TestCourseOrder: lessons come by stage in the course's order, then by
// their number in the stage; two lessons with one number in a stage are an
// error; an engine goal needs no accept list.
func TestCourseOrder(t *testing.T) {
	src := func(stage string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\ntitle: T\nsummary: S\nstage: " + stage +
			"\n---\n## One\n\n```step\nposition: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\ntask: capture 2\n```\n")}
	}
	fsys := fstest.MapFS{
		"en/01-fours.md": src("namnam"), "en/02-chains.md": src("rules"), "en/01-sowing.md": src("rules"),
		"en/01-forks.md": src("tactics"), "cs/01-fours.md": src("namnam"),
	}
	srcs, err := models.ReadTutorialSources(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range srcs {
		got = append(got, s.Locale+"/"+s.Slug)
	}
	if want := "cs/fours en/sowing en/chains en/forks en/fours"; strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	if srcs[1].Steps[0].Task != "capture 2" || srcs[1].Steps[0].Accept != "" {
		t.Errorf("step %+v", srcs[1].Steps[0])
	}
	fsys["en/02-twice.md"] = src("rules")
	if _, err := models.ReadTutorialSources(fsys); err == nil || !strings.Contains(err.Error(), "both lesson 2 of stage rules") {
		t.Errorf("two lessons 2 of rules: %v", err)
	}
}

// TestTutorialSolved: a lesson is done once each of its task steps was
// answered right, in any order and whatever steps were seen; answering
// one twice counts once.
func TestTutorialSolved(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		u := &models.User{Username: "solver", PasswordHash: "x"}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveTutorialProgress(ctx, u.ID, "captures", 7, false); err != nil {
			t.Fatal(err)
		}
		tasks := []int{2, 3, 6}
		for i, c := range []struct {
			step int
			done bool
		}{{6, false}, {2, false}, {6, false}, {3, true}, {2, true}} {
			done, err := db.SaveTutorialSolved(ctx, u.ID, "captures", c.step, tasks)
			if err != nil || done != c.done {
				t.Fatalf("answer %d (step %d): done %v (%v), want %v", i, c.step, done, err, c.done)
			}
		}
		list, err := db.TutorialProgressOf(ctx, u.ID)
		if err != nil || len(list) != 1 || list[0].Solved != "2 3 6" || !list[0].Done || list[0].Step != 7 {
			t.Fatalf("%+v (%v), want solved 2 3 6, done, step 7", list, err)
		}
	})
	if models.SolvedAll("", nil) || !models.SolvedAll("1 10", []int{10}) || models.SolvedAll("1", []int{10}) {
		t.Error("SolvedAll")
	}
	if got := models.AddSolved("3 10", 4); got != "3 4 10" {
		t.Errorf("AddSolved: %q", got)
	}
}
