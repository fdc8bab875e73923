package web_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"oware/engine"
	"oware/game"
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
	dsn := modelstest.EmptyPostgres(t)
	db, err := models.OpenWith(t.Context(), dsn, nil, models.Options{Tracer: counted})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	other = func(t *testing.T) *models.DB {
		t.Helper()
		db, err := models.OpenWith(t.Context(), dsn, nil, models.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	return handlerstest.NewSiteWrapped(t, db, nil, markCounted), counted, db
}

// other opens a second handle on the database of the last countedSite,
// as another instance has.
var other func(t *testing.T) *models.DB

// TestBrowserMoveRoundTrips: on PostgreSQL a move whose game this
// instance has seen costs one round trip to the database, a browser's as
// the API's (issue 37): the instance keeps the game's state it last wrote
// or read, the engine checks the move on it, and one statement writes the
// move with the expected version and what decided the seat
// (game.Service.MoveFor). Before it cost two (DESIGN.md, "One request,
// end to end": a read of the game with the visitor's seat and the
// session's account, 41 columns, then the write), before issue 20 three.
// Each kind of browser plays one move with htmx and one without
// JavaScript, after the game's page; then a move whose game another
// instance wrote last is read again: two, the read of 41 columns (the
// game's state and the players' names and bot marks, 38; their session epochs; the
// visitor's seat: the settings stay kept, issue 21).
func TestBrowserMoveRoundTrips(t *testing.T) {
	s, counted, db := countedSite(t)
	count := map[string]string{"X-Count-Statements": "1"}
	htmx := map[string]string{"X-Count-Statements": "1", "HX-Request": "true"}
	oneWrite := func(what string, got []string) {
		t.Helper()
		if len(got) != 1 || !strings.HasPrefix(got[0], "WITH g AS ( UPDATE games SET position") {
			t.Errorf("%s: %d statements, want the move's one write:\n%s", what, len(got), strings.Join(got, "\n"))
		}
	}

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
			oneWrite("move without JavaScript", counted.take())
			_, _, page = s.Get(north.C, north.Game)
			code, _, body = s.Post(north.C, north.Game+"/moves", url.Values{"_csrf": {s.Csrf(page)}, "pit": {"c"}}, htmx)
			if code != http.StatusOK {
				t.Fatalf("move with htmx: %d %s", code, body)
			}
			oneWrite("move with htmx", counted.take())

			// Another instance (a second handle on the database) writes
			// the game (North offers to end it): this one's kept state is
			// a version behind, its write is refused, the game read.
			second := game.New(other(t), slog.New(slog.DiscardHandler))
			id := strings.TrimPrefix(south.Game, "/en/games/")
			g, err := second.Load(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if err := second.OfferEnd(t.Context(), g, engine.North); err != nil {
				t.Fatal(err)
			}
			code, _, body = s.Post(south.C, south.Game+"/moves", url.Values{"_csrf": {token}, "pit": {"D"}}, count)
			if code != http.StatusSeeOther {
				t.Fatalf("move after another instance's write: %d %s", code, body)
			}
			got := counted.take()
			if len(got) != 3 || selected(got[1]) != 41 {
				t.Errorf("move after another instance's write: %d statements, want the refused write, the read of 41 columns and the write:\n%s",
					len(got), strings.Join(got, "\n"))
			}
			if n, _ := handlerstest.Stored(t, db, id); n != 3 {
				t.Errorf("%d moves stored, want 3", n)
			}
		})
	}

	t.Run("api", func(t *testing.T) {
		id, south, _ := s.NewAPIGame("abapa")
		code, _, body := s.Do(nil, "POST", "/api/v1/games/"+id+"/moves", strings.NewReader(`{"pit":"C"}`),
			map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + south, "X-Count-Statements": "1"})
		if code != http.StatusOK {
			t.Fatalf("API move: %d %s", code, body)
		}
		oneWrite("API move", counted.take())
	})

	// The Bot API (issue 35): a bot's move on a game this instance kept
	// is the token's lookup (the token, its account) and the move's one
	// write, as people's: the game is not read again.
	t.Run("bot", func(t *testing.T) {
		tokens := map[string]string{}
		for _, name := range []string{"trips_bot_s", "trips_bot_n"} {
			tokens[name] = s.AccountToken(s.Account(name), "bot:play")
			if code, body := s.Api("POST", "/api/v1/bot/account/upgrade", tokens[name], nil); code != http.StatusOK {
				t.Fatalf("upgrade: %d %v", code, body)
			}
		}
		code, ch := s.Api("POST", "/api/v1/challenge/trips_bot_n", tokens["trips_bot_s"], map[string]any{"rules": "abapa", "seat": "south"})
		if code != http.StatusCreated {
			t.Fatalf("challenge: %d %v", code, ch)
		}
		if code, body := s.Api("POST", "/api/v1/bot/challenge/"+ch["id"].(string)+"/accept", tokens["trips_bot_n"], nil); code != http.StatusOK {
			t.Fatalf("accept: %d %v", code, body)
		}
		taken, err := db.FindChallenge(t.Context(), ch["id"].(string))
		if err != nil {
			t.Fatal(err)
		}
		id := taken.GameID
		move := func(bot, label string) []string {
			t.Helper()
			code, _, body := s.Do(nil, "POST", "/api/v1/bot/game/"+id+"/move/"+label, nil,
				map[string]string{"Authorization": "Bearer " + tokens[bot], "X-Count-Statements": "1"})
			if code != http.StatusOK {
				t.Fatalf("bot move %s: %d %s", label, code, body)
			}
			return counted.take()
		}
		move("trips_bot_s", "C") // the game read once: this instance keeps it
		got := move("trips_bot_n", "c")
		if len(got) != 3 || !strings.HasPrefix(got[2], "WITH g AS ( UPDATE games SET position") ||
			strings.Contains(got[0]+got[1], "games") {
			t.Errorf("bot move: %d statements, want the token's two and the move's one write:\n%s", len(got), strings.Join(got, "\n"))
		}
		if n, _ := handlerstest.Stored(t, db, id); n != 2 {
			t.Errorf("%d moves stored, want 2", n)
		}
	})
}

// selected returns how many columns the SELECT q reads (its list's
// commas outside parentheses, plus one; the list ends at the first FROM
// outside parentheses).
func selected(q string) int {
	list := strings.TrimPrefix(q, "SELECT ")
	n, depth := 1, 0
	for i, r := range list {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			n++
		case depth == 0 && strings.HasPrefix(list[i:], " FROM "):
			return n
		}
	}
	return n
}
