package content

import (
	"context"
	"strings"
	"sync"

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
	// Studies are the studies accounts write (studies.go).
	Studies *Studies

	once   sync.Once
	events models.Broker // the pages' events (Follow); nil before
	mu     sync.Mutex
	gen    int               // counts the pages' events
	states map[string]string // PagesState's answers by locale and slugs, while valid
}

// PagesEvents is the broker's name of the pages' events (a name no game
// id can be): on PostgreSQL a trigger on the pages table notifies it at
// every change (migration 00065).
const PagesEvents = "pages"

// New returns the content service of db.
func New(db *models.DB) *Service { return &Service{db: db, Studies: NewStudies(db)} }

// Page returns the page slug in locale, or ErrNotFound.
func (s *Service) Page(ctx context.Context, slug, locale string) (*Page, error) {
	return s.db.PageBySlug(ctx, slug, locale)
}

// PagesState returns a key that changes whenever one of the pages slugs in
// locale changes (the page cache's version); ErrNotFound when none exists.
// On PostgreSQL, while this instance listens to the pages' events
// (Follow), it answers from memory what it read once, until the next
// event; with the listener down (or on SQLite, where nothing notifies an
// edit made by another process) it asks the database every time.
func (s *Service) PagesState(ctx context.Context, locale string, slugs []string) (string, error) {
	key := locale + " " + strings.Join(slugs, " ")
	s.mu.Lock()
	gen, state, kept := s.gen, "", false
	live := s.listening()
	if live {
		state, kept = s.states[key]
	}
	s.mu.Unlock()
	if kept {
		return state, nil
	}
	state, err := s.db.PagesState(ctx, locale, slugs)
	if err == nil && live {
		s.mu.Lock()
		if s.gen == gen { // no event since the read began
			s.states[key] = state
		}
		s.mu.Unlock()
	}
	return state, err
}

// listening reports whether this instance hears every change of the pages
// (PostgreSQL, its listener connected); s.mu is held.
func (s *Service) listening() bool {
	if s.events == nil || s.db.Dialect != models.Postgres {
		return false
	}
	_, ok := s.events.Known(PagesEvents)
	return ok
}

// Follow makes PagesState answer from memory while events, the instance's
// broker, hears the pages' events (PagesEvents): each event, and each
// reconnection of its listener (which may have missed some), forgets what
// it kept. It follows until the broker stops; a second call does nothing.
func (s *Service) Follow(events models.Broker) {
	s.once.Do(func() {
		ch, _ := events.Subscribe(PagesEvents)
		events.Note(PagesEvents, 1)
		s.mu.Lock()
		s.events, s.states = events, map[string]string{}
		s.mu.Unlock()
		go func() {
			for v := range ch {
				s.mu.Lock()
				s.gen++
				clear(s.states)
				s.mu.Unlock()
				if v == 0 { // the listener reconnected: known again from now on
					events.Note(PagesEvents, 1)
				}
			}
		}()
	})
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
