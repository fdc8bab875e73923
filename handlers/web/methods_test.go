package web_test

import (
	"net/http"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// TestMethodNotAllowed: a method that a served path does not serve is 405
// with Allow (HEAD with GET, a HEAD being served as a GET): the API's JSON
// error, a page in the prefix's language; a path served by no route, or
// under an unknown language, stays 404.
func TestMethodNotAllowed(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		const apiBody = `{"error":"This address exists, but not for this kind of request."}`
		for _, c := range []struct{ method, path, allow string }{
			{http.MethodPost, "/api/v1/analysis", "OPTIONS, GET, HEAD"},
			{http.MethodDelete, "/api/v1/games/abc", "OPTIONS, GET, HEAD"},
			{http.MethodGet, "/api/v1/games/abc/moves", "OPTIONS, POST"},
			{http.MethodPut, "/api/v1/challenges/c1", "OPTIONS, DELETE, GET, HEAD"},
		} {
			code, hdr, body := s.Do(nil, c.method, c.path, nil, nil)
			if code != http.StatusMethodNotAllowed || hdr.Get("Allow") != c.allow || strings.TrimSpace(body) != apiBody ||
				!strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
				t.Errorf("%s %s: %d, Allow %q, %s %q; want 405, Allow %q, %s", c.method, c.path, code, hdr.Get("Allow"),
					hdr.Get("Content-Type"), body, c.allow, apiBody)
			}
		}
		for _, c := range []struct{ method, path, allow, lang, title, text string }{
			{http.MethodGet, "/en/games/abc/moves", "OPTIONS, POST", "en", "Request not supported",
				"This address exists, but not for this kind of request."},
			{http.MethodPost, "/cs/rules", "OPTIONS, GET, HEAD", "cs", "Nepodporovaný požadavek",
				"Tato adresa existuje, ale takový požadavek nepřijímá."},
			{http.MethodDelete, "/it/games/new", "OPTIONS, GET, POST, HEAD", "it", "Richiesta non supportata",
				"Questo indirizzo esiste, ma non accetta questo tipo di richiesta."},
		} {
			code, hdr, page := s.Do(nil, c.method, c.path, nil, nil)
			if code != http.StatusMethodNotAllowed || hdr.Get("Allow") != c.allow {
				t.Errorf("%s %s: %d, Allow %q; want 405, Allow %q", c.method, c.path, code, hdr.Get("Allow"), c.allow)
			}
			for _, w := range []string{`<html lang="` + c.lang + `">`, "<title>" + c.title + " · Oware</title>", "<p>" + c.text + "</p>",
				`<meta name="robots" content="noindex">`} {
				if !strings.Contains(page, w) {
					t.Errorf("%s %s: no %s", c.method, c.path, w)
				}
			}
		}
		for _, c := range []struct{ method, path string }{
			{http.MethodPost, "/xx/rules"},
			{http.MethodGet, "/xx/games/abc/moves"},
			{http.MethodPost, "/api/v1/nosuch"},
		} {
			if code, hdr, _ := s.Do(nil, c.method, c.path, nil, nil); code != http.StatusNotFound || hdr.Get("Allow") != "" {
				t.Errorf("%s %s: %d, Allow %q; want 404 without Allow", c.method, c.path, code, hdr.Get("Allow"))
			}
		}
	})
}

// TestOptionsAllow: OPTIONS on a served path answers 204 with the Allow
// a 405 would give, HEAD listed with GET (docs/api.md, Errors).
func TestOptionsAllow(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	for _, c := range []struct{ path, allow string }{
		{"/api/v1/games/abc", "OPTIONS, GET, HEAD"},
		{"/en/rules", "OPTIONS, GET, HEAD"},
		{"/api/v1/games/abc/moves", "OPTIONS, POST"},
	} {
		if code, hdr, _ := s.Do(nil, http.MethodOptions, c.path, nil, nil); code != http.StatusNoContent || hdr.Get("Allow") != c.allow {
			t.Errorf("OPTIONS %s: %d, Allow %q; want 204, Allow %q", c.path, code, hdr.Get("Allow"), c.allow)
		}
	}
}

// TestEncodedSlashInLang: "/en%2Frules" is no language: 404, not a
// redirect to "/en%252Frules/" (the escaped slash escaped again).
func TestEncodedSlashInLang(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	for _, p := range []string{"/en%2Frules", "/en%2F"} {
		if code, hdr, _ := s.Do(nil, http.MethodGet, p, nil, nil); code != http.StatusNotFound || hdr.Get("Location") != "" {
			t.Errorf("GET %s: %d, Location %q; want 404", p, code, hdr.Get("Location"))
		}
	}
}
