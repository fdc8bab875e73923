package core_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/handlers"
	"oware/handlers/handlerstest"
)

// wantCSP is the Content-Security-Policy every answer carries: the site's
// own scripts, styles, images, fonts, manifest and connections only, no
// inline code, no frames.
const wantCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"font-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// TestSecurityHeaders requests every kind of answer (a page, a form's
// refusal, a redirect, the JSON API and its errors, a static file, a fixed
// asset, an error page, a too-large body, the health check, HEAD and an
// event stream) and checks the security headers of each; HSTS only with
// an https base URL.
func TestSecurityHeaders(t *testing.T) {
	for _, base := range []string{"", "https://oware.example"} {
		s := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) {
			if base != "" {
				c.BaseURL = base
			}
		})
		id, _, _ := s.NewAPIGame("abapa")
		_, _, home := s.Get(nil, "/en/")
		css := regexp.MustCompile(`href="(/static/app\.[^"]+\.css)"`).FindStringSubmatch(home)
		if css == nil {
			t.Fatal("no style sheet in the home page")
		}
		for _, tc := range []struct {
			name, method, path string
			body               io.Reader
			hdr                map[string]string
		}{
			{"page", "GET", "/en/rules", nil, nil},
			{"home", "GET", "/", nil, nil},
			{"redirect", "GET", "/en", nil, nil},
			{"head", "HEAD", "/en/lobby", nil, nil},
			{"form refused", "POST", "/en/games/new", strings.NewReader("rules=abapa"), map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},
			{"api", "GET", "/api/v1/games/" + id, nil, nil},
			{"api error", "GET", "/api/v1/games/nosuchgame00", nil, nil},
			{"api post", "POST", "/api/v1/games", strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json"}},
			{"static", "GET", css[1], nil, nil},
			{"fixed asset", "GET", "/favicon.ico", nil, nil},
			{"not found", "GET", "/en/no-such-page", nil, nil},
			{"too large", "POST", "/api/v1/games", strings.NewReader(strings.Repeat("x", 65<<10)), map[string]string{"Content-Type": "application/json"}},
			{"healthz", "GET", "/healthz", nil, nil},
			{"openapi", "GET", "/api/v1/openapi.json", nil, nil},
			{"events", "GET", "/en/games/" + id + "/events", nil, nil},
		} {
			req, err := http.NewRequestWithContext(t.Context(), tc.method, s.Srv.URL+tc.path, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.hdr {
				req.Header.Set(k, v)
			}
			res, err := s.Browser().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close() // the event stream too: its headers are in
			h := res.Header
			name := tc.name + " " + tc.path + " (" + base + ")"
			if res.StatusCode >= 500 {
				t.Errorf("%s: status %d", name, res.StatusCode)
			}
			for k, want := range map[string]string{
				"Content-Security-Policy":    wantCSP,
				"X-Frame-Options":            "DENY",
				"X-Content-Type-Options":     "nosniff",
				"Cross-Origin-Opener-Policy": "same-origin",
				"Referrer-Policy":            "same-origin",
			} {
				if got := h.Get(k); got != want {
					t.Errorf("%s: %s %q, want %q", name, k, got, want)
				}
			}
			pp := h.Get("Permissions-Policy")
			for _, f := range []string{"camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"} {
				if !strings.Contains(pp, f) {
					t.Errorf("%s: Permissions-Policy %q without %s", name, pp, f)
				}
			}
			hsts := h.Get("Strict-Transport-Security")
			if base == "" && hsts != "" {
				t.Errorf("%s: HSTS %q with an http base URL", name, hsts)
			}
			if base != "" && hsts != "max-age=31536000" {
				t.Errorf("%s: HSTS %q with an https base URL, want a year", name, hsts)
			}
			if h.Get("X-Request-Id") == "" {
				t.Errorf("%s: no X-Request-Id", name)
			}
		}
	}
}

// TestOriginCheck: a state-changing request whose Origin is another site's
// (or "null") is refused with 403 and the localized CSRF error, before
// anything changes; the site's own origin, the address the request was
// sent to and no Origin at all pass.
func TestOriginCheck(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, nil)
	c := s.Browser()
	_, _, page := s.Get(c, "/cs/games/new")
	form := url.Values{"_csrf": {s.Csrf(page)}, "rules": {"abapa"}, "seat": {"south"}}
	for _, o := range []string{"http://evil.example", "null", "https://" + s.Srv.Listener.Addr().String(), s.Srv.URL + ".evil.example"} {
		code, _, text := s.Post(c, "/cs/games/new", form, map[string]string{"Origin": o})
		if code != http.StatusForbidden || !strings.Contains(text, "Platnost formuláře vypršela") {
			t.Errorf("form with Origin %q: %d: %.200s", o, code, text)
		}
		code, _, text = s.Do(nil, "POST", "/api/v1/games", strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json", "Origin": o})
		if code != http.StatusForbidden || !strings.Contains(text, `"error"`) {
			t.Errorf("API with Origin %q: %d: %.200s", o, code, text)
		}
	}
	var games int64
	if err := s.Db.Gorm.Table("games").Count(&games).Error; err != nil || games != 0 {
		t.Fatalf("%d games stored by refused requests (%v)", games, err)
	}
	for _, o := range []string{s.Srv.URL, strings.ToUpper(s.Srv.URL), ""} {
		code, hdr, _ := s.Post(c, "/cs/games/new", form, map[string]string{"Origin": o})
		if code != http.StatusSeeOther {
			t.Errorf("form with Origin %q: %d, want 303 to the game (%s)", o, code, hdr.Get("Location"))
		}
	}
	// A site reached by another name than its base URL (its address on a
	// local network) takes forms sent from that name.
	other := handlerstest.LimitedSite(t, io.Discard, nil, func(c *handlers.Config) { c.BaseURL = "http://localhost:8080" })
	oc := other.Browser()
	_, _, page = other.Get(oc, "/en/games/new")
	code, _, _ := other.Post(oc, "/en/games/new", url.Values{"_csrf": {other.Csrf(page)}, "rules": {"abapa"}, "seat": {"south"}},
		map[string]string{"Origin": other.Srv.URL})
	if code != http.StatusSeeOther {
		t.Errorf("form from the address the site was reached at: %d, want 303", code)
	}
}
