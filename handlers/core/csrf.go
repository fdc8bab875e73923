package core

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"reflect"

	"github.com/labstack/echo/v4"
)

// NewCSRFKey returns the key of the forms' CSRF tokens, derived from the
// site's secret (Handlers.CSRFKey).
func NewCSRFKey(secret []byte) []byte { return derive(secret, "oware csrf key") }

// csrf gives a page's forms their CSRF token and refuses a state-changing
// form (not the API, whose bearer tokens no other site holds) whose
// _csrf field is not it: 403 with err_csrf, nothing changed. The token is
// bound to the session: an HMAC of the visitor id and the session id
// that the signed session cookie holds (issue 30: a token planted in a
// cookie of its own used to pass with the same form value). It changes
// at login (Renew) and logout, and a visitor without an id yet (no page
// seen) has none that a form could carry. requireCSRFToken, earlier,
// refuses cross-site posts and tokens in the URL. A method the path does
// not serve is not checked: its answer, 405, changes nothing either; nor
// is a path no route serves, or one under a language the site does not
// speak: it gets the 404 page a GET of it gets.
func (h *Handlers) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if notPage(c) {
			return next(c)
		}
		sess := h.Visit(c).Sess
		token := ""
		if v := sess.Visitor(); v != "" {
			token = csrfToken(h.CSRFKey, v, sess.str(keySID))
		}
		c.Set("csrf", token)
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
			return next(c)
		}
		if _, ok := c.Get(echo.ContextKeyHeaderAllow).(string); ok {
			return next(c) // a method the path does not serve: the 405 changes nothing
		}
		if seg, _ := pathLang(c); !routed(c) || underLang(c) && !ValidLang(seg) {
			return next(c) // no such page (CheckLang, Echo): the 404 changes nothing
		}
		if got := c.FormValue("_csrf"); token == "" || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			return &UserError{http.StatusForbidden, "err_csrf"}
		}
		return next(c)
	}
}

// notFound is the code pointer of the handler Echo's router gives a
// request that no route serves.
var notFound = reflect.ValueOf(echo.NotFoundHandler).Pointer()

// routed reports whether a route serves c's path (with some method): its
// handler is not Echo's NotFoundHandler.
func routed(c echo.Context) bool { return reflect.ValueOf(c.Handler()).Pointer() != notFound }

// csrfToken is the token of the session of visitor and session id sid
// under key: 43 characters of URL-safe base64.
func csrfToken(key []byte, visitor, sid string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(visitor))
	m.Write([]byte{0})
	m.Write([]byte(sid))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
