package handlerstest

import (
	"net/http"
	"net/url"
)

// AskReset sends the form of the reset request page in lang for email.
func (s *Site) AskReset(c *http.Client, lang, email string) (int, string) {
	s.T.Helper()
	_, _, page := s.Get(c, "/"+lang+"/password-reset")
	code, _, body := s.Post(c, "/"+lang+"/password-reset", url.Values{"_csrf": {s.Csrf(page)}, "email": {email}}, nil)
	return code, body
}

// SetPassword sends the form of a reset link's page.
func (s *Site) SetPassword(c *http.Client, link, password string) (int, string) {
	s.T.Helper()
	_, _, page := s.Get(c, "/en/")
	code, _, body := s.Post(c, link, url.Values{"_csrf": {s.Csrf(page)}, "username": {"x"}, "password": {password}}, nil)
	return code, body
}

// SetEmail sends the account page's email form.
func (s *Site) SetEmail(c *http.Client, email, current string) (int, string) {
	s.T.Helper()
	_, _, page := s.Get(c, "/en/account")
	code, _, body := s.Post(c, "/en/account/email", url.Values{"_csrf": {s.Csrf(page)}, "email": {email}, "current": {current}}, nil)
	return code, body
}
