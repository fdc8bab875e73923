package core

import (
	"context"
	"crypto/rand"
	"log/slog"
	"strings"

	"github.com/labstack/echo/v4"
)

// LogHandler wraps h so that every record logged with the context of a
// request carries its id (attribute request_id).
func LogHandler(h slog.Handler) slog.Handler {
	if _, ok := h.(requestIDHandler); ok {
		return h
	}
	return requestIDHandler{h}
}

// requestIDHandler adds the request id of a record's context.
type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id, ok := ctx.Value(requestIDKey{}).(string); ok {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}

// requestIDKey is the context key of the request's id.
type requestIDKey struct{}

// maxRequestID bounds the length of an id taken from a proxy.
const maxRequestID = 64

// requestID gives every request an id, answered in X-Request-Id and put on
// the request's context (see LogHandler): the X-Request-Id of the reverse
// proxy when the site is behind one (Config.BehindProxy) and the id is
// sane (1 to 64 letters, digits and ".-_:"), else a new random one.
func (h *Handlers) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		id := r.Header.Get(echo.HeaderXRequestID)
		if !h.BehindProxy || !saneRequestID(id) {
			id = rand.Text()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		c.SetRequest(r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
		return next(c)
	}
}

// saneRequestID reports whether id may be used as a request id as it is.
func saneRequestID(id string) bool {
	if id == "" || len(id) > maxRequestID {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_:", r)
		if !ok {
			return false
		}
	}
	return true
}
