package core_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/game"
	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// away makes every query that reads table fail as a database out of reach
// does (SQLSTATE 57P03 cannot_connect_now, which models.Unavailable knows):
// the table is renamed and a view of its name raises the error.
func away(t *testing.T, db *models.DB, table string) {
	t.Helper()
	for _, q := range []string{
		`ALTER TABLE ` + table + ` RENAME TO ` + table + `_kept`,
		`CREATE FUNCTION ` + table + `_away() RETURNS SETOF ` + table + `_kept LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'the database is away' USING ERRCODE = '57P03'; END $$`,
		`CREATE VIEW ` + table + ` AS SELECT * FROM ` + table + `_away()`,
	} {
		if err := db.Gorm.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestSeatLookupFailureIs503: when the database fails to say which seat a
// guest holds, the guest's action and their game page are 503 with
// Retry-After, never 403 "no seat" nor the page of a spectator (issue 20).
func TestSeatLookupFailureIs503(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	s := handlerstest.NewSite(t, db)
	south, _ := s.FormGame("en", "abapa")
	_, _, page := s.Get(south.C, south.Game)
	token := s.Csrf(page)
	away(t, db, "visitor_seats")

	code, hdr, body := s.Post(south.C, south.Game+"/resign", url.Values{"_csrf": {token}}, nil)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
		t.Errorf("resign with the seats away: %d, Retry-After %q, want 503 with it:\n%s", code, hdr.Get("Retry-After"), body)
	}
	code, hdr, body = s.Get(south.C, south.Game)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
		t.Errorf("game page with the seats away: %d, Retry-After %q, want 503 with it:\n%s", code, hdr.Get("Retry-After"), body)
	}
}

// TestAccountLookupFailureIs503: when the database fails to read the
// session's account, the page is 503 with Retry-After; the player is not
// taken for a visitor (sent to the login page) for that request.
func TestAccountLookupFailureIs503(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	s := handlerstest.NewSite(t, db)
	c := s.Account("still_here")
	if code, _, _ := s.Get(c, "/en/account"); code != http.StatusOK {
		t.Fatalf("account page: %d, want 200", code)
	}
	away(t, db, "users")
	for _, path := range []string{"/en/account", "/en/"} {
		code, hdr, body := s.Get(c, path)
		if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
			t.Errorf("%s with the accounts away: %d (Location %q), want 503 with Retry-After:\n%s", path, code, hdr.Get("Location"), body)
		}
	}
}

// TestNewRequiresItsServices: handlers.New starts no service of its own
// (no broker nor computer's pool on a context nobody ends): a missing one
// is an error naming it.
func TestNewRequiresItsServices(t *testing.T) {
	full := handlerstest.WithServices(t, handlerstest.ModelsOpenSQLite(t), handlers.Config{Secret: []byte("0123456789abcdef0123456789abcdef")})
	for _, tc := range []struct {
		missing string
		drop    func(*handlers.Config)
	}{
		{"Events", func(c *handlers.Config) { c.Events = nil }},
		{"Games", func(c *handlers.Config) { c.Games = nil }},
		{"Accounts", func(c *handlers.Config) { c.Accounts = nil }},
		{"Content", func(c *handlers.Config) { c.Content = nil }},
		{"Tournaments", func(c *handlers.Config) { c.Tournaments = nil }},
		{"Games has no computer", func(c *handlers.Config) { c.Games = game.New(handlerstest.ModelsOpenSQLite(t), nil) }},
	} {
		cfg := full
		tc.drop(&cfg)
		if _, err := handlers.New(cfg); err == nil || !strings.Contains(err.Error(), tc.missing) {
			t.Errorf("without %s: error %v, want one naming it", tc.missing, err)
		}
	}
	if _, err := handlers.New(full); err != nil {
		t.Errorf("with every service: %v", err)
	}
}
