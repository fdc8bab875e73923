package handlers_test

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

// site is a test server on one database.
type site struct {
	t    *testing.T
	srv  *httptest.Server
	db   *models.DB
	base string // handlers.Config.BaseURL
}

// eachDialect runs f on a fresh database of every dialect.
func eachDialect(t *testing.T, f func(t *testing.T, db *models.DB)) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) { f(t, modelstest.Open(t, d)) })
	}
}

// newSite serves handlers.New on db, after loading the pages and
// tutorials as the server command does at start.
func newSite(t *testing.T, db *models.DB) *site {
	t.Helper()
	return newSiteWith(t, db, nil)
}

// newSiteWith is newSite with a configuration that adjust changes (when
// not nil) before the site is made.
func newSiteWith(t *testing.T, db *models.DB, adjust func(*handlers.Config)) *site {
	t.Helper()
	return newSiteWrapped(t, db, adjust, nil)
}

// newSiteWrapped is newSiteWith whose server serves the site through wrap
// (when not nil).
func newSiteWrapped(t *testing.T, db *models.DB, adjust func(*handlers.Config), wrap func(http.Handler) http.Handler) *site {
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
	e, err := handlers.New(withServices(t, db, cfg))
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = e
	if wrap != nil {
		srv.Config.Handler = wrap(e)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return &site{t: t, srv: srv, db: db, base: cfg.BaseURL}
}

// withServices returns cfg with the services it lacks made on db, as the
// server command makes them: the game service with a computer's pool (a
// worker per core, stopped when the test ends), the accounts, the content,
// the tournaments and the broker of the live updates.
func withServices(t testing.TB, db *models.DB, cfg handlers.Config) handlers.Config {
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
		pool, err := cfg.Games.StartComputer(ctx, game.PoolConfig{MinThink: search.MinThinkTime})
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

// browser is a client with cookies that does not follow redirects.
func (s *site) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// do sends a request and returns the status, headers and body.
func (s *site) do(c *http.Client, method, path string, body io.Reader, hdr map[string]string) (int, http.Header, string) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.srv.URL+path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	if c == nil {
		c = s.browser()
	}
	res, err := c.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var r io.Reader = res.Body
	if res.Header.Get("Content-Encoding") == "gzip" {
		if r, err = gzip.NewReader(res.Body); err != nil {
			s.t.Fatal(err)
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.StatusCode, res.Header, string(b)
}

// get fetches a page.
func (s *site) get(c *http.Client, path string) (int, http.Header, string) {
	s.t.Helper()
	return s.do(c, http.MethodGet, path, nil, nil)
}

// post sends a form.
func (s *site) post(c *http.Client, path string, form url.Values, hdr map[string]string) (int, http.Header, string) {
	s.t.Helper()
	h := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	for k, v := range hdr {
		h[k] = v
	}
	return s.do(c, http.MethodPost, path, strings.NewReader(form.Encode()), h)
}

var csrfRe = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// csrf returns the CSRF token of a page's forms.
func (s *site) csrf(page string) string {
	s.t.Helper()
	m := csrfRe.FindStringSubmatch(page)
	if m == nil {
		s.t.Fatalf("no _csrf field in page:\n%s", page)
	}
	return m[1]
}

// api calls the JSON API; token "" sends no Authorization header.
func (s *site) api(method, path, token string, body any) (int, map[string]any) {
	s.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	hdr := map[string]string{"Content-Type": "application/json"}
	if token != "" {
		hdr["Authorization"] = "Bearer " + token
	}
	code, _, text := s.do(nil, method, path, r, hdr)
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		s.t.Fatalf("%s %s: %d, not JSON: %q", method, path, code, text)
	}
	return code, out
}

// newAPIGame creates a game through the API (creator South) and joins it;
// it returns the id and the tokens of South and North.
func (s *site) newAPIGame(rules string) (id, south, north string) {
	s.t.Helper()
	code, g := s.api("POST", "/api/v1/games", "", map[string]string{"rules": rules, "seat": "south"})
	if code != http.StatusCreated || g["seat"] != "south" || g["invite"] != "/join/"+g["id"].(string) ||
		g["invite_url"] != s.base+"/join/"+g["id"].(string) {
		s.t.Fatalf("create: %d %v", code, g)
	}
	id, south = g["id"].(string), g["token"].(string)
	code, j := s.api("POST", "/api/v1/games/"+id+"/join", "", nil)
	if code != http.StatusOK || j["seat"] != "north" {
		s.t.Fatalf("join: %d %v", code, j)
	}
	return id, south, j["token"].(string)
}

// stored returns the number of stored moves and the version of game id.
func stored(t *testing.T, db *models.DB, id string) (int, int) {
	t.Helper()
	g, err := db.LoadGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(g.Moves), g.Version
}
