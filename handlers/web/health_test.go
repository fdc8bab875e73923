package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// TestReadyz: /readyz is 200 while the database answers at the latest
// migration, 503 with Retry-After when a migration is missing or the
// database is closed; /healthz (liveness) stays 200 throughout.
func TestReadyz(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		check := func(path string, code int, status string) {
			t.Helper()
			got, hdr, body := s.Get(nil, path)
			var j struct{ Status string }
			json.Unmarshal([]byte(body), &j)
			if got != code || j.Status != status {
				t.Fatalf("%s: %d %q, want %d %q", path, got, body, code, status)
			}
			if code == http.StatusServiceUnavailable && hdr.Get("Retry-After") != "3" {
				t.Errorf("%s: Retry-After %q, want 3", path, hdr.Get("Retry-After"))
			}
		}
		check("/readyz", 200, "ready")
		check("/healthz", 200, "ok")

		// A migration of a newer release in goose's table: not ready.
		var latest int64
		if err := db.Gorm.Raw(`SELECT max(version_id) FROM goose_db_version`).Scan(&latest).Error; err != nil {
			t.Fatal(err)
		}
		if err := db.Gorm.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, true)`, latest+1).Error; err != nil {
			t.Fatal(err)
		}
		check("/readyz", 503, "schema newer than this server")
		// That one and the newest migration of this binary undone: not
		// ready either.
		if err := db.Gorm.Exec(`DELETE FROM goose_db_version WHERE version_id >= ?`, latest).Error; err != nil {
			t.Fatal(err)
		}
		check("/readyz", 503, "migrations pending")

		db.Close()
		check("/readyz", 503, "database unavailable")
		check("/healthz", 200, "ok")
	})
}

// cutProxy forwards TCP connections to a server until cut: then it closes
// every connection and stops listening, so the server looks gone (new
// connections are refused, open ones end).
type cutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln}
	t.Cleanup(p.cut)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) cut() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestDatabaseGone: with PostgreSQL out of reach (its connections cut and
// refused), pages and API calls that need it get 503 with Retry-After and
// the localized explanation, never 500; /healthz stays 200.
func TestDatabaseGone(t *testing.T) {
	dsn := modelstest.DSN(t, modelstest.Open(t, models.Postgres))
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p := newCutProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	q := u.Query()
	q.Set("connect_timeout", "5")
	u.RawQuery = q.Encode()
	db, err := models.Open(context.Background(), u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := handlerstest.NewSite(t, db)
	id, south, _ := s.NewAPIGame("abapa")
	if code, _, _ := s.Get(nil, "/cs/games/"+id); code != 200 {
		t.Fatalf("game page before the cut: %d", code)
	}

	browser := s.Browser()
	_, _, form := s.Get(browser, "/en/games/new")
	csrf := s.Csrf(form)
	player, _ := s.FormGame("en", "abapa")
	_, _, gamePage := s.Get(player.C, player.Game)
	gameCSRF := s.Csrf(gamePage)

	p.cut()

	const (
		en = "The site cannot reach its database right now"
		cs = "Web se teď nemůže spojit se svou databází"
		it = "Il sito non riesce a raggiungere il suo database"
	)
	for _, c := range []struct {
		method, path, token, body, want string
	}{
		{"GET", "/api/v1/games/" + id, "", "", en},
		{"POST", "/api/v1/games/" + id + "/moves", south, `{"pit":"C"}`, en},
		{"POST", "/api/v1/games", "", `{"rules":"abapa"}`, en},
		{"GET", "/cs/games/" + id, "", "", cs},
		{"GET", "/it/games/" + id + "/replay", "", "", it},
	} {
		hdr := map[string]string{"Content-Type": "application/json"}
		if c.token != "" {
			hdr["Authorization"] = "Bearer " + c.token
		}
		code, h, body := s.Do(nil, c.method, c.path, strings.NewReader(c.body), hdr)
		if code != http.StatusServiceUnavailable || h.Get("Retry-After") != "3" || !strings.Contains(body, c.want) {
			t.Errorf("%s %s with the database gone: %d, Retry-After %q, body %.300q; want 503, 3, %q",
				c.method, c.path, code, h.Get("Retry-After"), body, c.want)
		}
		if strings.HasPrefix(c.path, "/api/") {
			var j map[string]string
			if err := json.Unmarshal([]byte(body), &j); err != nil || !strings.HasPrefix(j["error"], en) {
				t.Errorf("%s %s: not the API's error shape: %q", c.method, c.path, body)
			}
		}
	}
	// A move answered 503 may have been stored (issue 19, item 10): the
	// API says to read the game again, the page offers to reload it, with
	// htmx too.
	hdr := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + south}
	if code, _, body := s.Do(nil, "POST", "/api/v1/games/"+id+"/moves", strings.NewReader(`{"pit":"C"}`), hdr); code != 503 ||
		!strings.Contains(body, "may have been stored all the same: read the game again (GET /api/v1/games/{id})") {
		t.Errorf("API move with the database gone: %d %q; want 503 saying to read the game again", code, body)
	}
	for _, hx := range []map[string]string{nil, {"HX-Request": "true"}} {
		code, h, body := s.Post(player.C, player.Game+"/moves", url.Values{"_csrf": {gameCSRF}, "pit": {"C"}}, hx)
		if code != 503 || !strings.Contains(body, "Your move may have been stored all the same") ||
			!strings.Contains(body, `href="`+player.Game+`"`) || h.Get("X-Move-Unsure") != "1" {
			t.Errorf("move form (htmx %v) with the database gone: %d, X-Move-Unsure %q, body %.400q; want 503 offering to reload %s",
				hx != nil, code, h.Get("X-Move-Unsure"), body, player.Game)
		}
		if strings.Contains(body, "please try again") {
			t.Errorf("move form with the database gone invites a blind retry: %.400q", body)
		}
	}
	// A form: the new table is not created, the page says why.
	code, h, body := s.Post(browser, "/en/games/new", url.Values{"_csrf": {csrf}, "rules": {"abapa"}, "seat": {"south"}}, nil)
	if code != http.StatusServiceUnavailable || h.Get("Retry-After") != "3" || !strings.Contains(body, en) {
		t.Errorf("POST /en/games/new with the database gone: %d, Retry-After %q, body %.300q", code, h.Get("Retry-After"), body)
	}
	// A truncated body is still the client's mistake.
	code, _, body = s.Do(nil, "POST", "/api/v1/games", strings.NewReader(`{"rules":`), map[string]string{"Content-Type": "application/json"})
	if code != http.StatusBadRequest {
		t.Errorf("truncated JSON with the database gone: %d %q, want 400", code, body)
	}
	if code, _, _ := s.Get(nil, "/healthz"); code != 200 {
		t.Errorf("/healthz with the database gone: %d, want 200", code)
	}
	if code, _, _ := s.Get(nil, "/readyz"); code != 503 {
		t.Errorf("/readyz with the database gone: %d, want 503", code)
	}
}
