package api_test

import (
	"net/http"
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
