package handlerstest

import (
	"net/http"
	"net/url"
)

// Answer posts an answer to a tutorial step (no JavaScript: a form POST)
// and returns the status and the page.
func (s *Site) Answer(c *http.Client, path string, form url.Values, htmx bool) (int, string) {
	s.T.Helper()
	if c == nil {
		c = s.Browser()
	}
	_, _, page := s.Get(c, path)
	form.Set("_csrf", s.Csrf(page))
	var hdr map[string]string
	if htmx {
		hdr = map[string]string{"HX-Request": "true"}
	}
	code, _, out := s.Post(c, path, form, hdr)
	return code, out
}
