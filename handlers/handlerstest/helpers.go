package handlerstest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/accounts"
	"oware/content"
	"oware/engine/search"
	"oware/game"
	"oware/handlers"
	"oware/models"
	"oware/models/modelstest"
	"oware/tournament"
)

// Site is a test server on one database.
type Site struct {
	T    *testing.T
	Srv  *httptest.Server
	Db   *models.DB
	Base string // handlers.Config.BaseURL
}

// EachDialect runs f on a fresh database of every dialect.
func EachDialect(t *testing.T, f func(t *testing.T, db *models.DB)) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) { f(t, modelstest.Open(t, d)) })
	}
}

// NewSite serves handlers.New on db, after loading the pages and
// tutorials as the server command does at start.
func NewSite(t *testing.T, db *models.DB) *Site {
	t.Helper()
	return NewSiteWith(t, db, nil)
}

// NewSiteWith is newSite with a configuration that adjust changes (when
// not nil) before the site is made.
func NewSiteWith(t *testing.T, db *models.DB, adjust func(*handlers.Config)) *Site {
	t.Helper()
	return NewSiteWrapped(t, db, adjust, nil)
}

// NewSiteWrapped is newSiteWith whose server serves the site through wrap
// (when not nil).
func NewSiteWrapped(t *testing.T, db *models.DB, adjust func(*handlers.Config), wrap func(http.Handler) http.Handler) *Site {
	t.Helper()
	if err := content.Load(t.Context(), db, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	cfg := handlers.Config{
		BaseURL: "http://" + srv.Listener.Addr().String(),
		Secret:  []byte("0123456789abcdef0123456789abcdef"),
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		Version: "v0.1.0", Commit: "a38d0e2f00",
	}
	if adjust != nil {
		adjust(&cfg)
	}
	e, err := handlers.New(WithServices(t, db, cfg))
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = e
	if wrap != nil {
		srv.Config.Handler = wrap(e)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return &Site{T: t, Srv: srv, Db: db, Base: cfg.BaseURL}
}

// WithServices returns cfg with the services it lacks made on db, as the
// server command makes them: the game service with a computer's pool (a
// worker per core, stopped when the test ends), the accounts, the content,
// the tournaments and the broker of the live updates.
func WithServices(t testing.TB, db *models.DB, cfg handlers.Config) handlers.Config {
	t.Helper()
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Games == nil {
		cfg.Games = game.New(db, log)
	}
	if cfg.Games.Computer() == nil {
		ctx, stop := context.WithCancel(context.Background())
		// HashMB 2, not the server's 32: a worker clears its table at each
		// new game, and the tests start a game or more a site (4 MB
		// cleared a game instead of 64 on two cores; handlers/web spent 3
		// of its 46 CPU seconds clearing). The tests' searches are shallow.
		pool, err := cfg.Games.StartComputer(ctx, game.PoolConfig{MinThink: search.MinThinkTime, HashMB: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { stop(); pool.Wait() })
	}
	if cfg.Events == nil {
		cfg.Events = db.Broker(context.Background()) // it stops when db is closed
	}
	if cfg.Accounts == nil {
		cfg.Accounts = accounts.New(db)
	}
	if cfg.Content == nil {
		cfg.Content = content.New(db)
	}
	if cfg.Tournaments == nil {
		cfg.Tournaments = tournament.New(db, cfg.Games, log)
	}
	return cfg
}

// Browser is a client with cookies that does not follow redirects.
func (s *Site) Browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Do sends a request and returns the status, headers and body.
func (s *Site) Do(c *http.Client, method, path string, body io.Reader, hdr map[string]string) (int, http.Header, string) {
	s.T.Helper()
	req, err := http.NewRequest(method, s.Srv.URL+path, body)
	if err != nil {
		s.T.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	if c == nil {
		c = s.Browser()
	}
	res, err := c.Do(req)
	if err != nil {
		s.T.Fatal(err)
	}
	defer res.Body.Close()
	var r io.Reader = res.Body
	if res.Header.Get("Content-Encoding") == "gzip" {
		if r, err = gzip.NewReader(res.Body); err != nil {
			s.T.Fatal(err)
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		s.T.Fatal(err)
	}
	return res.StatusCode, res.Header, string(b)
}

// Get fetches a page.
func (s *Site) Get(c *http.Client, path string) (int, http.Header, string) {
	s.T.Helper()
	return s.Do(c, http.MethodGet, path, nil, nil)
}

// Post sends a form.
func (s *Site) Post(c *http.Client, path string, form url.Values, hdr map[string]string) (int, http.Header, string) {
	s.T.Helper()
	h := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	for k, v := range hdr {
		h[k] = v
	}
	return s.Do(c, http.MethodPost, path, strings.NewReader(form.Encode()), h)
}

var csrfRe = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// Csrf returns the CSRF token of a page's forms.
func (s *Site) Csrf(page string) string {
	s.T.Helper()
	m := csrfRe.FindStringSubmatch(page)
	if m == nil {
		s.T.Fatalf("no _csrf field in page:\n%s", page)
	}
	return m[1]
}

// Api calls the JSON API; token "" sends no Authorization header.
func (s *Site) Api(method, path, token string, body any) (int, map[string]any) {
	s.T.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	hdr := map[string]string{"Content-Type": "application/json"}
	if token != "" {
		hdr["Authorization"] = "Bearer " + token
	}
	code, _, text := s.Do(nil, method, path, r, hdr)
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		s.T.Fatalf("%s %s: %d, not JSON: %q", method, path, code, text)
	}
	return code, out
}

// NewAPIGame creates a game through the API (creator South) and joins it;
// it returns the id and the tokens of South and North.
func (s *Site) NewAPIGame(rules string) (id, south, north string) {
	s.T.Helper()
	code, g := s.Api("POST", "/api/v1/games", "", map[string]string{"rules": rules, "seat": "south"})
	if code != http.StatusCreated || g["seat"] != "south" || g["invite"] != "/join/"+g["id"].(string) ||
		g["invite_url"] != s.Base+"/join/"+g["id"].(string) {
		s.T.Fatalf("create: %d %v", code, g)
	}
	id, south = g["id"].(string), g["token"].(string)
	code, j := s.Api("POST", "/api/v1/games/"+id+"/join", "", nil)
	if code != http.StatusOK || j["seat"] != "north" {
		s.T.Fatalf("join: %d %v", code, j)
	}
	return id, south, j["token"].(string)
}

// Stored returns the number of stored moves and the version of game id.
func Stored(t *testing.T, db *models.DB, id string) (int, int) {
	t.Helper()
	g, err := db.LoadGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(g.Moves), g.Version
}
