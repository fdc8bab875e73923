package content

import (
	"context"

	"oware/models"
)

// Page is a page of the pages table in one locale (models.Page).
type Page = models.Page

// Tutorial and TutorialStep are a tutorial in one locale and one of its
// steps (models.Tutorial, models.TutorialStep).
type (
	Tutorial     = models.Tutorial
	TutorialStep = models.TutorialStep
)

// ErrNotFound: no page or tutorial has the slug in the locale.
var ErrNotFound = models.ErrNotFound

// Service reads the pages and tutorials Load keeps in the database; the
// handlers call it, never the storage. It is safe for concurrent use.
type Service struct {
	db *models.DB
}

// New returns the content service of db.
func New(db *models.DB) *Service { return &Service{db: db} }

// Page returns the page slug in locale, or ErrNotFound.
func (s *Service) Page(ctx context.Context, slug, locale string) (*Page, error) {
	return s.db.PageBySlug(ctx, slug, locale)
}

// PagesState returns a key that changes whenever one of the pages slugs in
// locale changes (the page cache's version); ErrNotFound when none exists.
func (s *Service) PagesState(ctx context.Context, locale string, slugs []string) (string, error) {
	return s.db.PagesState(ctx, locale, slugs)
}

// Summaries returns the titles and summaries of the pages slugs in locale,
// by slug (a missing page is missing from the map).
func (s *Service) Summaries(ctx context.Context, locale string, slugs []string) (map[string]Page, error) {
	return s.db.PageSummaries(ctx, locale, slugs)
}

// AllPages returns every page of every locale (the sitemap).
func (s *Service) AllPages(ctx context.Context) ([]Page, error) { return s.db.AllPages(ctx) }

// Tutorials returns the tutorials of locale with their steps, in order.
func (s *Service) Tutorials(ctx context.Context, locale string) ([]Tutorial, error) {
	return s.db.Tutorials(ctx, locale)
}

// Tutorial returns the tutorial slug in locale with its steps, or
// ErrNotFound.
func (s *Service) Tutorial(ctx context.Context, locale, slug string) (*Tutorial, error) {
	return s.db.TutorialBySlug(ctx, locale, slug)
}
