package core_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
)

// TestBadRequests covers mistakes of clients and bots: each gets a clear
// answer and changes nothing, never a 500.
func TestBadRequests(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		id, south, _ := s.NewAPIGame("abapa")

		// Ids that cannot exist: 404, also with bytes PostgreSQL refuses.
		for _, p := range []string{"/api/v1/games/%00", "/api/v1/games/%FF%FE", "/en/games/%C3%28", "/en/watch/%FF", "/join/%00", "/join/a%20b%3Fc"} {
			if code, _, _ := s.Get(nil, p); code != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, code)
			}
		}
		// NUL bytes and invalid UTF-8 in paths and form fields never reach a
		// query (PostgreSQL refuses them).
		for _, p := range []string{"/en/players/a%00b", "/en/tutorials/a%00/1", "/en/players/%FF"} {
			if code, _, _ := s.Get(nil, p); code != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, code)
			}
		}
		c := s.Browser()
		_, _, login := s.Get(c, "/en/login")
		if code, _, _ := s.Post(c, "/en/login", url.Values{"_csrf": {s.Csrf(login)}, "username": {"pg\x00alice"}, "password": {"whatever123"}}, nil); code != http.StatusBadRequest {
			t.Errorf("login with a NUL byte: %d, want 400", code)
		}
		if code, _, _ := s.Get(nil, "/en/tutorials/no-such-tutorial"); code != http.StatusNotFound {
			t.Errorf("unknown tutorial: %d, want 404 at once", code)
		}
		// A form body on the JSON API: 415, nothing stored.
		code, _, _ := s.Do(nil, "POST", "/api/v1/games/"+id+"/moves", strings.NewReader("pit=C"),
			map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Bearer " + south})
		if code != http.StatusUnsupportedMediaType {
			t.Errorf("form body: %d, want 415", code)
		}
		if n, _ := handlerstest.Stored(t, db, id); n != 0 {
			t.Fatalf("%d moves stored after refused requests", n)
		}
		// The bearer scheme is case-insensitive; the media type too.
		code, _, _ = s.Do(nil, "POST", "/api/v1/games/"+id+"/moves", strings.NewReader(`{"pit":"C"}`),
			map[string]string{"Content-Type": "Application/JSON; charset=utf-8", "Authorization": "bearer " + south})
		if code != http.StatusOK {
			t.Errorf("lower-case bearer: %d, want 200", code)
		}
		// HEAD answers like GET, without a body.
		if code, _, body := s.Do(nil, "HEAD", "/en/", nil, nil); code != http.StatusOK || body != "" {
			t.Errorf("HEAD /en/: %d %q", code, body)
		}
	})
}

// TestCSRFTokenNotInURL: a token in the query string is refused, so that
// it never ends up in logs.
func TestCSRFTokenNotInURL(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	_, _, page := s.Get(c, "/en/games/new")
	tok := s.Csrf(page)
	code, _, _ := s.Post(c, "/en/games/new?_csrf="+url.QueryEscape(tok), url.Values{"rules": {"abapa"}, "seat": {"south"}}, nil)
	if code != http.StatusForbidden {
		t.Errorf("token in the URL: %d, want 403", code)
	}
	code, _, _ = s.Post(c, "/en/games/new", url.Values{"rules": {"abapa"}, "seat": {"south"}, "_csrf": {tok}}, nil)
	if code != http.StatusSeeOther {
		t.Errorf("token in the form: %d, want 303", code)
	}
}

// TestPostUnknownPage: a form posted without a token to a page no route
// serves (or under a language the site does not speak) gets the 404 page
// a GET of it gets, not the CSRF check's 403; a form without a token to a
// real route is still refused (403) and makes nothing.
func TestPostUnknownPage(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	s.Get(c, "/en/") // a visitor with a session, whose forms have a token
	title := regexp.MustCompile(`<html lang="[a-z]+">|<title>[^<]*</title>`)
	for _, p := range []string{"/en/no-such-page", "/cs/games/abc/no-such-action", "/nosuch", "/xx/games/new", "/de-DE/login"} {
		for _, client := range []*http.Client{c, nil} {
			getCode, _, get := s.Get(client, p)
			code, _, page := s.Post(client, p, url.Values{"rules": {"abapa"}}, nil)
			if getCode != http.StatusNotFound || code != http.StatusNotFound ||
				fmt.Sprint(title.FindAllString(page, -1)) != fmt.Sprint(title.FindAllString(get, -1)) {
				t.Errorf("POST %s (session %v): %d %q; want GET's %d %q", p, client == c, code, title.FindAllString(page, -1),
					getCode, title.FindAllString(get, -1))
			}
		}
	}
	// A GET of /en-US/... is moved to /en/...; a form posted there is not
	// (nor checked): its language is unknown.
	if code, _, page := s.Post(c, "/en-US/games/new", url.Values{"rules": {"abapa"}}, nil); code != http.StatusNotFound ||
		!strings.Contains(page, "<title>Unknown language · Oware</title>") {
		t.Errorf("POST /en-US/games/new: %d %q, want the unknown-language 404", code, title.FindAllString(page, -1))
	}
	if code, _, _ := s.Post(c, "/en/games/new", url.Values{"rules": {"abapa"}, "seat": {"south"}}, nil); code != http.StatusForbidden {
		t.Errorf("POST /en/games/new without a token: %d, want 403", code)
	}
	var games int64
	s.Db.Gorm.Table("games").Count(&games)
	if games != 0 {
		t.Errorf("%d games made without a token", games)
	}
}

// TestCSRFBoundToSession: the forms' token belongs to the session (issue
// 30, item 6): a _csrf cookie planted with the same form value, as echo's
// double-submit cookie let pass, and another visitor's own valid token
// are refused with 403 and create nothing; the session's own token passes.
func TestCSRFBoundToSession(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	victim, mallory := s.Browser(), s.Browser()
	_, _, page := s.Get(victim, "/en/games/new")
	own := s.Csrf(page)
	_, _, page = s.Get(mallory, "/en/games/new")
	theirs := s.Csrf(page)
	if own == theirs {
		t.Fatalf("two visitors got the same token %q", own)
	}
	base, _ := url.Parse(s.Srv.URL)
	planted := "planted-token-planted-token-planted-token-1"
	victim.Jar.SetCookies(base, []*http.Cookie{{Name: "_csrf", Value: planted, Path: "/"}})
	form := func(tok string) url.Values {
		return url.Values{"rules": {"abapa"}, "seat": {"south"}, "_csrf": {tok}}
	}
	for name, tok := range map[string]string{"a planted cookie's value": planted, "another visitor's token": theirs} {
		if code, _, _ := s.Post(victim, "/en/games/new", form(tok), nil); code != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", name, code)
		}
	}
	var games int64
	s.Db.Gorm.Table("games").Count(&games)
	if games != 0 {
		t.Errorf("%d games made with a token not the session's", games)
	}
	if code, _, _ := s.Post(victim, "/en/games/new", form(own), nil); code != http.StatusSeeOther {
		t.Errorf("the session's own token: %d, want 303", code)
	}
}

// TestSeatsOfGamesInPlayAreKept: a browser seated in 24 games being played
// is refused a 25th (409) rather than silently losing a seat; finishing one
// makes room, and so do games still waiting for an opponent.
func TestSeatsOfGamesInPlayAreKept(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c, friend := s.Browser(), s.Browser()
	_, _, page := s.Get(c, "/en/games/new")
	tok := s.Csrf(page)
	_, _, page = s.Get(friend, "/en/games/new")
	friendTok := s.Csrf(page)
	newGame := func() (int, string) {
		code, hdr, _ := s.Post(c, "/en/games/new", url.Values{"rules": {"abapa"}, "seat": {"south"}, "_csrf": {tok}}, nil)
		return code, hdr.Get("Location")
	}
	var first string
	for i := 0; i < 24; i++ {
		code, game := newGame()
		if code != http.StatusSeeOther {
			t.Fatalf("game %d: %d", i+1, code)
		}
		if code, _, _ := s.Post(friend, game+"/join", url.Values{"_csrf": {friendTok}}, nil); code != http.StatusSeeOther {
			t.Fatalf("join %d: %d", i+1, code)
		}
		if i == 0 {
			first = game
		}
	}
	if code, _ := newGame(); code != http.StatusConflict {
		t.Fatalf("25th game in play: %d, want 409", code)
	}
	if code, _, page := s.Get(c, first); code != http.StatusOK || !strings.Contains(page, `name="pit"`) {
		t.Fatalf("first game after the refusal: %d, seat kept = %v", code, strings.Contains(page, `name="pit"`))
	}
	if code, _, _ := s.Post(c, first+"/resign", url.Values{"_csrf": {tok}}, nil); code != http.StatusSeeOther {
		t.Fatalf("resign: %d", code)
	}
	if code, _ := newGame(); code != http.StatusSeeOther {
		t.Fatalf("new game after finishing one: %d, want 303", code)
	}
	// The new game waits for an opponent: a further one takes its place.
	if code, _ := newGame(); code != http.StatusSeeOther {
		t.Fatalf("a game while the oldest droppable seat is a waiting game: %d, want 303", code)
	}
}

// TestNamNamReplayShowsRounds: the replay of a finished Nam-nam match
// names the round of the position shown and marks the move after which a
// round ended. The match: the players agree to end round 1 at once (24 each, so
// North starts round 2), North plays a, then they agree to end round 2 and,
// between rounds, the match.
func TestNamNamReplayShowsRounds(t *testing.T) {
	db := handlerstest.ModelsOpenSQLite(t)
	s := handlerstest.NewSite(t, db)
	start := "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0"
	g := &models.Game{Rules: "namnam", Fours: "last", StartPosition: start, Position: start,
		Status: "over", Result: "draw", Reason: "agreement", Agreements: "0,1,1"}
	if err := db.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	if err := db.Gorm.Create(&models.Move{GameID: g.ID, Ply: 1, Pit: 6, Label: "a"}).Error; err != nil {
		t.Fatal(err)
	}
	code, _, page := s.Get(nil, "/en/games/"+g.ID+"/replay?ply=1")
	if code != http.StatusOK || !strings.Contains(page, "Round 2") || !strings.Contains(page, "end of round 2") {
		t.Errorf("replay at move 1: %d; want the board in round 2 and move a marked as the end of round 2:\n%s", code, page)
	}
	if _, _, page := s.Get(nil, "/en/games/"+g.ID+"/replay?ply=0"); !strings.Contains(page, "Round 2") {
		t.Errorf("replay at the start: want round 2 (round 1 was agreed before any move)")
	}
}

// TestLoginLimitHoldsUnderABurst: failed logins sent at the same moment
// count before their passwords are checked, so at most the 5 allowed
// attempts of an account are checked and the rest get 429, even when the
// right password comes in the burst.
func TestLoginLimitHoldsUnderABurst(t *testing.T) {
	// The limits' clock stands still: on a busy machine the 20 attempts
	// can spread over more than the 1 s after which a sixth is allowed.
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := handlerstest.NewSiteWith(t, handlerstest.ModelsOpenSQLite(t), func(cfg *handlers.Config) {
		cfg.Clock = func() time.Time { return now }
	})
	s.Account("bob")
	c := s.Browser()
	_, _, page := s.Get(c, "/en/login")
	tok := s.Csrf(page)
	codes := make(chan int, 20)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pw := "wrong password " + strconv.Itoa(i)
			if i == 15 {
				pw = handlerstest.TestPassword
			}
			code, _, _ := s.Post(c, "/en/login", url.Values{"_csrf": {tok}, "username": {"bob"}, "password": {pw}}, nil)
			codes <- code
		}()
	}
	wg.Wait()
	close(codes)
	checked := 0
	for code := range codes {
		if code != http.StatusTooManyRequests {
			checked++
		}
	}
	if checked > 5 {
		t.Errorf("%d of 20 simultaneous attempts were checked, want at most 5", checked)
	}
}

// TestOldCookieLosesAccountSeats: a copy of a logged-in player's cookie,
// kept from before the logout, can no longer play the account's games.
func TestOldCookieLosesAccountSeats(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	alice := s.Account("alice")
	south, _ := s.FormGameWith(alice, s.Browser(), "en", "abapa")
	u, _ := url.Parse(s.Srv.URL)
	copied := s.Browser()
	copied.Jar.SetCookies(u, alice.Jar.Cookies(u))
	_, _, page := s.Get(alice, south.Game)
	if code, _, _ := s.Post(alice, "/en/logout", url.Values{"_csrf": {s.Csrf(page)}}, nil); code != http.StatusSeeOther {
		t.Fatalf("logout: %d", code)
	}
	_, _, page = s.Get(copied, south.Game)
	if strings.Contains(page, `name="pit"`) {
		t.Errorf("the old cookie still shows playable pits")
	}
	id := south.Game[strings.LastIndex(south.Game, "/")+1:]
	_, _, fresh := s.Get(copied, "/en/games/new")
	if code, _, _ := s.Post(copied, south.Game+"/moves", url.Values{"pit": {"C"}, "_csrf": {s.Csrf(fresh)}}, nil); code != http.StatusForbidden {
		t.Errorf("move with the old cookie: %d, want 403", code)
	}
	if n, _ := handlerstest.Stored(t, s.Db, id); n != 0 {
		t.Errorf("%d moves stored", n)
	}
}

// TestForwardedForIsNotTrusted: without a proxy in front, a client cannot
// escape the per-address limit of registrations by naming another address.
func TestForwardedForIsNotTrusted(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	refused := false
	for i := 0; i < 12 && !refused; i++ {
		c := s.Browser()
		_, _, page := s.Get(c, "/en/register")
		code, _, _ := s.Post(c, "/en/register", url.Values{"_csrf": {s.Csrf(page)}, "username": {"user" + strconv.Itoa(i)}, "password": {handlerstest.TestPassword}},
			map[string]string{"X-Forwarded-For": "203.0.113." + strconv.Itoa(i)})
		refused = code == http.StatusTooManyRequests
	}
	if !refused {
		t.Error("12 registrations from one address, each naming another in X-Forwarded-For, were all accepted")
	}
}

// TestHistoryPageNumbers: any page number gives a page, past the end an
// empty one, never an overflow.
func TestHistoryPageNumbers(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	s.Account("pia")
	for _, q := range []string{"-1", "0", "x", "99999", "9223372036854775807"} {
		code, _, page := s.Get(nil, "/en/players/pia?page="+q)
		if code != http.StatusOK || strings.Contains(page, "Games -") {
			t.Errorf("page=%s: %d", q, code)
		}
	}
}

// TestFullGameInvitation: a third visitor with the invitation link of a
// full game is offered the spectator view, and once the game is over its
// replay.
func TestFullGameInvitation(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	south, _ := s.FormGame("en", "abapa")
	id := south.Game[strings.LastIndex(south.Game, "/")+1:]
	g, err := s.Db.LoadGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	third := s.Browser()
	if _, _, page := s.Get(third, south.Game+"/join"); !strings.Contains(page, `href="/en/watch/`+g.SpectatorKey+`"`) {
		t.Errorf("full game: no link to watch it")
	}
	_, _, page := s.Get(south.C, south.Game+"/resign")
	if code, _, _ := s.Post(south.C, south.Game+"/resign", url.Values{"_csrf": {s.Csrf(page)}}, nil); code != http.StatusSeeOther {
		t.Fatalf("resign: %d", code)
	}
	if _, _, page := s.Get(third, south.Game+"/join"); !strings.Contains(page, `href="`+south.Game+`/replay"`) {
		t.Errorf("finished game: no link to its replay")
	}
}

// TestRequestLogStatus: the request log names the status the client got,
// also for refusals answered by the error handler.
func TestRequestLogStatus(t *testing.T) {
	var buf bytes.Buffer
	e, err := handlers.New(handlerstest.WithServices(t, handlerstest.ModelsOpenSQLite(t), handlers.Config{Secret: []byte("0123456789abcdef0123456789abcdef"),
		Log: slog.New(slog.NewTextHandler(&buf, nil))}))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/en/no-such-page", nil))
	if rec.Code != http.StatusNotFound || !strings.Contains(buf.String(), "status=404") {
		t.Errorf("answered %d, logged %q", rec.Code, buf.String())
	}
}

// TestAbandonedRefusalKeepsItsStatus: a refusal of a request whose client
// went away (its context ended, as when the read timeout cuts a body sent
// slowly) is answered and logged with its own status, not as an empty
// 200, and logs no error.
func TestAbandonedRefusalKeepsItsStatus(t *testing.T) {
	var buf bytes.Buffer
	e, err := handlers.New(handlerstest.WithServices(t, handlerstest.ModelsOpenSQLite(t), handlers.Config{Secret: []byte("0123456789abcdef0123456789abcdef"),
		Log: slog.New(slog.NewTextHandler(&buf, nil))}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/en/no-such-page", nil).WithContext(ctx))
	if rec.Code != http.StatusNotFound || !strings.Contains(buf.String(), "status=404") || strings.Contains(buf.String(), "level=ERROR") {
		t.Errorf("answered %d, logged %q", rec.Code, buf.String())
	}
}
