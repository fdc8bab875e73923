package handlerstest

import (
	"net/http"
	"net/url"
)

// CreateChallenge opens a challenge through the lobby's form in client c
// (extra fields added to a 5+3 Abapa one) and returns the answer.
func (s *Site) CreateChallenge(c *http.Client, extra url.Values) (int, http.Header, string) {
	s.T.Helper()
	_, _, page := s.Get(c, "/en/lobby")
	form := url.Values{"_csrf": {s.Csrf(page)}, "rules": {"abapa"}, "seat": {"random"}, "clock": {"5+3"}}
	for k, v := range extra {
		form[k] = v
	}
	return s.Post(c, "/en/lobby/challenges", form, nil)
}
