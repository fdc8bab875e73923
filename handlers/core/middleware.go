package core

import (
	"bytes"
	"context"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"oware/accounts"
	"oware/locales"
	"oware/route"
	"oware/static"
)

// Middleware installs what runs before every handler: HEAD as GET, the
// request id (requestid.go), the security headers (headers.go), recovery,
// the request log, compression, the bounds of the URL, headers and body
// (sizes.go), the text check, the CSRF check of forms, and the visit
// (language, localizer, session and user) of every page.
func (h *Handlers) Middleware(e *echo.Echo) {
	e.Pre(headAsGet)
	e.Use(h.requestID)
	e.Use(h.securityHeaders)
	e.Use(middleware.Recover())
	e.Use(middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		// A static file is logged only at debug level: its answer is a
		// copy of bytes ready in memory, and the log line would cost more.
		Skipper: func(c echo.Context) bool {
			return isStatic(c) && !h.Log.Enabled(c.Request().Context(), slog.LevelDebug)
		},
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogError: true,
		HandleError: true, // log the status the error handler answers with
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if isStatic(c) {
				level = slog.LevelDebug
			}
			h.Log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", v.Method), slog.String("uri", logURI(v.URI)),
				slog.Int("status", v.Status), slog.Duration("latency", v.Latency))
			return nil
		},
	}))
	e.Use(h.compress())
	e.Use(limitHead)
	e.Use(limitBody)
	e.Use(rejectBadText)
	e.Use(h.requireCSRFToken)
	e.Use(h.visitor)
	e.Use(h.csrf)
}

// compress compresses replies with gzip (klauspost/compress's gzhttp: a
// fast gzip, Accept-Encoding read with its qualities), except a reply of
// less than static.MinCompress bytes (it fits in a packet as it is), a
// reply already encoded (static files and the pages kept, compressed once
// at their best) and the event streams. Static files do not even go
// through the compressor's wrapper, nor do the routes that answer with
// Answer (SelfCompressed), which compresses a body it holds whole.
func (h *Handlers) compress() echo.MiddlewareFunc {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(static.MinCompress), gzhttp.EnableZstd(false))
	if err != nil {
		panic(err) // the options are constants
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if isStatic(c) || h.selfCompressed[c.Path()] || isEventStream(c) {
				return next(c)
			}
			// An error is answered here, through the compressor, which
			// is done once ServeHTTP returns.
			rw := c.Response().Writer
			defer func() { c.Response().Writer = rw }()
			wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				c.Response().Writer = w
				if err := next(c); err != nil {
					c.Error(err)
				}
			})).ServeHTTP(rw, c.Request())
			return nil
		}
	}
}

// SelfCompressed marks the route path (echo's c.Path), whose every answer
// but an error's is written with Answer, before the site serves: the
// compress middleware leaves it alone.
func (h *Handlers) SelfCompressed(path string) {
	if h.selfCompressed == nil {
		h.selfCompressed = map[string]bool{}
	}
	h.selfCompressed[path] = true
}

// Header values shared by every answer that sets them (never changed).
var (
	varyAcceptEncoding = []string{"Accept-Encoding"}
	encodingGzip       = []string{"gzip"}
)

// Answer writes body, of the media type ctype, with status code: as it is
// when it is shorter than static.MinCompress, or a JSON body shorter than
// plainJSON, or the client takes no gzip; else compressed (at gzhttp's
// level) with a pooled writer. Its route is marked SelfCompressed (the
// compress middleware would buffer it again).
func Answer(c echo.Context, code int, ctype string, body []byte) error {
	hdr := c.Response().Header()
	hdr["Vary"] = varyAcceptEncoding
	if len(body) >= minCompress(ctype) && acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		z := gzips.Get().(*gzipBuffer)
		defer gzips.Put(z)
		z.buf.Reset()
		z.w.Reset(&z.buf)
		_, _ = z.w.Write(body)
		_ = z.w.Close()
		hdr[echo.HeaderContentEncoding] = encodingGzip
		body = z.buf.Bytes()
	}
	hdr[echo.HeaderContentLength] = []string{strconv.Itoa(len(body))}
	return c.Blob(code, ctype, body)
}

// plainJSON (bytes) is the size under which Answer sends a JSON body as it
// is. An API move's answer carries the game's moves list and passes
// static.MinCompress near ply 300 (2.6 KB at ply 600); compressing it
// there made a move 130-150 µs slower from that ply on (issue 37,
// docs/performance.md). BenchmarkAnswer (answer_bench_test.go, 2 cores
// at load 10) puts gzip and the client's gunzip at 11-18 µs for 600
// bytes, 29-46 µs for 2.6 KB and 49-80 µs for 8 KB at every level
// (default, 1, stateless), a step a move at any level; a plain body costs
// neither side anything, and under 8 KB it is at most six packets.
const plainJSON = 8 << 10

// minCompress is the size (bytes) from which Answer compresses a body of
// the media type ctype.
func minCompress(ctype string) int {
	if ctype == echo.MIMEApplicationJSON {
		return plainJSON
	}
	return static.MinCompress
}

// gzipBuffer is a gzip writer and the buffer it writes in.
type gzipBuffer struct {
	buf bytes.Buffer
	w   *gzip.Writer
}

// gzips are Answer's writers.
var gzips = sync.Pool{New: func() any {
	z := &gzipBuffer{}
	z.w, _ = gzip.NewWriterLevel(&z.buf, gzip.DefaultCompression)
	return z
}}

// acceptsGzip reports whether an Accept-Encoding header takes gzip: gzip
// or * listed without q=0.
func acceptsGzip(accept string) bool {
	for accept != "" {
		var item string
		item, accept, _ = strings.Cut(accept, ",")
		coding, params, _ := strings.Cut(item, ";")
		coding = strings.TrimSpace(coding)
		if !strings.EqualFold(coding, "gzip") && coding != "*" {
			continue
		}
		q := 1.0
		for params != "" {
			var p string
			p, params, _ = strings.Cut(params, ";")
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				q, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
			}
		}
		return q > 0
	}
	return false
}

// isEventStream reports whether the request is for an event stream (a
// game's, a review's, a tournament's: their paths end in /events).
func isEventStream(c echo.Context) bool { return strings.HasSuffix(c.Request().URL.Path, "/events") }

// isStatic reports whether the request is for a static file.
func isStatic(c echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, "/static/") }

// notPage reports whether the request is for the API, a static file or
// the health checks: no forms, no session.
func notPage(c echo.Context) bool {
	p := c.Request().URL.Path
	return strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/static/") || p == "/healthz" || p == "/readyz" ||
		strings.HasSuffix(p, ".png") || strings.HasSuffix(p, ".gif")
}

// visit is what a page request knows of its visitor, worked out once by the
// visitor middleware: the language, its localizer, the session and the
// logged-in account.
type visit struct {
	Lang string
	L    *Localizer
	Sess *session
	// User is the logged-in account (nil for a visitor without one) once
	// userRead; userErr the storage failure that kept it unknown.
	User     *accounts.User
	userRead bool
	userErr  error
	// minted: the visitor id was made in this request (nameVisitor) and
	// no older cookie's seat moved to it, so the visitor holds no seat it
	// did not take in this request.
	minted bool
}

// visitKey is the echo.Context key of the request's *visit.
const visitKey = "visit"

// visitor puts the visit on every page request (naming a new visitor,
// seats.go), and the id of the page
// that sends an action (X-View, see live.stored) on its context.
func (h *Handlers) visitor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if notPage(c) {
			return next(c)
		}
		if err := h.nameVisitor(c); err != nil {
			h.Log.Error("session", "err", err)
		}
		if !h.SeatRoutes[c.Path()] {
			if _, err := h.account(c); err != nil {
				return err // the database away: 503, never a silent logout
			}
		}
		if view := c.Request().Header.Get("X-View"); view != "" {
			r := c.Request()
			c.SetRequest(r.WithContext(context.WithValue(r.Context(), ViewKey{}, view)))
			if h.Actions != nil {
				h.Actions.Begin(view)
				defer h.Actions.End(view)
			}
		}
		return next(c)
	}
}

// Visit returns the request's visit, working it out on the first call.
func (h *Handlers) Visit(c echo.Context) *visit {
	if v, ok := c.Get(visitKey).(*visit); ok {
		return v
	}
	lang := LangOf(c)
	v := &visit{Lang: lang, L: h.Localizers[lang], Sess: h.session(c)}
	c.Set(visitKey, v)
	return v
}

// account returns the request's logged-in account, nil for a visitor,
// looking it up once a request (accounts.Service.Session): a session
// whose account was deleted, or whose epoch is older than the account's
// (logout, password change), counts as a visitor. An error is a storage
// failure. The visitor middleware asks it first on every page request
// but the seat actions (routes.go), whose game is read with the
// session's account in the same query (game.Service.LoadFor).
func (h *Handlers) account(c echo.Context) (*accounts.User, error) {
	v := h.Visit(c)
	if v.userRead {
		return v.User, v.userErr
	}
	v.userRead = true
	if id, epoch := v.Sess.account(); id != 0 {
		v.User, v.userErr = h.Accounts.Session(c.Request().Context(), id, epoch)
	}
	return v.User, v.userErr
}

// User returns the request's logged-in account, nil for a visitor; after
// the visitor middleware it never asks the database again, and a seat
// action that asks for it first gets nil on a storage failure (logged).
func (h *Handlers) User(c echo.Context) *accounts.User {
	u, err := h.account(c)
	if err != nil {
		h.Log.ErrorContext(c.Request().Context(), "account", "err", err)
	}
	return u
}

// UserID returns the id of the request's account, 0 for a visitor.
func (h *Handlers) UserID(c echo.Context) uint {
	if u := h.User(c); u != nil {
		return u.ID
	}
	return 0
}

// LangOf returns the locale of the request: its language prefix, or the
// best match of Accept-Language outside the prefixed pages.
func LangOf(c echo.Context) string {
	if l := c.Param("lang"); ValidLang(l) {
		return l
	}
	if seg, _ := pathLang(c); ValidLang(seg) {
		return seg
	}
	return MatchLang(c.Request().Header.Get("Accept-Language"))
}

// pathLang splits the request's escaped path where its language prefix
// goes: "/cs/rules" is "cs" and "rules"; "/en%2Frules" is "en%2Frules"
// and "", as the router sees it.
func pathLang(c echo.Context) (seg, rest string) {
	seg, rest, _ = strings.Cut(strings.TrimPrefix(c.Request().URL.EscapedPath(), "/"), "/")
	return seg, rest
}

// underLang reports whether c's route lies under the language prefix (its
// pattern starts with route.Lang).
func underLang(c echo.Context) bool {
	p := c.Path()
	return p == route.Lang || strings.HasPrefix(p, route.Lang+"/")
}

// CheckLang is the middleware of the language prefix: a GET (or HEAD)
// whose path starts with a tag of one of the site's languages written
// otherwise (tagLang: "/en-US/", "/it_IT/rules") is moved for good (301)
// to the same path and query under that language; else a request whose
// route lies under the prefix (its pattern starts with route.Lang) with
// an unknown language is 404. It is installed for every route (handlers'
// routes), not as the group's: Echo gives a group with middleware a
// catch-all 404 route, which it prefers to its own 405 (Method Not
// Allowed, with Allow) for a path served with other methods. On a 405 the
// route's parameters are not filled in, so the language is the path's
// first segment (pathLang).
func CheckLang(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		seg, rest := pathLang(c)
		if ValidLang(seg) {
			return next(c)
		}
		if l := tagLang(seg); l != "" && c.Request().Method == http.MethodGet {
			to := "/" + l + "/" + rest
			if q := c.Request().URL.RawQuery; q != "" {
				to += "?" + q
			}
			return c.Redirect(http.StatusMovedPermanently, to)
		}
		if underLang(c) {
			return ErrNotFound
		}
		return next(c)
	}
}

// tagLang returns the site's language of a path segment that is a
// language tag (langCode) of one of the site's languages but not its code
// as the site writes it: "en-US", "it_IT", "CS-cz", "EN" are "en", "it",
// "cs", "en"; "" for anything else ("de-DE", "ces", "en").
func tagLang(seg string) string {
	if ValidLang(seg) || !langCode.MatchString(seg) {
		return ""
	}
	base, _, _ := strings.Cut(strings.ReplaceAll(seg, "_", "-"), "-")
	for _, l := range locales.Langs {
		if strings.EqualFold(base, l) {
			return l
		}
	}
	return ""
}

// rejectBadText refuses paths, query values and form fields that are not
// text (invalid UTF-8, or a NUL byte, which PostgreSQL refuses): 404 for a
// path, 400 for a value. No handler sees them.
func rejectBadText(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if !isText(r.URL.Path) {
			return ErrNotFound
		}
		values := r.URL.Query()
		if media, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); media == echo.MIMEApplicationForm {
			if err := r.ParseForm(); err != nil {
				return ErrBadRequest // 413 when the body was too long (limitBody)
			}
			values = r.Form
		}
		for _, vs := range values {
			for _, v := range vs {
				if !isText(v) {
					return ErrBadRequest
				}
			}
		}
		return next(c)
	}
}

// isText reports whether s is valid UTF-8 without NUL bytes.
func isText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// headAsGet answers HEAD as GET without the body: echo routes only the
// methods a route names, and every GET page should answer HEAD too. So an
// OPTIONS answer's Allow (echo's, routed after this) lists HEAD with GET.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch r := c.Request(); r.Method {
		case http.MethodHead:
			r.Method = http.MethodGet
			c.Response().Writer = headOnly{c.Response().Writer}
		case http.MethodOptions:
			c.Response().Before(func() { allowHead(c) })
		}
		return next(c)
	}
}

// headOnly is a response writer that sends the headers and drops the body.
type headOnly struct{ http.ResponseWriter }

func (headOnly) Write(b []byte) (int, error) { return len(b), nil }

func (h headOnly) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// requireCSRFToken makes echo's CSRF middleware check the _csrf token on
// every state-changing form: it refuses a cross-site POST, a state-changing
// request (forms and the API) whose Origin is not the site's (sameOrigin)
// and a token in the URL (where logs would keep it) outright, then
// hides the Sec-Fetch-Site header, which would otherwise let a same-origin
// POST through without a token (issue 4: a POST without a valid token gets
// 403 and changes nothing).
func (h *Handlers) requireCSRFToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		unsafe := r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions
		if unsafe && !h.sameOrigin(r) {
			return &UserError{http.StatusForbidden, "err_csrf"}
		}
		form := unsafe && !strings.HasPrefix(r.URL.Path, "/api/")
		if form && (r.Header.Get(echo.HeaderSecFetchSite) == "cross-site" || r.URL.Query().Has("_csrf")) {
			return &UserError{http.StatusForbidden, "err_csrf"}
		}
		r.Header.Del(echo.HeaderSecFetchSite)
		return next(c)
	}
}
