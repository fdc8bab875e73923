package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

var secretRe = regexp.MustCompile(`id="new-token" type="text" readonly value="(oware_[A-Za-z0-9_-]{43})"`)
var revokeRe = regexp.MustCompile(`action="(/en/account/tokens/\d+/revoke)"`)

// TestTokensOnAccountPage (issue 35): the account page makes a token and
// shows its secret once, lists it without the secret, and revokes it,
// after which the API refuses it; a bot's profile (engine, owner) shows on
// its player page with the BOT mark, and the bots have their own
// leaderboard.
func TestTokensOnAccountPage(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		s.Account("kofi")
		c := s.Account("aalina")
		_, _, page := s.Get(c, "/en/account")
		if !strings.Contains(page, "This account has no tokens.") {
			t.Fatalf("account page without tokens:\n%s", page)
		}
		csrf := s.Csrf(page)
		code, _, page := s.Post(c, "/en/account/tokens", url.Values{"_csrf": {csrf}, "name": {""}, "scope": {"bot:play"}}, nil)
		if code != http.StatusUnprocessableEntity || !strings.Contains(page, "A token&#39;s name is 1 to 40 characters") {
			t.Errorf("a token without a name: %d", code)
		}
		code, _, page = s.Post(c, "/en/account/tokens", url.Values{"_csrf": {csrf}, "name": {"my engine"}, "scope": {"bot:play"}}, nil)
		m := secretRe.FindStringSubmatch(page)
		if code != http.StatusOK || m == nil || !strings.Contains(page, "<th scope=\"row\">my engine</th>") {
			t.Fatalf("token made: %d\n%s", code, page)
		}
		secret := m[1]
		if _, _, again := s.Get(c, "/en/account"); strings.Contains(again, secret) || !strings.Contains(again, "my engine") {
			t.Error("the secret is shown again, or the token is not listed")
		}
		if code, body := s.Api("POST", "/api/v1/bot/account/upgrade", secret, nil); code != http.StatusOK {
			t.Fatalf("upgrade: %d %v", code, body)
		}
		code, _, page = s.Post(c, "/en/account/bot", url.Values{"_csrf": {csrf}, "engine": {"oware-engine uci --level 5"}, "owner": {"kofi"}}, nil)
		if code != http.StatusOK || !strings.Contains(page, "The bot&#39;s profile was saved.") {
			t.Errorf("bot profile: %d", code)
		}
		_, _, profile := s.Get(nil, "/en/players/aalina")
		if !strings.Contains(profile, ">BOT</abbr>") || !strings.Contains(profile, "oware-engine uci --level 5") ||
			!strings.Contains(profile, `href="/en/players/kofi"`) {
			t.Errorf("the bot's profile:\n%s", profile)
		}
		if _, _, person := s.Get(nil, "/en/players/kofi"); strings.Contains(person, ">BOT</abbr>") {
			t.Error("a person's page is marked BOT")
		}
		if code, _, board := s.Get(nil, "/en/players?bots=1"); code != http.StatusOK || !strings.Contains(board, `aria-current="page">Bots</a>`) {
			t.Errorf("bots' leaderboard: %d", code)
		}
		_, _, page = s.Get(c, "/en/account")
		r := revokeRe.FindStringSubmatch(page)
		if r == nil {
			t.Fatalf("no revoke form:\n%s", page)
		}
		code, _, page = s.Post(c, r[1], url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusOK || !strings.Contains(page, "The token was revoked") || strings.Contains(page, "my engine") {
			t.Errorf("revoke: %d", code)
		}
		if code, _ := s.Api("POST", "/api/v1/bot/account/upgrade", secret, nil); code != http.StatusUnauthorized {
			t.Errorf("a revoked token: %d, want 401", code)
		}
	})
}
