// Package content loads the site's long texts into the database at start:
// the rules, variant and history pages (locales/pages) and the tutorials
// (locales/tutorials), each checked by the engine first. It also turns a
// page body into sanitized HTML and board diagrams, and keeps the rendered
// bodies (BodyCache).
package content

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"oware/locales"
	"oware/models"
)

// Load reads the embedded page and tutorial sources, checks every diagram
// and lesson with the engine (CheckLesson: a lesson's tasks get the
// engine's accepted moves) (a bad one is an error: the server
// must not start) and brings the pages and tutorial tables up to date
// without overwriting a page corrected in the database (models.LoadPages),
// and adds the shipped puzzles the database lacks (models.LoadPuzzles).
// The sources are read and checked on the first call of the process only
// (a later call, e.g. a test's next site, reuses the result).
func Load(ctx context.Context, db *models.DB, log *slog.Logger) error {
	if err := loadPages(ctx, db, log); err != nil {
		return err
	}
	if err := loadPuzzles(ctx, db, log); err != nil {
		return err
	}
	return loadTutorials(ctx, db, log)
}

func loadPages(ctx context.Context, db *models.DB, log *slog.Logger) error {
	srcs, err := checkedPages()
	if err != nil {
		return err
	}
	res, err := db.LoadPages(ctx, srcs)
	if err != nil {
		return err
	}
	log.Info("pages loaded", "added", res.Added, "updated", res.Updated, "unchanged", res.Unchanged)
	for _, p := range res.Kept {
		log.Warn("page edited in the database, its changed source was not loaded (delete the row to load it)", "page", p)
	}
	return nil
}

func loadTutorials(ctx context.Context, db *models.DB, log *slog.Logger) error {
	srcs, err := checkedTutorials()
	if err != nil {
		return err
	}
	n, err := db.LoadTutorials(ctx, srcs)
	if err != nil {
		return err
	}
	log.Info("tutorials loaded", "written", n, "sources", len(srcs))
	return nil
}

// checkedPages returns the embedded page sources, each diagram checked.
// The sources are compiled in, so they are read and checked once per
// process (a test process loads them for every test site).
var checkedPages = sync.OnceValues(func() ([]models.PageSource, error) {
	srcs, err := models.ReadPageSources(locales.Pages)
	if err != nil {
		return nil, err
	}
	for _, s := range srcs {
		parts, err := Body(s.Body)
		if err != nil {
			return nil, fmt.Errorf("page %s/%s: %w", s.Locale, s.Slug, err)
		}
		for _, p := range parts {
			if p.Err != nil {
				return nil, fmt.Errorf("page %s/%s: %w", s.Locale, s.Slug, p.Err)
			}
		}
	}
	return srcs, nil
})

// checkedTutorials returns the embedded tutorial sources, each lesson
// checked by the engine (CheckLesson), once per process as checkedPages.
// models.LoadTutorials copies what it changes.
var checkedTutorials = sync.OnceValues(func() ([]models.Tutorial, error) {
	srcs, err := models.ReadTutorialSources(locales.TutorialSources)
	if err != nil {
		return nil, err
	}
	for i := range srcs {
		if err := CheckLesson(context.Background(), &srcs[i]); err != nil {
			return nil, err
		}
	}
	return srcs, nil
})
