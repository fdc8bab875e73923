package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/models"
)

// createChallenge opens a challenge through the lobby's form in client c
// (extra fields added to a 5+3 Abapa one) and returns the answer.
func (s *site) createChallenge(c *http.Client, extra url.Values) (int, http.Header, string) {
	s.t.Helper()
	_, _, page := s.get(c, "/en/lobby")
	form := url.Values{"_csrf": {s.csrf(page)}, "rules": {"abapa"}, "seat": {"random"}, "clock": {"5+3"}}
	for k, v := range extra {
		form[k] = v
	}
	return s.post(c, "/en/lobby/challenges", form, nil)
}

// TestChallengeCreatorShown: a registered player's challenge shows their
// name and provisional rating in the lobby, on the home page and in the
// API (issue 19 item 6: "Guest 1500?" and "by": null).
func TestChallengeCreatorShown(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s := newSite(t, db)
		ann := s.account("ann")
		if code, hdr, _ := s.createChallenge(ann, url.Values{"rated": {"on"}}); code != http.StatusSeeOther || hdr.Get("Location") != "/en/lobby" {
			t.Fatalf("create: %d %q", code, hdr.Get("Location"))
		}
		other := s.browser()
		for _, path := range []string{"/en/lobby", "/en/"} {
			_, _, page := s.get(other, path)
			if !strings.Contains(page, `href="/en/players/ann">ann</a>`) || !strings.Contains(page, `<span class="rating">1500?</span>`) {
				t.Errorf("%s does not name ann with 1500?:\n%s", path, page)
			}
		}
		_, _, raw := s.do(nil, "GET", "/api/v1/challenges", nil, nil)
		var list []map[string]any
		if err := json.Unmarshal([]byte(raw), &list); err != nil || len(list) != 1 || list[0]["by"] != "ann" ||
			list[0]["rating"] != "1500?" || list[0]["rated"] != true {
			t.Errorf("the API's list: %s", raw)
		}
	})
}

// TestPairLimitShown: a rated challenge of a player the viewer has played
// 3 rated games against today says it is casual for them, and a game made
// casual by the limit says why.
func TestPairLimitShown(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s := newSite(t, db)
		ctx := t.Context()
		ann, bob := s.account("ann"), s.account("bob")
		a, _ := db.UserByName(ctx, "ann")
		b, _ := db.UserByName(ctx, "bob")
		for range 3 {
			g := &models.Game{Rules: "abapa", Status: "over", Result: "south", Reason: "resignation", Rated: true,
				ClockInitial: 300, SouthUserID: &a.ID, NorthUserID: &b.ID}
			if err := db.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		if code, _, _ := s.createChallenge(ann, url.Values{"rated": {"on"}}); code != http.StatusSeeOther {
			t.Fatalf("create: %d", code)
		}
		_, _, page := s.get(bob, "/en/lobby")
		if !strings.Contains(page, "casual for you: you have played 3 rated games against this player in the last 24 hours") {
			t.Errorf("bob's lobby does not say ann's rated challenge is casual for him:\n%s", page)
		}
		_, _, page = s.get(s.account("cid"), "/en/lobby")
		if strings.Contains(page, "casual for you") {
			t.Errorf("cid's lobby says the challenge is casual for him")
		}
		_, _, page = s.get(bob, "/en/lobby")
		code, hdr, _ := s.post(bob, regexpFind(t, page, `action="(/en/lobby/challenges/[a-z2-7]+/accept)"`), url.Values{"_csrf": {s.csrf(page)}}, nil)
		if code != http.StatusSeeOther || !strings.HasPrefix(hdr.Get("Location"), "/en/games/") {
			t.Fatalf("accept: %d %q", code, hdr.Get("Location"))
		}
		_, _, page = s.get(bob, hdr.Get("Location"))
		checkPage(t, "en", hdr.Get("Location"), 200, page)
		if !strings.Contains(page, "casual: these players had already played 3 rated games against each other in the last 24 hours") {
			t.Errorf("the game page does not say why it is casual:\n%s", page)
		}
	})
}

// regexpFind returns the first group of pattern in page.
func regexpFind(t *testing.T, page, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no %s in:\n%s", pattern, page)
	}
	return m[1]
}
