package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// countKey marks the context of a request whose statements are counted:
// the requests that carry the header X-Count-Statements.
type countKey struct{}

// statements records the statements sent to PostgreSQL by the requests
// marked with countKey: pgx's tracer sees every query and exec of GORM
// and of the hot path, a transaction's begin and commit included, and
// each batch once. Each is a round trip to the database.
type statements struct {
	mu   sync.Mutex
	sqls []string
}

func (s *statements) note(ctx context.Context, sql string) {
	if ctx.Value(countKey{}) == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sqls = append(s.sqls, strings.Join(strings.Fields(sql), " "))
}

func (s *statements) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	s.note(ctx, d.SQL)
	return ctx
}

func (s *statements) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (s *statements) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	s.note(ctx, "(batch)")
	return ctx
}

func (s *statements) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (s *statements) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// take returns the statements recorded so far and forgets them.
func (s *statements) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.sqls
	s.sqls = nil
	return out
}

// markCounted puts countKey on the context of the requests that ask for it.
func markCounted(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Count-Statements") != "" {
			r = r.WithContext(context.WithValue(r.Context(), countKey{}, true))
		}
		next.ServeHTTP(w, r)
	})
}

// countedSite returns a site on a PostgreSQL database of its own whose
// statements are counted for the requests with X-Count-Statements, the
// counter, and the database.
func countedSite(t *testing.T) (*handlerstest.Site, *statements, *models.DB) {
	t.Helper()
	counted := &statements{}
	db, err := models.OpenWith(t.Context(), modelstest.EmptyPostgres(t), nil, models.Options{Tracer: counted})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return handlerstest.NewSiteWrapped(t, db, nil, markCounted), counted, db
}

// TestBrowserMoveRoundTrips: on PostgreSQL a browser's move costs two
// round trips to the database, as the API's does (DESIGN.md, "One request,
// end to end"): one query reads the game with the visitor's seat and the
// session's account, one statement writes the move. Before issue 20 it
// cost three: the guest's seat, or the logged-in account, was read apart.
// The read leaves out the game's settings, which the instance kept when
// the page was shown (issue 21): 39 columns (the game's state and the
// players' names, 36; their session epochs; the visitor's seat), 50
// before.
// Each kind of browser plays one move with htmx and one without
// JavaScript.
func TestBrowserMoveRoundTrips(t *testing.T) {
	s, counted, _ := countedSite(t)
	count := map[string]string{"X-Count-Statements": "1"}
	htmx := map[string]string{"X-Count-Statements": "1", "HX-Request": "true"}

	for _, tc := range []struct {
		name         string
		south, north *http.Client
	}{
		{"guests", s.Browser(), s.Browser()},
		{"accounts", s.Account("trips_south"), s.Account("trips_north")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			south, north := s.FormGameWith(tc.south, tc.north, "en", "abapa")
			_, _, page := s.Get(south.C, south.Game)
			token := s.Csrf(page)
			code, _, body := s.Post(south.C, south.Game+"/moves", url.Values{"_csrf": {token}, "pit": {"C"}}, count)
			if code != http.StatusSeeOther {
				t.Fatalf("move without JavaScript: %d %s", code, body)
			}
			if got := counted.take(); len(got) != 2 {
				t.Errorf("move without JavaScript: %d statements, want 2:\n%s", len(got), strings.Join(got, "\n"))
			} else if n := selected(got[0]); n != 39 {
				t.Errorf("move without JavaScript: the read selects %d columns, want 39:\n%s", n, got[0])
			}
			_, _, page = s.Get(north.C, north.Game)
			code, _, body = s.Post(north.C, north.Game+"/moves", url.Values{"_csrf": {s.Csrf(page)}, "pit": {"c"}}, htmx)
			if code != http.StatusOK {
				t.Fatalf("move with htmx: %d %s", code, body)
			}
			if got := counted.take(); len(got) != 2 {
				t.Errorf("move with htmx: %d statements, want 2:\n%s", len(got), strings.Join(got, "\n"))
			}
		})
	}
}

// selected returns how many columns the SELECT q reads (its list's
// commas outside parentheses, plus one).
func selected(q string) int {
	list, _, _ := strings.Cut(strings.TrimPrefix(q, "SELECT "), " FROM ")
	n, depth := 1, 0
	for _, r := range list {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return n
}
