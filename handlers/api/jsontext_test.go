package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestJSONBodyNUL: a NUL character in a JSON body (the escape \u0000,
// which PostgreSQL refuses in text) is a bad request on every dialect, as
// in a form, never a 500; "\\u0000" (a backslash, then "u0000") is text.
func TestJSONBodyNUL(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		for _, body := range []map[string]any{
			{"rules": "abapa", "for": "a\x00b"},
			{"rules": "abapa", "seat": "south\x00"},
		} {
			if code, out := s.Api("POST", "/api/v1/challenges", "", body); code != http.StatusBadRequest {
				t.Errorf("%q: %d %v, want 400", body, code, out)
			}
		}
		if code, out := s.Api("POST", "/api/v1/challenges", "", map[string]any{"rules": "abapa", "for": `a\u0000b`}); code != http.StatusNotFound {
			t.Errorf(`"a\\u0000b" (no such player): %d %v, want 404`, code, out)
		}
	})
}

// TestMoveBody: a move's body {"pit":"X"} as every client writes it is
// read without the JSON decoder (bindPit), and answers as the decoder's
// reading of the same move written otherwise: spaces, an escape, another
// label, a malformed body.
func TestMoveBody(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		id, south, north := s.NewAPIGame("abapa")
		move := func(token, body string) (int, string) {
			t.Helper()
			code, _, out := s.Do(nil, "POST", "/api/v1/games/"+id+"/moves", strings.NewReader(body),
				map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + token})
			return code, out
		}
		refused, _ := move(south, `{"pit":"Z"}`)
		if code, out := move(south, `{ "pit" : "Z" }`); refused == http.StatusOK || code != refused {
			t.Errorf(`pit "Z": %d as it is written, %d %s decoded; want the same refusal`, refused, code, out)
		}
		if code, out := move(south, `{"pit":"CC"}`); code != refused {
			t.Errorf(`pit "CC": %d %s, want %d`, code, out, refused)
		}
		if code, out := move(south, `{"pit":"C"`); code != http.StatusBadRequest {
			t.Errorf(`malformed: %d %s, want 400`, code, out)
		}
		for _, m := range []struct{ token, body string }{
			{south, `{"pit":"C"}`}, {north, `{ "pit" : "c" }`}, {south, `{"pit":"\u0044"}`}, {north, `{"pit":"d"}`},
		} {
			if code, out := move(m.token, m.body); code != http.StatusOK {
				t.Fatalf("%s: %d %s", m.body, code, out)
			}
		}
		code, g := s.Api("GET", "/api/v1/games/"+id, south, nil)
		if moves := fmt.Sprint(g["moves"]); code != http.StatusOK || moves != "[C c D d]" {
			t.Errorf("the game: %d, moves %s, want [C c D d]", code, moves)
		}
	})
}

// TestJSONTrailingData: a JSON body followed by anything but spaces (junk,
// a second value) is malformed: 400 with the API's JSON error, and nothing
// is done: no move stored, no resignation, the game's version unchanged.
func TestJSONTrailingData(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		id, south, _ := s.NewAPIGame("abapa")
		_, version := handlerstest.Stored(t, db, id)
		post := func(path, body string) (int, string) {
			t.Helper()
			code, _, out := s.Do(nil, "POST", "/api/v1/games/"+id+path, strings.NewReader(body),
				map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + south})
			return code, out
		}
		const refusal = `{"error":"The request was not understood."}`
		for _, c := range []struct{ path, body string }{
			{"/moves", `{"pit":"A"}xyz`}, {"/moves", `{"pit":"A"}{"pit":"B"}`}, {"/moves", `{"pit":"A"} x`},
			{"/moves", `{"pit":"A"}]`}, {"/moves", `{ "pit": "A" }{}`}, {"/moves", `{"pit":"A"}` + "\n" + `{"pit":"A"}`},
			{"/resign", `{"version":` + fmt.Sprint(version) + `}x`}, {"/resign", `{}{}`},
		} {
			if code, out := post(c.path, c.body); code != http.StatusBadRequest || strings.TrimSpace(out) != refusal {
				t.Errorf("%s %q: %d %s, want 400 %s", c.path, c.body, code, out, refusal)
			}
		}
		if n, v := handlerstest.Stored(t, db, id); n != 0 || v != version {
			t.Errorf("after refused bodies: %d moves, version %d; want 0, %d", n, v, version)
		}
		// Spaces after the value are no junk.
		if code, out := post("/moves", `{"pit":"A"}`+" \r\n\t"); code != http.StatusOK {
			t.Errorf("a move with trailing spaces: %d %s, want 200", code, out)
		}
	})
}
