package core

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/route"
)

// The import page reads an OGN record (pasted or uploaded), keeps it in the
// imports table under a random id and redirects to its replay,
// /{lang}/import/{id}?ply=N, which shows one position and a window of the
// move list: a request carries at most maxImportBody bytes, each client
// reads and replays records within its rate limit (h.imports), a record at
// most engine.MaxRecordBytes and engine.MaxRecordMoves moves, and the
// Nam-nam checks of a record at most engine.VisitorLaps of work.

// maxImportBody bounds the body of the import form: the longest record and
// room for the rest of a multipart form.
const maxImportBody = engine.MaxRecordBytes + 64<<10

// importBody is true for the request of the import form, which has its own
// bound instead of the site's maxBody (see limitBody).
func importBody(c echo.Context) bool {
	return c.Request().Method == http.MethodPost && c.Path() == route.Lang+route.ImportPattern
}

// The bounds of a request and of its connection. A body longer than its
// bound gets 413 whether its length is announced or it comes chunked; a
// longer URL gets 414 and longer headers 431, with a localized answer up
// to MaxHeaderBytes (past that net/http answers 431 itself, in English).
const (
	// maxBody bounds the body of every request but the import form's
	// (maxImportBody).
	maxBody = 64 << 10
	// maxURL bounds the request target (path and query), in bytes.
	maxURL = 8 << 10
	// maxHeaders bounds the request line and the header fields together,
	// in bytes.
	maxHeaders = 16 << 10
	// maxAcceptLanguage bounds the Accept-Language header (its lines
	// together, bytes): a longer one (no browser sends a tenth of it) is
	// dropped, as if the request had none, and counts in no bound.
	maxAcceptLanguage = 2 << 10
	// MaxHeaderBytes is the server's own bound of the request line and
	// the headers (net/http adds 4 KiB of slack).
	MaxHeaderBytes = 32 << 10
	// ReadHeaderTimeout bounds reading the request line and headers.
	ReadHeaderTimeout = 10 * time.Second
	// ReadTimeout bounds reading a whole request, its body included: a
	// body sent slowly is cut off (the import form has importReadTimeout).
	// net/http lifts it once the body is read, so it never cuts an event
	// stream.
	ReadTimeout = 30 * time.Second
	// importReadTimeout bounds reading the import form's request, from the
	// end of its headers.
	importReadTimeout = 2 * time.Minute
	// WriteTimeout bounds writing the answer, from the end of the
	// request's headers. Event streams extend it before each event.
	WriteTimeout = 60 * time.Second
	// IdleTimeout bounds how long a kept-alive connection waits for the
	// next request.
	IdleTimeout = 2 * time.Minute
)

// Refusals of requests that are too large.
var (
	errTooLarge     = &UserError{http.StatusRequestEntityTooLarge, "err_too_large"}
	errURLTooLong   = &UserError{http.StatusRequestURITooLong, "err_url_too_long"}
	errHeadersLarge = &UserError{http.StatusRequestHeaderFieldsTooLarge, "err_headers_too_large"}
	errBodyTimeout  = &UserError{http.StatusRequestTimeout, "err_body_timeout"}
)

// LimitServer sets the timeouts and the header bound of the site's
// server (the constants above); event streams extend their write deadline
// before each event.
func LimitServer(srv *http.Server) {
	srv.ReadHeaderTimeout = ReadHeaderTimeout
	srv.ReadTimeout = ReadTimeout
	srv.WriteTimeout = WriteTimeout
	srv.IdleTimeout = IdleTimeout
	srv.MaxHeaderBytes = MaxHeaderBytes
}

// limitHead refuses a request whose target is longer than maxURL (414) or
// whose request line and headers are longer than maxHeaders (431). An
// Accept-Language longer than maxAcceptLanguage is dropped first: the
// page comes in the default language, never refused.
func limitHead(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if len(r.RequestURI) > maxURL {
			return errURLTooLong
		}
		al := 0
		for _, v := range r.Header["Accept-Language"] {
			al += len(v)
		}
		if al > maxAcceptLanguage {
			delete(r.Header, "Accept-Language")
		}
		n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + len(r.Host)
		for k, vs := range r.Header {
			for _, v := range vs {
				n += len(k) + len(v) + 4
			}
		}
		if n > maxHeaders {
			return errHeadersLarge
		}
		return next(c)
	}
}

// bodyKey is the echo.Context key of the request's *limitedBody.
const bodyKey = "body"

// limitBody bounds the request's body to maxBody (maxImportBody for the
// import form): a body announced longer is refused at once, and a body
// that turns out longer while it is read (chunked) gets 413 whatever the
// handler made of it, unless it has answered already; a body whose
// reading timed out gets 408.
func limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		limit := int64(maxBody)
		if importBody(c) {
			// A record of a megabyte may come slowly from a phone.
			limit = maxImportBody
			_ = http.NewResponseController(c.Response()).SetReadDeadline(time.Now().Add(importReadTimeout))
		}
		if r.ContentLength > limit {
			return errTooLarge
		}
		if r.Body == nil || r.Body == http.NoBody {
			return next(c)
		}
		lb := &limitedBody{ReadCloser: http.MaxBytesReader(unwrap(c.Response()), r.Body, limit)}
		r.Body = lb
		c.Set(bodyKey, lb)
		err := next(c)
		if err != nil && !lb.over && !lb.timeout && !c.Response().Committed {
			// A refusal (bad JSON, say) before the end of the body: the
			// body still gets 413 if it is too long.
			_, _ = io.Copy(io.Discard, lb)
		}
		switch {
		case c.Response().Committed:
		case lb.over:
			return errTooLarge
		case lb.timeout:
			return errBodyTimeout
		}
		return err
	}
}

// unwrap returns the innermost of response writers wrapped in each other
// (Unwrap): net/http's, which closes the connection after a body over its
// bound (http.MaxBytesReader).
func unwrap(w http.ResponseWriter) http.ResponseWriter {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// limitedBody is a body read through http.MaxBytesReader that remembers
// whether it went over its bound, or its reading timed out (ReadTimeout).
type limitedBody struct {
	io.ReadCloser
	over, timeout bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		b.over = true
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		b.timeout = true
	}
	return n, err
}

// BodyTooLarge reports whether the request's body went over its bound.
func BodyTooLarge(c echo.Context) bool {
	lb, _ := c.Get(bodyKey).(*limitedBody)
	return lb != nil && lb.over
}
