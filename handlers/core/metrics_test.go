package core_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"oware/content"
	"oware/game"
	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/metrics"
	"oware/models"
	"oware/models/modelstest"
)

// newMetricsSite is newSite with metrics and a computer's pool of one
// worker; it returns the metrics too.
func newMetricsSite(t *testing.T, db *models.DB) (*handlerstest.Site, *metrics.Metrics) {
	t.Helper()
	if err := content.Load(t.Context(), db, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	games := game.New(db, log)
	ctx, stop := context.WithCancel(context.Background())
	pool, err := games.StartComputer(ctx, game.PoolConfig{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(); pool.Wait() })
	m := metrics.New()
	srv := httptest.NewUnstartedServer(nil)
	e, err := handlers.New(handlerstest.WithServices(t, db, handlers.Config{
		Games: games, BaseURL: "http://" + srv.Listener.Addr().String(),
		Secret: []byte("0123456789abcdef0123456789abcdef"), Log: log, Metrics: m,
	}))
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = e
	srv.Start()
	t.Cleanup(srv.Close)
	return &handlerstest.Site{T: t, Srv: srv, Db: db, Base: "http://" + srv.Listener.Addr().String()}, m
}

// scrape returns the metrics in the text format, by series (name and
// labels as written).
func scrape(t *testing.T, m *metrics.Metrics) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("scrape: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	out := map[string]float64{}
	for line := range strings.Lines(rec.Body.String()) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(strings.TrimSpace(line[i+1:]), 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

func TestMetrics(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s, m := newMetricsSite(t, db)
		for range 3 {
			s.Get(nil, "/en/")
		}
		s.Get(nil, "/en/games/nosuchgame")
		s.Get(nil, "/en/games/nosuchgame2")
		id, south, _ := s.NewAPIGame("abapa")
		if code, _ := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != http.StatusOK {
			t.Fatalf("move: %d", code)
		}
		got := scrape(t, m)
		for series, want := range map[string]float64{
			`oware_http_requests_total{method="GET",route="/:lang/",status="2xx"}`:                          3,
			`oware_http_requests_total{method="GET",route="/:lang/games/:id",status="4xx"}`:                 2,
			`oware_http_requests_total{method="POST",route="/api/v1/games",status="2xx"}`:                   1,
			`oware_http_requests_total{method="POST",route="/api/v1/games/:id/join",status="2xx"}`:          1,
			`oware_http_requests_total{method="POST",route="/api/v1/games/:id/moves",status="2xx"}`:         1,
			`oware_http_request_duration_seconds_count{method="GET",route="/:lang/",status="2xx"}`:          3,
			`oware_http_request_duration_seconds_count{method="GET",route="/:lang/games/:id",status="4xx"}`: 2,
			`oware_move_duration_seconds_count`:                                                             1,
			`oware_event_streams_open`:                                                                      0,
			`oware_computer_workers`:                                                                        1,
			`oware_computer_searches_running`:                                                               0,
			`oware_computer_searches_queued`:                                                                0,
		} {
			if got[series] != want {
				t.Errorf("%s = %v, want %v", series, got[series], want)
			}
		}
		// No raw paths as labels: the game's id appears in none.
		for series := range got {
			if strings.Contains(series, id) || strings.Contains(series, "nosuchgame") {
				t.Errorf("raw path in %s", series)
			}
		}
		if got[`oware_move_duration_seconds_sum`] <= 0 {
			t.Error("move latency sum is not positive")
		}
		// The database pool: database/sql's on SQLite (one connection),
		// pgxpool's on PostgreSQL.
		if db.Dialect == models.SQLite {
			if max, open := got[`go_sql_max_open_connections{db_name="oware"}`], got[`go_sql_open_connections{db_name="oware"}`]; max != 1 || open != 1 {
				t.Errorf("SQLite pool: max %v, open %v; want 1 and 1", max, open)
			}
		} else {
			conns := got[`oware_db_pool_connections{db_name="oware",state="acquired"}`] + got[`oware_db_pool_connections{db_name="oware",state="idle"}`]
			if got[`oware_db_pool_max_connections{db_name="oware"}`] < 1 || conns < 1 || got[`oware_db_pool_acquires_total{db_name="oware"}`] < 1 {
				t.Errorf("PostgreSQL pool: max %v, connections %v, acquires %v", got[`oware_db_pool_max_connections{db_name="oware"}`],
					conns, got[`oware_db_pool_acquires_total{db_name="oware"}`])
			}
		}
		if got["go_goroutines"] < 1 || got["process_resident_memory_bytes"] <= 0 {
			t.Errorf("runtime: goroutines %v, resident memory %v", got["go_goroutines"], got["process_resident_memory_bytes"])
		}

		// An event stream counts while it is open.
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.Srv.URL+"/en/games/"+id+"/events", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("events: %v %v", res, err)
		}
		if n := scrape(t, m)["oware_event_streams_open"]; n != 1 {
			t.Errorf("open streams while one is open: %v, want 1", n)
		}
		cancel()
		res.Body.Close()
		// The handler ends soon after the client goes; wait for it.
		deadline := time.Now().Add(10 * time.Second)
		for scrape(t, m)["oware_event_streams_open"] != 0 {
			if time.Now().After(deadline) {
				t.Fatal("the closed stream is still counted after 10 s")
			}
			time.Sleep(10 * time.Millisecond)
		}
		if n := scrape(t, m)[`oware_http_requests_total{method="GET",route="/:lang/games/:id/events",status="2xx"}`]; n != 1 {
			t.Errorf("stream requests: %v, want 1", n)
		}
	})
}

// TestMetricsOff checks that a site without metrics serves no /metrics.
func TestMetricsOff(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	if code, _, body := s.Get(nil, "/metrics"); code != http.StatusNotFound || strings.Contains(body, "oware_http_requests_total") {
		t.Errorf("/metrics on the site: %d", code)
	}
}
