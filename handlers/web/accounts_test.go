package web_test

import (
	"bytes"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"oware/engine"
	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
)

// users counts the rows of table users.
func users(t *testing.T, db *models.DB) int64 {
	t.Helper()
	var n int64
	if err := db.Gorm.Model(&models.User{}).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// sessionCookie returns the session cookie that a response sets.
func sessionCookie(hdr http.Header) *http.Cookie {
	for _, c := range (&http.Response{Header: hdr}).Cookies() {
		if c.Name == "oware" {
			return c
		}
	}
	return nil
}

func TestRegisterLoginLogout(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		c := s.Browser()
		s.Get(c, "/en/games/new") // a visitor's session exists before the login
		code, hdr, _ := s.Register(c, "en", "Alice_1", handlerstest.TestPassword)
		if code != http.StatusSeeOther || hdr.Get("Location") != "/en/players/Alice_1" {
			t.Fatalf("register: %d %q", code, hdr.Get("Location"))
		}
		ck := sessionCookie(hdr)
		if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" {
			t.Fatalf("session cookie %+v", ck)
		}
		if got := s.LoggedInAs(c); got != "Alice_1" {
			t.Fatalf("logged in as %q", got)
		}
		u, err := db.UserByName(t.Context(), "alice_1")
		if err != nil || !strings.HasPrefix(u.PasswordHash, "$argon2id$") || u.Email != nil {
			t.Fatalf("stored user %+v, %v", u, err)
		}
		// The same name in another case is taken.
		code, _, page := s.Register(s.Browser(), "en", "ALICE_1", handlerstest.TestPassword)
		if code != http.StatusUnprocessableEntity || !strings.Contains(page, "This username is taken") || users(t, db) != 1 {
			t.Errorf("duplicate in other case: %d, %d users", code, users(t, db))
		}
		for name, pw := range map[string]string{"ab": handlerstest.TestPassword, "bad name": handlerstest.TestPassword, "toolongname_123456789": handlerstest.TestPassword, "bob": "short"} {
			if code, _, _ := s.Register(s.Browser(), "en", name, pw); code != http.StatusUnprocessableEntity {
				t.Errorf("register %q/%q: %d", name, pw, code)
			}
		}
		if users(t, db) != 1 {
			t.Errorf("%d users after refusals", users(t, db))
		}
		// Log out: a copy of the old cookie is no longer a session.
		stolen := s.Browser()
		base, _ := url.Parse(s.Srv.URL)
		stolen.Jar.SetCookies(base, c.Jar.Cookies(base))
		_, _, page = s.Get(c, "/en/")
		code, hdr, _ = s.Post(c, "/en/logout", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusSeeOther || hdr.Get("Location") != "/en/" {
			t.Fatalf("logout: %d %q", code, hdr.Get("Location"))
		}
		if got := s.LoggedInAs(c); got != "" {
			t.Errorf("after logout: logged in as %q", got)
		}
		if got := s.LoggedInAs(stolen); got != "" {
			t.Errorf("the old cookie still logs in as %q", got)
		}
		// Wrong password and unknown name: the same answer.
		code, _, wrong := s.Login(c, "en", "alice_1", "wrong password!")
		code2, _, unknown := s.Login(c, "en", "nobody", "wrong password!")
		msg := "Wrong username or password."
		if code != http.StatusUnauthorized || code2 != code || !strings.Contains(wrong, msg) || !strings.Contains(unknown, msg) {
			t.Errorf("wrong password %d, unknown name %d", code, code2)
		}
		// Login in any case; a new session value (rotation).
		before := c.Jar.Cookies(base)
		_, _, page = s.Get(c, "/en/")
		oldToken := s.Csrf(page)
		code, hdr, _ = s.Login(c, "en", "aLiCe_1", handlerstest.TestPassword)
		if code != http.StatusSeeOther || hdr.Get("Location") != "/en/players/Alice_1" || s.LoggedInAs(c) != "Alice_1" {
			t.Fatalf("login: %d %q", code, hdr.Get("Location"))
		}
		for _, old := range before {
			if old.Name == "oware" && old.Value == sessionCookie(hdr).Value {
				t.Error("the session cookie was not renewed at login")
			}
		}
		// The forms' token is the new session's: the old one is refused.
		_, _, page = s.Get(c, "/en/")
		if s.Csrf(page) == oldToken {
			t.Error("the CSRF token was not renewed at login")
		}
		if code, _, _ := s.Post(c, "/en/account/language", url.Values{"_csrf": {oldToken}, "language": {"cs"}}, nil); code != http.StatusForbidden {
			t.Errorf("a form with the token of before the login: %d, want 403", code)
		}
	})
}

func TestAccountFormsNeedCSRF(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		c := s.Browser()
		s.Get(c, "/en/register") // the CSRF cookie
		for _, tok := range []string{"", "wrong-token"} {
			form := url.Values{"username": {"mallory"}, "password": {handlerstest.TestPassword}}
			if tok != "" {
				form.Set("_csrf", tok)
			}
			for _, hdr := range []map[string]string{nil, {"Sec-Fetch-Site": "same-origin", "Origin": s.Srv.URL}} {
				if code, _, _ := s.Post(c, "/en/register", form, hdr); code != http.StatusForbidden {
					t.Errorf("register with token %q, headers %v: %d", tok, hdr, code)
				}
			}
		}
		if n := users(t, db); n != 0 {
			t.Fatalf("%d users stored without a CSRF token", n)
		}
		alice := s.Account("alice")
		u, _ := db.UserByName(t.Context(), "alice")
		for path, form := range map[string]url.Values{
			"/en/account/password": {"current": {handlerstest.TestPassword}, "password": {"another password"}},
			"/en/account/language": {"language": {"cs"}},
			"/en/account/delete":   {"current": {handlerstest.TestPassword}},
			"/en/logout":           {},
			"/en/login":            {"username": {"alice"}, "password": {handlerstest.TestPassword}},
			"/en/import":           {"record": {"1. F d"}},
		} {
			form.Set("_csrf", "wrong-token")
			if code, _, _ := s.Post(alice, path, form, nil); code != http.StatusForbidden {
				t.Errorf("%s with a wrong token: %d", path, code)
			}
		}
		after, _ := db.UserByName(t.Context(), "alice")
		if after == nil || after.PasswordHash != u.PasswordHash || after.Language != u.Language || after.Epoch != u.Epoch {
			t.Errorf("changed without a CSRF token: %+v", after)
		}
		if s.LoggedInAs(alice) != "alice" {
			t.Error("logged out without a CSRF token")
		}
	})
}

func TestLoginRateLimit(t *testing.T) {
	// The limits' clock stands still: on a busy machine the 20 logins
	// below can take longer than the 10 s in which the address limit
	// gives one attempt back.
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := handlerstest.NewSiteWith(t, handlerstest.ModelsOpenSQLite(t), func(cfg *handlers.Config) {
		cfg.Clock = func() time.Time { return now }
	})
	s.Account("alice")
	s.Account("bob")
	c := s.Browser()
	for i := 0; i < 5; i++ {
		if code, _, _ := s.Login(c, "cs", "alice", "wrong password"); code != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, code)
		}
	}
	// The account is blocked from this address, even with the right
	// password; the message is localized and the same for an unknown name.
	code, _, page := s.Login(c, "cs", "alice", handlerstest.TestPassword)
	if code != http.StatusTooManyRequests || !strings.Contains(page, "Příliš mnoho neúspěšných pokusů") {
		t.Fatalf("after 5 failures: %d", code)
	}
	// Another account from the same address still logs in.
	if code, _, _ := s.Login(s.Browser(), "en", "bob", handlerstest.TestPassword); code != http.StatusSeeOther {
		t.Fatalf("bob: %d", code)
	}
	// The address is blocked after 20 failures, whatever the names.
	for i := 0; i < 15; i++ {
		s.Login(c, "en", "ghost"+strconv.Itoa(i), "wrong password")
	}
	code, _, page = s.Login(c, "en", "bob", handlerstest.TestPassword)
	if code != http.StatusTooManyRequests || !strings.Contains(page, "Too many failed attempts") {
		t.Fatalf("after 20 failures from one address: %d", code)
	}
}

// expectedPits returns the accessible names of position p, in board
// order (North's row f..a, then South's A..F).
func expectedPits(p engine.Position) []string {
	var out []string
	name := func(pit int) string {
		n := int(p.Pits[pit])
		if n == 1 {
			return "pit " + engine.Label(pit) + ", 1 seed"
		}
		return "pit " + engine.Label(pit) + ", " + strconv.Itoa(n) + " seeds"
	}
	for pit := 11; pit >= 6; pit-- {
		out = append(out, name(pit))
	}
	for pit := 0; pit < 6; pit++ {
		out = append(out, name(pit))
	}
	return out
}

// pitNames returns the accessible pit names of the page's board.
func pitNames(page string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<span class="vh">(pit [A-Fa-f], \d+ seeds?)</span>`).FindAllStringSubmatch(page, -1) {
		out = append(out, m[1])
	}
	return out
}

func TestHistoryReplayRecord(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice, bob := s.Account("alice"), s.Account("bob")
		south, north := s.FormGameWith(alice, bob, "en", "abapa")
		id := s.PlayAndResign(south, north, 17)
		g, _ := db.LoadGame(t.Context(), id)
		if g.Status != "over" || g.Result != "north" || g.Reason != "resignation" {
			t.Fatalf("game %+v", g)
		}
		// The game page names the players; both histories have the game.
		_, _, page := s.Get(alice, south.Game)
		if !strings.Contains(page, `<dd class="player">alice</dd>`) || !strings.Contains(page, `<dd class="player">bob</dd>`) {
			t.Errorf("game page without the players' names")
		}
		_, _, page = s.Get(nil, "/en/players/alice")
		checkPage(t, "en", "/en/players/alice", 200, page)
		if !strings.Contains(page, `<tr class="outcome-lost">`) || !strings.Contains(page, `href="/en/players/bob"`) ||
			!strings.Contains(page, "resignation") || !strings.Contains(page, "<td>17 moves</td>") {
			t.Errorf("alice's history:\n%s", page)
		}
		_, _, page = s.Get(nil, "/en/players/BOB")
		if !strings.Contains(page, `<tr class="outcome-won">`) || !strings.Contains(page, `href="/en/players/alice"`) {
			t.Errorf("bob's history:\n%s", page)
		}
		if _, _, page = s.Get(nil, "/en/players/bob?result=lost"); !strings.Contains(page, "No games match.") {
			t.Error("bob's lost games are not empty")
		}
		// The replay at every ply is the engine's position.
		r, _ := engine.RulesByName("abapa")
		pits := make([]int, len(g.Moves))
		for i, m := range g.Moves {
			pits[i] = m.Pit
		}
		for ply := 0; ply <= len(pits); ply++ {
			want, err := engine.ReplayGame(r, r.Start(), pits[:ply])
			if err != nil {
				t.Fatal(err)
			}
			path := "/en/games/" + id + "/replay?ply=" + strconv.Itoa(ply)
			hdr := map[string]string{}
			if ply%2 == 1 {
				hdr["HX-Request"] = "true"
			}
			code, _, page := s.Do(nil, "GET", path, nil, hdr)
			if code != 200 || strings.Join(pitNames(page), "|") != strings.Join(expectedPits(want.Position), "|") {
				t.Fatalf("%s: %d, pits %v, want %v", path, code, pitNames(page), expectedPits(want.Position))
			}
			if partial := !strings.Contains(page, "<html"); partial != (ply%2 == 1) {
				t.Errorf("%s: partial %v", path, partial)
			}
		}
		// The OGN record replays to the same final position, also through the import page.
		code, hdr, record := s.Get(nil, "/en/games/"+id+"/record.ogn")
		if code != 200 || !strings.Contains(hdr.Get("Content-Disposition"), "attachment") || !strings.HasPrefix(hdr.Get("Content-Type"), "text/x-oware-ogn") ||
			!strings.Contains(record, `[South "alice"]`) || !strings.Contains(record, `[North "bob"]`) || !strings.HasPrefix(record, "[Variant \"Oware Abapa\"]\n") ||
			strings.Contains(record, " \n") {
			t.Fatalf("record: %d\n%s", code, record)
		}
		rec, err := engine.ParseRecord(record)
		if err != nil {
			t.Fatal(err)
		}
		final, _ := engine.ReplayGame(r, r.Start(), pits)
		if rec.Game().Position != final.Position {
			t.Errorf("record replays to %v, want %v", rec.Game().Position, final.Position)
		}
		c := s.Browser()
		_, _, page = s.Get(c, "/en/import")
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		w.WriteField("_csrf", s.Csrf(page))
		fw, _ := w.CreateFormFile("file", "game.ogn")
		fw.Write([]byte(record))
		w.Close()
		code, hdr, _ = s.Do(c, "POST", "/en/import", &body, map[string]string{"Content-Type": w.FormDataContentType()})
		if code != http.StatusSeeOther {
			t.Fatalf("import: %d", code)
		}
		_, _, page = s.Get(c, hdr.Get("Location"))
		if strings.Join(pitNames(page), "|") != strings.Join(expectedPits(final.Position), "|") || !strings.Contains(page, "alice") {
			t.Errorf("imported replay: %v, want %v", pitNames(page), expectedPits(final.Position))
		}
		// An unfinished game has no replay.
		s2, _ := s.FormGame("en", "abapa")
		if code, _, _ := s.Get(nil, s2.Game+"/replay"); code != 404 {
			t.Errorf("replay of a game in progress: %d", code)
		}
	})
}

func TestImportErrors(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	for _, tc := range []struct{ lang, record, want string }{
		{"en", "[Variant \"abapa\"]\n\n1. F d 2. X b\n", "error on line 3"},
		{"cs", "[Variant \"abapa\"]\n[Event \"x\"\n1. F d\n", "chyba na řádku 2"},
		{"it", "1. F d\n2. F a\n", "errore alla riga 2"},
		{"en", "[Variant \"chess\"]\n", "error on line 1"},
		{"en", "   ", "Paste a record"},
		{"cs", "1. A a\n2. A\n", "chyba na řádku 2, u tahu 2. A: Tato jamka je prázdná."},
		{"en", "1. A+2 a\n", "error on line 1, at move 1. A+2: the capture mark says 2, but this move captures 0."},
		{"it", "[Variant \"Oware Chess\"]\n", "il tag Variant «Oware Chess»"},
		{"it", "1. A a\n2. Q\n", "«Q» non è una mossa"},
	} {
		_, _, page := s.Get(c, "/"+tc.lang+"/import")
		code, _, page := s.Post(c, "/"+tc.lang+"/import", url.Values{"_csrf": {s.Csrf(page)}, "record": {tc.record}}, nil)
		if code != http.StatusUnprocessableEntity || !strings.Contains(page, tc.want) {
			t.Errorf("%q: %d, want %q in\n%s", tc.record, code, tc.want, page)
		}
		if tc.lang != "en" && (strings.Contains(page, "illegal") || strings.Contains(page, "line ")) {
			t.Errorf("%q: English engine text on a %s page", tc.record, tc.lang)
		}
	}
	// A pasted record replays; a tampered replay URL is refused.
	_, _, page := s.Get(c, "/en/import")
	code, hdr, _ := s.Post(c, "/en/import", url.Values{"_csrf": {s.Csrf(page)}, "record": {"[South \"Kofi\"]\n1. F d 2. E\n"}}, nil)
	if code != http.StatusSeeOther {
		t.Fatalf("paste: %d", code)
	}
	code, _, page = s.Get(c, hdr.Get("Location"))
	if code != 200 || !strings.Contains(page, "Kofi") || !strings.Contains(page, "Move 3 of 3: E") {
		t.Errorf("pasted replay: %d\n%s", code, page)
	}
	if code, _, page := s.Get(c, "/en/import/nosuchrecord2345"); code != http.StatusNotFound || !strings.Contains(page, "no longer kept") {
		t.Errorf("unknown import: %d", code)
	}
	// A Nam-nam record with agreements ("="): round 1 agreed at once, North
	// plays a in round 2, round 2 agreed, then the match: the replay keeps
	// the agreements, so a is legal (North starts round 2) and the match
	// ends by agreement.
	_, _, page = s.Get(c, "/en/import")
	code, hdr, _ = s.Post(c, "/en/import", url.Values{"_csrf": {s.Csrf(page)}, "record": {"[Variant \"namnam\"]\n= 1... a = =\n"}}, nil)
	if code != http.StatusSeeOther || !strings.HasPrefix(hdr.Get("Location"), "/en/import/") {
		t.Fatalf("Nam-nam paste: %d %s", code, hdr.Get("Location"))
	}
	code, _, page = s.Get(c, hdr.Get("Location"))
	if code != 200 || !strings.Contains(page, "Move 1 of 1: a") {
		t.Errorf("Nam-nam replay: %d\n%s", code, page)
	}
}

func TestGuestGamesJoinAccount(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		south, north := s.FormGame("en", "wari")
		id := s.PlayAndResign(south, north, 3)
		// North registered earlier, in another browser, and logs in now.
		s.Account("carol")
		if code, _, _ := s.Register(south.C, "en", "dave", handlerstest.TestPassword); code != http.StatusSeeOther {
			t.Fatalf("register: %d", code)
		}
		if code, _, _ := s.Login(north.C, "en", "carol", handlerstest.TestPassword); code != http.StatusSeeOther {
			t.Fatalf("login: %d", code)
		}
		g, _ := db.LoadGame(t.Context(), id)
		if g.SouthUserID == nil || g.NorthUserID == nil || *g.SouthUserID == *g.NorthUserID {
			t.Fatalf("seats not joined: %v %v", g.SouthUserID, g.NorthUserID)
		}
		_, _, page := s.Get(nil, "/en/players/dave")
		if !strings.Contains(page, "/en/games/"+id+"/replay") || !strings.Contains(page, `href="/en/players/carol"`) || !strings.Contains(page, "outcome-lost") {
			t.Errorf("dave's history:\n%s", page)
		}
		// A game with a guest opponent shows "guest".
		guest := s.Browser()
		s2, n2 := s.FormGameWith(south.C, guest, "en", "abapa")
		s.PlayAndResign(s2, n2, 1)
		if _, _, page = s.Get(guest, s2.Game); !strings.Contains(page, `<dd class="player">dave</dd>`) || !strings.Contains(page, `<dd class="player">guest</dd>`) {
			t.Errorf("the guest's game page does not name the players")
		}
		if _, _, page = s.Get(nil, "/en/players/dave?rules=abapa"); !strings.Contains(page, "guest") || strings.Contains(page, "/en/games/"+id+"/replay") {
			t.Errorf("dave's abapa games:\n%s", page)
		}
	})
}

func TestPasswordChangeAndDeletion(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		erin, other := s.Account("erin"), s.Browser()
		s.Login(other, "en", "erin", handlerstest.TestPassword)
		frank := s.Account("frank")
		south, north := s.FormGameWith(erin, frank, "en", "abapa")
		s.PlayAndResign(south, north, 2)

		change := func(current, next string) (int, string) {
			_, _, page := s.Get(erin, "/en/account")
			code, _, page := s.Post(erin, "/en/account/password", url.Values{"_csrf": {s.Csrf(page)}, "current": {current}, "password": {next}}, nil)
			return code, page
		}
		if code, page := change("not my password", "new password 123"); code != http.StatusUnauthorized || !strings.Contains(page, "The current password is wrong.") {
			t.Errorf("wrong current password: %d", code)
		}
		if code, page := change(handlerstest.TestPassword, "new password 123"); code != 200 || !strings.Contains(page, "Your password has been changed") {
			t.Fatalf("change: %d", code)
		}
		if s.LoggedInAs(erin) != "erin" || s.LoggedInAs(other) != "" {
			t.Errorf("after the change: this session %q, the other %q", s.LoggedInAs(erin), s.LoggedInAs(other))
		}
		if code, _, _ := s.Login(s.Browser(), "en", "erin", handlerstest.TestPassword); code != http.StatusUnauthorized {
			t.Errorf("old password: %d", code)
		}
		if code, _, _ := s.Login(s.Browser(), "en", "erin", "new password 123"); code != http.StatusSeeOther {
			t.Errorf("new password: %d", code)
		}
		// Preferred language: / leads there.
		_, _, page := s.Get(erin, "/en/account")
		if code, hdr, _ := s.Post(erin, "/en/account/language", url.Values{"_csrf": {s.Csrf(page)}, "language": {"it"}}, nil); code != http.StatusSeeOther || hdr.Get("Location") != "/it/account" {
			t.Errorf("language: %d %q", code, hdr.Get("Location"))
		}
		if code, hdr, _ := s.Do(erin, "GET", "/", nil, map[string]string{"Accept-Language": "cs"}); code != http.StatusFound || hdr.Get("Location") != "/it/" {
			t.Errorf("/ with preferred Italian: %d %q", code, hdr.Get("Location"))
		}
		// Deletion: the games stay, shown as a deleted player's.
		_, _, page = s.Get(erin, "/en/account")
		if code, _, _ := s.Post(erin, "/en/account/delete", url.Values{"_csrf": {s.Csrf(page)}, "current": {"wrong password"}}, nil); code != http.StatusUnauthorized {
			t.Errorf("delete with a wrong password: %d", code)
		}
		code, hdr, _ := s.Post(erin, "/en/account/delete", url.Values{"_csrf": {s.Csrf(page)}, "current": {"new password 123"}}, nil)
		if code != http.StatusSeeOther || s.LoggedInAs(erin) != "" {
			t.Fatalf("delete: %d %q", code, hdr.Get("Location"))
		}
		if code, _, _ := s.Get(nil, "/en/players/erin"); code != 404 {
			t.Errorf("deleted player's page: %d", code)
		}
		if _, _, page = s.Get(nil, "/en/players/frank"); !strings.Contains(page, "deleted player") || !strings.Contains(page, "outcome-won") {
			t.Errorf("frank's history:\n%s", page)
		}
		if code, _, _ := s.Login(s.Browser(), "en", "erin", "new password 123"); code != http.StatusUnauthorized {
			t.Errorf("login to a deleted account: %d", code)
		}
		if code, _, _ := s.Register(s.Browser(), "en", "Erin", handlerstest.TestPassword); code != http.StatusSeeOther {
			t.Errorf("the name is free again: %d", code)
		}
	})
}

func TestHistoryFiltersAndPages(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		s.Account("gina")
		gina, _ := db.UserByName(t.Context(), "gina")
		for i := 0; i < 25; i++ {
			g := &models.Game{Rules: []string{"abapa", "wari"}[i%2], StartPosition: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
				Position: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", Status: "over", Result: []string{"south", "north", "draw"}[i%3], Reason: "agreement"}
			g.SouthUserID = &gina.ID
			if err := db.CreateGame(t.Context(), g); err != nil {
				t.Fatal(err)
			}
		}
		_, _, page := s.Get(nil, "/en/players/gina")
		if n := strings.Count(page, "<tr class=\"outcome-"); n != 20 || !strings.Contains(page, "Games 1–20 of 25") || !strings.Contains(page, `href="/en/players/gina?page=2"`) {
			t.Errorf("page 1: %d rows", n)
		}
		// Totals: abapa i=0,2,..,24 (13 games), wari 12.
		if !strings.Contains(page, "<th scope=\"row\">Abapa (standard)</th><td>5</td><td>4</td><td>4</td>") {
			t.Errorf("totals:\n%s", page)
		}
		_, _, page = s.Get(nil, "/en/players/gina?page=2")
		if n := strings.Count(page, "<tr class=\"outcome-"); n != 5 {
			t.Errorf("page 2: %d rows", n)
		}
		_, _, page = s.Get(nil, "/en/players/gina?rules=wari&result=won")
		if n := strings.Count(page, "<tr class=\"outcome-won\">"); n != 4 || strings.Contains(page, "outcome-lost") {
			t.Errorf("wari won: %d rows", n)
		}
	})
}

// TestAccountPagesEveryLanguage renders the account pages in cs, it and en.
func TestAccountPagesEveryLanguage(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	alice, bob := s.Account("alice"), s.Account("bob")
	south, north := s.FormGameWith(alice, bob, "en", "abapa")
	id := s.PlayAndResign(south, north, 4)
	s.FormGameWith(alice, bob, "en", "wari") // in progress, on alice's own page
	for _, lang := range []string{"cs", "it", "en"} {
		for _, c := range []*http.Client{nil, alice} {
			for _, path := range []string{"/register", "/login", "/account", "/players/alice", "/players/bob?result=won",
				"/games/" + id + "/replay", "/games/" + id + "/replay?ply=0", "/games/" + id + "/replay?ply=2", "/import",
				"/import/replay?v=wari&m=FdE&s=x&ply=1", "/"} {
				code, _, page := s.Get(c, "/"+lang+path)
				if code == http.StatusSeeOther {
					continue
				}
				checkPage(t, lang, path, code, page)
			}
		}
	}
}

// TestSecureCookieOverHTTPS: served over HTTPS, the session cookie is
// Secure (and still HttpOnly, SameSite=Lax).
func TestSecureCookieOverHTTPS(t *testing.T) {
	e, err := handlers.New(handlerstest.WithServices(t, handlerstest.ModelsOpenSQLite(t), handlers.Config{BaseURL: "https://oware.example",
		Secret: []byte("0123456789abcdef0123456789abcdef"), Log: slog.New(slog.DiscardHandler)}))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest("GET", "https://oware.example/en/register", nil))
	token := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(rec.Body.String())
	if token == nil {
		t.Fatal("no CSRF token")
	}
	form := url.Values{"_csrf": {token[1]}, "username": {"secure"}, "password": {handlerstest.TestPassword}}
	req := httptest.NewRequest("POST", "https://oware.example/en/register", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, c := range rec.Result().Cookies() {
		req.AddCookie(c)
	}
	rec = httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	ck := sessionCookie(rec.Header())
	if rec.Code != http.StatusSeeOther || ck == nil || !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode {
		t.Fatalf("%d, cookie %+v", rec.Code, ck)
	}
}

// TestNamnamReplay: a finished Nam-nam game replays at every ply and
// downloads as a record that ParseRecord reads.
func TestNamnamReplay(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	alice, bob := s.Account("alice"), s.Account("bob")
	south, north := s.FormGameWith(alice, bob, "en", "namnam")
	id := south.Game[strings.LastIndex(south.Game, "/")+1:]
	g, _ := s.Db.LoadGame(t.Context(), id)
	r, err := engine.NewRules(g.Rules, g.Fours)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		g, _ = s.Db.LoadGame(t.Context(), id)
		p, _ := r.ParsePosition(g.Position)
		who := south
		if p.ToMove == engine.North {
			who = north
		}
		pit := r.LegalMoves(p).Pits()[0]
		if code, _, _ := s.Move(who, engine.Label(pit), nil); code != http.StatusSeeOther {
			t.Fatalf("move %d: %d", i+1, code)
		}
	}
	_, _, page := s.Get(south.C, south.Game+"/resign")
	s.Post(south.C, south.Game+"/resign", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	for ply := 0; ply <= 6; ply++ {
		if code, _, page := s.Get(nil, "/en/games/"+id+"/replay?ply="+strconv.Itoa(ply)); code != 200 || strings.Contains(page, missing) {
			t.Errorf("ply %d: %d", ply, code)
		}
	}
	_, _, record := s.Get(nil, "/en/games/"+id+"/record.ogn")
	if rec, err := engine.ParseRecord(record); err != nil || len(rec.Moves) != 6 {
		t.Errorf("record %v:\n%s", err, record)
	}
}

// TestLoginReturnsToThePage: the login goes back to the page it was asked
// from, never to another site.
func TestLoginReturnsToThePage(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	s.Account("hana")
	c := s.Browser()
	code, hdr, _ := s.Get(c, "/cs/account")
	if code != http.StatusSeeOther || hdr.Get("Location") != "/cs/login?next=%2Fcs%2Faccount" {
		t.Fatalf("account page of a visitor: %d %q", code, hdr.Get("Location"))
	}
	_, _, page := s.Get(c, "/en/import")
	if !strings.Contains(page, `href="/en/login?next=%2Fen%2Fimport"`) {
		t.Error("the header's login link does not come back")
	}
	for next, want := range map[string]string{"/cs/account": "/cs/account", "//evil.example/": "/en/players/hana",
		"https://evil.example/": "/en/players/hana", "/\\evil.example": "/en/players/hana"} {
		c := s.Browser()
		_, _, page := s.Get(c, "/en/login?next="+url.QueryEscape(next))
		form := url.Values{"_csrf": {s.Csrf(page)}, "username": {"hana"}, "password": {handlerstest.TestPassword}, "next": {next}}
		if code, hdr, _ := s.Post(c, "/en/login", form, nil); code != http.StatusSeeOther || hdr.Get("Location") != want {
			t.Errorf("next %q: %d %q, want %q", next, code, hdr.Get("Location"), want)
		}
	}
}

// TestRegistrationRateLimit: one address creates at most 10 accounts in a
// burst.
func TestRegistrationRateLimit(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	for i := 0; i < 10; i++ {
		s.Account("user" + strconv.Itoa(i))
	}
	if code, _, page := s.Register(s.Browser(), "it", "user10", handlerstest.TestPassword); code != http.StatusTooManyRequests || !strings.Contains(page, "Troppi tentativi") {
		t.Errorf("11th registration: %d", code)
	}
	if n := users(t, s.Db); n != 10 {
		t.Errorf("%d users", n)
	}
}

// TestSeatFollowsTheAccount: a logged-in player plays their game from
// another browser; after logout that browser is a spectator again.
func TestSeatFollowsTheAccount(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		ivan, jana := s.Account("ivan"), s.Account("jana")
		south, _ := s.FormGameWith(ivan, jana, "en", "abapa")
		other := s.Browser()
		if code, _, _ := s.Login(other, "en", "ivan", handlerstest.TestPassword); code != http.StatusSeeOther {
			t.Fatal("login")
		}
		elsewhere := handlerstest.Seated{C: other, Game: south.Game}
		if code, _, _ := s.Move(elsewhere, "C", nil); code != http.StatusSeeOther {
			t.Fatalf("move from the other browser: %d", code)
		}
		id := south.Game[strings.LastIndex(south.Game, "/")+1:]
		if n, _ := handlerstest.Stored(t, db, id); n != 1 {
			t.Fatalf("%d moves stored", n)
		}
		// The games in progress are on the player's own page only.
		if _, _, page := s.Get(jana, "/en/players/jana"); !strings.Contains(page, `href="`+south.Game+`"`) ||
			!strings.Contains(page, "opponent: ivan") || !strings.Contains(page, "your turn") {
			t.Errorf("jana's games in progress:\n%s", page)
		}
		if _, _, page := s.Get(other, "/en/players/ivan"); !strings.Contains(page, `href="`+south.Game+`"`) || strings.Contains(page, "your turn") {
			t.Errorf("ivan's games in progress")
		}
		if _, _, page := s.Get(nil, "/en/players/ivan"); strings.Contains(page, south.Game) {
			t.Errorf("a visitor sees ivan's game in progress")
		}
		_, _, page := s.Get(other, "/en/")
		s.Post(other, "/en/logout", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		_, _, page = s.Get(other, south.Game)
		if strings.Contains(page, `name="pit"`) {
			t.Error("a logged-out browser still has the seat")
		}
	})
}
