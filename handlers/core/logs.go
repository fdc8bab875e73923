package core

import (
	"log/slog"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"oware/route"
)

// logURIBytes is how much of a request target the log keeps.
const logURIBytes = 256

// resetPath starts the path of a password reset link, whose last segment
// is the token.
const resetPath = route.PasswordResetPattern + "/"

// logURI is a request target as the log keeps it: a password reset link's
// token hidden (the link stays usable for an hour), at most logURIBytes
// bytes, and a note of the length when it was cut.
func logURI(uri string) string {
	if i := strings.Index(uri, resetPath); i >= 0 && len(uri) > i+len(resetPath) {
		uri = uri[:i+len(resetPath)] + "…"
	}
	if len(uri) <= logURIBytes {
		return uri
	}
	cut := logURIBytes
	for cut > 0 && !utf8.RuneStart(uri[cut]) {
		cut--
	}
	return uri[:cut] + "…[cut, " + strconv.Itoa(len(uri)) + " bytes]"
}

// logRequest logs msg at level with the request's method and target (as
// logURI keeps it) and the attributes args, on the request's context (its
// id, LogHandler).
func (h *Handlers) logRequest(c echo.Context, level slog.Level, msg string, args ...any) {
	r := c.Request()
	h.Log.Log(r.Context(), level, msg, append([]any{"method", r.Method, "uri", logURI(r.RequestURI)}, args...)...)
}
