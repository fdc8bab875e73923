package core

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// contentSecurityPolicy allows the site's own scripts, styles, images
// (and data: images), fonts, manifest and connections (htmx, the event
// streams) only: no inline script or style, no frames, forms only to the
// site itself.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// permissionsPolicy denies the powerful browser features the site does
// not use.
const permissionsPolicy = "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), " +
	"hid=(), magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=()"

// hsts is the Strict-Transport-Security of a site whose base URL is https:
// a year.
const hsts = "max-age=31536000"

// securityHeaders sets the headers of every answer (pages, the API, static
// files, errors, event streams): the Content-Security-Policy, no framing,
// no MIME sniffing, the referrer only to the site itself, a browsing
// context of its own, the denied features, and HSTS when the base URL is
// https. The values are shared by every answer (the header map holds
// them as they are: nothing is allocated per request); a handler may
// replace one (AllowFraming), never change it in place.
func (h *Handlers) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	https := strings.HasPrefix(h.Base, "https://")
	return func(c echo.Context) error {
		hdr := c.Response().Header()
		for _, kv := range securityHeaderValues {
			hdr[kv.key] = kv.value // keys canonical (securityHeaderValues)
		}
		if https {
			hdr["Strict-Transport-Security"] = hstsValue
		}
		return next(c)
	}
}

// securityHeaderValues are securityHeaders' headers but HSTS, with their
// keys in canonical form (canonicalKeys); hstsValue is HSTS's value.
var (
	securityHeaderValues = canonicalKeys([]headerValue{
		{"Content-Security-Policy", []string{contentSecurityPolicy}},
		{echo.HeaderXFrameOptions, []string{"DENY"}},
		{echo.HeaderXContentTypeOptions, []string{"nosniff"}},
		{echo.HeaderXXSSProtection, []string{"0"}},
		{echo.HeaderReferrerPolicy, []string{"same-origin"}},
		{"Cross-Origin-Opener-Policy", []string{"same-origin"}},
		{"Permissions-Policy", []string{permissionsPolicy}},
	})
	hstsValue = []string{hsts}
)

// headerValue is a header's key and its values.
type headerValue struct {
	key   string
	value []string
}

// canonicalKeys returns hs with their keys in canonical form, as
// http.Header.Set writes them ("X-Xss-Protection").
func canonicalKeys(hs []headerValue) []headerValue {
	for i := range hs {
		hs[i].key = http.CanonicalHeaderKey(hs[i].key)
	}
	return hs
}

// origin returns the origin (scheme://host[:port], lower case, without
// the default port) of an absolute URL, or "" when it has none.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	host := strings.ToLower(u.Host)
	if u.Scheme == "http" {
		host = strings.TrimSuffix(host, ":80")
	} else {
		host = strings.TrimSuffix(host, ":443")
	}
	return u.Scheme + "://" + host
}

// sameOrigin reports whether the Origin header of r, when present, is the
// site's: the base URL's origin, or the address the request was sent to
// (with the base URL's scheme), for a site reached by another name than
// its base URL on a local network. A missing Origin passes (the CSRF
// token decides); "null" does not.
func (h *Handlers) sameOrigin(r *http.Request) bool {
	o := r.Header.Get(echo.HeaderOrigin)
	if o == "" {
		return true
	}
	got, base := origin(o), origin(h.Base)
	if got == "" {
		return false
	}
	scheme, _, _ := strings.Cut(base, "://")
	return got == base || got == origin(scheme+"://"+r.Host)
}

// embedCSP is the Content-Security-Policy of the embeds: the site's, but
// any page may frame them (frame-ancestors *).
var embedCSP = strings.Replace(contentSecurityPolicy, "frame-ancestors 'none'", "frame-ancestors *", 1)

// AllowFraming lets any site frame the answer: the embeds alone
// (/embed/..., issue 36) call it; every other answer keeps refusing it.
func AllowFraming(c echo.Context) {
	hdr := c.Response().Header()
	hdr.Set("Content-Security-Policy", embedCSP)
	hdr.Del(echo.HeaderXFrameOptions)
}
