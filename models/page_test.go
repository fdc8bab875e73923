package models_test

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"oware/models"
)

// pageFS returns page sources: rules in en and cs, with body text.
func pageFS(body string) fstest.MapFS {
	file := func(title, body string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\ntitle: \"" + title + "\"\nsummary: A summary.\n---\n\n" + body)}
	}
	return fstest.MapFS{
		"en/rules.md": file("Rules", body),
		"cs/rules.md": file("Pravidla", "## Deska\n\nText.\n"),
	}
}

func loadPages(t *testing.T, db *models.DB, fsys fstest.MapFS) models.LoadResult {
	t.Helper()
	srcs, err := models.ReadPageSources(fsys)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.LoadPages(t.Context(), srcs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestLoadPages: new sources add rows, a changed source updates its row, an
// unchanged one leaves it, and a row edited in the database survives both a
// reload with the same sources and a changed source.
func TestLoadPages(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		if res := loadPages(t, db, pageFS("## Board\n\nOld text.\n")); res.Added != 2 {
			t.Fatalf("first load: %+v", res)
		}
		p, err := db.PageBySlug(ctx, "rules", "en")
		if err != nil || p.Title != "Rules" || p.Summary != "A summary." || !strings.Contains(p.Body, "Old text.") || p.Edited() {
			t.Fatalf("en/rules: %+v, %v", p, err)
		}
		if res := loadPages(t, db, pageFS("## Board\n\nOld text.\n")); res.Unchanged != 2 {
			t.Errorf("same sources: %+v", res)
		}
		// A source change updates the row.
		if res := loadPages(t, db, pageFS("## Board\n\nNew text.\n")); res.Updated != 1 || res.Unchanged != 1 {
			t.Errorf("changed source: %+v", res)
		}
		p, _ = db.PageBySlug(ctx, "rules", "en")
		if !strings.Contains(p.Body, "New text.") {
			t.Errorf("body not updated: %q", p.Body)
		}
		// An editor corrects the row in the database.
		if err := db.Gorm.Model(&models.Page{}).Where("id = ?", p.ID).Update("body", "## Board\n\nCorrected.\n").Error; err != nil {
			t.Fatal(err)
		}
		// A restart with the same sources keeps it, and so does a changed source.
		for _, body := range []string{"## Board\n\nNew text.\n", "## Board\n\nNewer text.\n"} {
			res := loadPages(t, db, pageFS(body))
			p, _ = db.PageBySlug(ctx, "rules", "en")
			if p.Body != "## Board\n\nCorrected.\n" || !p.Edited() {
				t.Errorf("database edit lost after loading %q: %+v (%+v)", body, p, res)
			}
		}
		// Deleting the row takes the source again.
		db.Gorm.Delete(&models.Page{}, p.ID)
		loadPages(t, db, pageFS("## Board\n\nNewer text.\n"))
		if p, _ = db.PageBySlug(ctx, "rules", "en"); !strings.Contains(p.Body, "Newer text.") || p.Edited() {
			t.Errorf("after delete: %+v", p)
		}
		if _, err := db.PageBySlug(ctx, "nosuch", "en"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("missing page: %v", err)
		}
		all, err := db.AllPages(ctx)
		if err != nil || len(all) != 2 {
			t.Errorf("AllPages: %d, %v", len(all), err)
		}
		if l, _ := db.PageLocales(ctx, "rules"); strings.Join(l, " ") != "cs en" {
			t.Errorf("PageLocales: %v", l)
		}
	})
}

// TestParsePageSource refuses sources without a title, summary or body.
func TestParsePageSource(t *testing.T) {
	for _, src := range []string{
		"no front matter",
		"---\ntitle: x\n",
		"---\nsummary: s\n---\nbody",
		"---\ntitle: x\n---\nbody",
		"---\ntitle: x\nsummary: s\n---\n\n",
		"---\ntitle: x\nsummary: s\ncolour: red\n---\nbody",
	} {
		if _, err := models.ParsePageSource("en", "x", []byte(src)); err == nil {
			t.Errorf("%q: no error", src)
		}
	}
	p, err := models.ParsePageSource("it", "wari", []byte("---\ntitle: \"Wari, l'Oware\"\nsummary: Riassunto: breve.\nvariant: wari\n---\n\n## Uno\n"))
	if err != nil || p.Title != "Wari, l'Oware" || p.Summary != "Riassunto: breve." || p.Variant != "wari" || p.Body != "## Uno\n" {
		t.Errorf("%+v, %v", p, err)
	}
}
