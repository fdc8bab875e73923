package main

import (
	"errors"
	"flag"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"oware/handlers"
)

func TestParseConfig(t *testing.T) {
	t.Setenv("OWARE_ADDR", ":9000")
	t.Setenv("DATABASE_URL", "postgres://db/oware")
	t.Setenv("OWARE_BASE_URL", "")
	t.Setenv("OWARE_SECRET", "")
	t.Setenv("OWARE_LOG_FORMAT", "")
	t.Setenv("OWARE_SMTP_URL", "")
	t.Setenv("OWARE_METRICS_ADDR", "")
	c, err := parseConfig([]string{"-addr", ":7000", "-base-url", "https://oware.example/"})
	if err != nil {
		t.Fatal(err)
	}
	want := config{addr: ":7000", database: "postgres://db/oware", baseURL: "https://oware.example",
		logFormat: "text", tables: "./data/tables", tableSeeds: defaultTableSeeds, buildTables: true, computerJobs: true, computerNice: 10}
	if c != want {
		t.Errorf("parseConfig = %+v, want %+v", c, want)
	}
	t.Setenv("OWARE_STREAM_LIMITS", "1000,1000,30000")
	c, err = parseConfig(nil)
	if err != nil || c.streams != (handlers.StreamLimits{PerGame: 1000, PerClient: 1000, Total: 30000}) {
		t.Errorf("OWARE_STREAM_LIMITS: %+v, %v", c.streams, err)
	}
	for _, bad := range []string{"6,40", "6,0,10", "a,b,c"} {
		if _, err := parseConfig([]string{"-stream-limits", bad}); err == nil {
			t.Errorf("-stream-limits %q accepted", bad)
		}
	}
	if _, err := parseConfig([]string{"extra"}); err == nil {
		t.Error("parseConfig accepted a stray argument")
	}
}

func TestBuildVersion(t *testing.T) {
	if v, _ := buildVersion(); v != "dev" {
		t.Errorf("version = %q, want dev without -ldflags", v)
	}
}

func TestDefaults(t *testing.T) {
	t.Setenv("OWARE_BASE_URL", "")
	for addr, want := range map[string]string{
		":8080":           "http://localhost:8080",
		"127.0.0.1:18080": "http://127.0.0.1:18080",
		"0.0.0.0:9000":    "http://localhost:9000",
	} {
		c, err := parseConfig([]string{"-addr", addr})
		if err != nil || c.baseURL != want {
			t.Errorf("-addr %s: base URL %q, %v; want %q", addr, c.baseURL, err, want)
		}
	}
	if _, err := parseConfig([]string{"-database", ""}); err == nil {
		t.Error("an empty -database was accepted")
	}
}

func TestMailAndMetricsConfig(t *testing.T) {
	t.Setenv("OWARE_SMTP_URL", "smtp://mail.example.org?from=oware@example.org")
	t.Setenv("OWARE_METRICS_ADDR", "127.0.0.1:9090")
	c, err := parseConfig(nil)
	if err != nil || c.smtpURL != "smtp://mail.example.org?from=oware@example.org" || c.metricsAddr != "127.0.0.1:9090" {
		t.Errorf("from the environment: %+v, %v", c, err)
	}
	c, err = parseConfig([]string{"-smtp-url", "", "-metrics-addr", ""})
	if err != nil || c.smtpURL != "" || c.metricsAddr != "" {
		t.Errorf("flags given empty: %+v, %v", c, err)
	}
}

// TestBadFlagsLeaveNoDatabase: a flag out of its bounds stops the server
// with the reason before it creates the SQLite file.
func TestBadFlagsLeaveNoDatabase(t *testing.T) {
	for _, bad := range [][]string{
		{"-table-seeds", "22"}, {"-table-seeds", "-1"},
		{"-smtp-url", "smtp://mail.example"}, // no from=
		{"-log-format", "xml"},
	} {
		path := filepath.Join(t.TempDir(), "data", "oware.db")
		err := run(append(bad, "-database", path, "-addr", "127.0.0.1:0"))
		if err == nil || !strings.Contains(err.Error(), strings.TrimLeft(bad[0], "-")) && !strings.Contains(err.Error(), "smtp") {
			t.Errorf("%q: %v, want an error naming the flag", bad, err)
		}
		if _, serr := os.Stat(path); !errors.Is(serr, fs.ErrNotExist) {
			t.Errorf("%q: the database %s was created (%v)", bad, path, serr)
		}
	}
	t.Setenv("OWARE_TABLE_SEEDS", "30")
	if _, err := parseConfig(nil); err == nil {
		t.Error("OWARE_TABLE_SEEDS=30 was accepted")
	}
}

// TestReadmeConfiguration checks README.md's configuration table against
// the flags: a row for every flag, with its environment variable (none for
// the flags that have none), and no row for a flag that does not exist.
func TestReadmeConfiguration(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // flag name: the environment column
	for _, line := range strings.Split(string(readme), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 6 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`-") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`-")
		rows[name] = strings.Trim(strings.TrimSpace(cells[2]), "`")
	}
	var c config
	fs := flags(&c)
	fs.VisitAll(func(f *flag.Flag) {
		envCol, ok := rows[f.Name]
		switch {
		case !ok:
			t.Errorf("README's configuration table has no row for -%s", f.Name)
		case envCol != env[f.Name]:
			t.Errorf("README gives -%s the environment variable %q, the code %q", f.Name, envCol, env[f.Name])
		}
		delete(rows, f.Name)
	})
	for name := range rows {
		t.Errorf("README's configuration table names -%s, which is no flag", name)
	}
	for name := range env {
		if fs.Lookup(name) == nil {
			t.Errorf("env names -%s, which is no flag", name)
		}
	}
}

// TestHealthcheck runs "oware healthcheck" against a server that answers
// /healthz with 200, then with 503, then against a port nothing listens on.
func TestHealthcheck(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	if err := run([]string{"healthcheck", "-addr", addr}); err != nil {
		t.Errorf("healthcheck of a healthy server: %v", err)
	}
	t.Setenv("OWARE_ADDR", addr)
	if err := run([]string{"healthcheck"}); err != nil {
		t.Errorf("healthcheck with OWARE_ADDR: %v", err)
	}
	status = http.StatusServiceUnavailable
	if err := run([]string{"healthcheck"}); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("healthcheck of a server answering 503: %v", err)
	}
	srv.Close()
	if err := run([]string{"healthcheck"}); err == nil {
		t.Error("healthcheck of a stopped server succeeded")
	}
}
