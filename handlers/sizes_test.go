package handlers_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/models"
	"oware/models/modelstest"
)

// chunked returns a reader of n bytes of s repeated whose length the HTTP
// client does not know, so that it sends the body chunked.
func chunked(s string, n int) io.Reader {
	return io.MultiReader(strings.NewReader(strings.Repeat(s, n/len(s)+1)[:n]))
}

// TestBodyTooLarge: a body over the limit gets 413 whether its length is
// announced or it comes chunked, on a form, the JSON API and the import
// form (whose limit is larger), and stores nothing.
func TestBodyTooLarge(t *testing.T) {
	s := newSite(t, modelstest.Open(t, models.SQLite))
	c := s.browser()
	_, _, page := s.get(c, "/en/games/new")
	form := "_csrf=" + url.QueryEscape(s.csrf(page)) + "&rules=abapa&seat=south&x="
	over := 64<<10 + 1
	importOver := (1 << 20) + 64<<10 + 1
	for _, tc := range []struct {
		name, path, ctype, head string
		size                    int
	}{
		{"form", "/en/games/new", "application/x-www-form-urlencoded", form, over},
		{"api", "/api/v1/games", "application/json", `{"rules":"abapa","x":"`, over},
		{"import", "/en/import", "application/x-www-form-urlencoded", "_csrf=" + url.QueryEscape(s.csrf(page)) + "&record=", importOver},
	} {
		for _, chunk := range []bool{false, true} {
			body := io.MultiReader(strings.NewReader(tc.head), chunked("a", tc.size-len(tc.head)))
			if !chunk {
				b, _ := io.ReadAll(body)
				body = strings.NewReader(string(b))
			}
			code, _, text := s.do(c, http.MethodPost, tc.path, body, map[string]string{"Content-Type": tc.ctype})
			if code != http.StatusRequestEntityTooLarge {
				t.Errorf("%s (chunked %v): %d, want 413: %.200s", tc.name, chunk, code, text)
			}
		}
	}
	var games int64
	if err := s.db.Gorm.Model(&models.Game{}).Count(&games).Error; err != nil {
		t.Fatal(err)
	}
	if games != 0 {
		t.Errorf("%d games stored by refused bodies", games)
	}
}
