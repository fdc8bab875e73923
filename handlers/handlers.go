// Package handlers is the website and the JSON API: Echo handlers that parse
// a request, find the visitor's seat, call the engine and the models, and
// render the templ views (whole pages, or the board partial for htmx and
// server-sent events).
package handlers

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"oware/models"
	"oware/static"
	"oware/views"
)

// Config is what the site needs from the server command.
type Config struct {
	DB      *models.DB
	Events  models.Broker // nil: DB.Broker
	BaseURL string        // absolute URL of the site, for invitation links; "http://localhost:8080" when empty
	Secret  []byte        // the cookie secret (session keys are derived from it)
	Log     *slog.Logger  // nil: slog.Default()
	// Version and Commit are shown in the footer; "" when unknown.
	Version, Commit string
	// BehindProxy: the site is served behind a reverse proxy on the same
	// machine or a private network, whose X-Forwarded-For names the client
	// (for the login limits). Without it the connection's address counts.
	BehindProxy bool
}

// handler holds what the handlers share.
type handler struct {
	db              *models.DB
	events          models.Broker
	base            string
	log             *slog.Logger
	version, commit string
	bundle          *i18n.Bundle
	english         *localizer
	assets          *static.Assets
	sessions        *sessions.CookieStore
	limits          *loginLimits // failed logins (accounts.go)
}

// New returns the site: every page, the JSON API, the static files and
// GET /healthz, with their middleware (recovery, request log, compression,
// CSRF protection of every state-changing form).
func New(cfg Config) (*echo.Echo, error) {
	if cfg.DB == nil {
		return nil, errors.New("handlers: Config.DB is nil")
	}
	if len(cfg.Secret) < 16 {
		return nil, errors.New("handlers: Config.Secret is shorter than 16 bytes")
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Events == nil {
		cfg.Events = cfg.DB.Broker(context.Background())
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://localhost:8080"
	}
	bundle, err := loadBundle()
	if err != nil {
		return nil, err
	}
	assets, err := static.Load()
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	secure := strings.HasPrefix(base, "https://")
	h := &handler{
		db: cfg.DB, events: cfg.Events, base: base, log: cfg.Log,
		version: cfg.Version, commit: cfg.Commit,
		bundle: bundle, english: newLocalizer(bundle, "en", cfg.Log),
		assets: assets, sessions: newCookieStore(cfg.Secret, secure),
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = h.handleError
	e.IPExtractor = echo.ExtractIPDirect()
	if cfg.BehindProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	e.Pre(headAsGet)
	e.Use(middleware.Recover())
	e.Use(middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogError: true,
		HandleError: true, // log the status the error handler answers with
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			h.log.LogAttrs(c.Request().Context(), slog.LevelInfo, "request",
				slog.String("method", v.Method), slog.String("uri", v.URI),
				slog.Int("status", v.Status), slog.Duration("latency", v.Latency))
			return nil
		},
	}))
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{
		XSSProtection: "0", ContentTypeNosniff: "nosniff", XFrameOptions: "SAMEORIGIN",
		ReferrerPolicy: "same-origin",
	}))
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{
		MinLength: 256,
		Skipper:   func(c echo.Context) bool { return strings.HasSuffix(c.Request().URL.Path, "/events") },
	}))
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "64K", Skipper: importBody}))
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{
		Limit: strconv.Itoa(maxImportBody>>10) + "K", Skipper: func(c echo.Context) bool { return !importBody(c) }}))
	e.Use(rejectBadText)
	e.Use(requireCSRFToken)
	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/static/") || p == "/healthz"
		},
		TokenLookup:    "form:_csrf",
		ContextKey:     "csrf",
		CookieName:     "_csrf",
		CookiePath:     "/",
		CookieHTTPOnly: true,
		CookieSecure:   secure,
		CookieSameSite: http.SameSiteLaxMode,
		ErrorHandler: func(err error, c echo.Context) error {
			return &userError{http.StatusForbidden, "err_csrf"}
		},
	}))

	e.GET("/", h.root)
	e.GET("/healthz", h.healthz)
	e.GET("/static/:file", h.static)
	e.GET("/join/:id", h.invite)
	h.apiRoutes(e.Group("/api/v1"))
	h.siteRoutes(e)

	g := e.Group("/:lang", h.checkLang)
	g.GET("", func(c echo.Context) error { return c.Redirect(http.StatusMovedPermanently, "/"+c.Param("lang")+"/") })
	g.GET("/", h.home)
	g.GET("/games/new", h.newGameForm)
	g.POST("/games/new", h.createGameForm)
	g.GET("/games/:id", h.gamePage)
	g.GET("/games/:id/join", h.joinPage)
	g.POST("/games/:id/join", h.joinForm)
	g.POST("/games/:id/moves", h.moveForm)
	g.GET("/games/:id/resign", h.resignPage)
	g.POST("/games/:id/resign", h.resignForm)
	g.POST("/games/:id/end/offer", h.endForm("offer"))
	g.POST("/games/:id/end/accept", h.endForm("accept"))
	g.POST("/games/:id/end/decline", h.endForm("decline"))
	g.POST("/games/:id/rematch", h.rematchForm)
	g.GET("/games/:id/rematch", h.followRematch)
	g.GET("/games/:id/events", h.gameEvents)
	g.GET("/watch/:key", h.watchPage)
	g.GET("/watch/:key/events", h.watchEvents)
	h.namnamRoutes(g)
	h.accountRoutes(g)
	if err := h.pageRoutes(e, g); err != nil {
		return nil, err
	}
	if err := h.tutorialRoutes(g); err != nil {
		return nil, err
	}
	return e, nil
}

// rejectBadText refuses paths, query values and form fields that are not
// text (invalid UTF-8, or a NUL byte, which PostgreSQL refuses): 404 for a
// path, 400 for a value. No handler sees them.
func rejectBadText(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if !isText(r.URL.Path) {
			return errNotFound
		}
		values := r.URL.Query()
		if media, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); media == echo.MIMEApplicationForm {
			if err := r.ParseForm(); err != nil {
				return errBadRequest
			}
			values = r.Form
		}
		for _, vs := range values {
			for _, v := range vs {
				if !isText(v) {
					return errBadRequest
				}
			}
		}
		return next(c)
	}
}

// isText reports whether s is valid UTF-8 without NUL bytes.
func isText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// headAsGet answers HEAD as GET without the body: echo routes only the
// methods a route names, and every GET page should answer HEAD too.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if r := c.Request(); r.Method == http.MethodHead {
			r.Method = http.MethodGet
			c.Response().Writer = headOnly{c.Response().Writer}
		}
		return next(c)
	}
}

// headOnly is a response writer that sends the headers and drops the body.
type headOnly struct{ http.ResponseWriter }

func (headOnly) Write(b []byte) (int, error)   { return len(b), nil }
func (h headOnly) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// requireCSRFToken makes echo's CSRF middleware check the _csrf token on
// every state-changing form: it refuses a cross-site POST and a token in the
// URL (where logs would keep it) outright, then
// hides the Sec-Fetch-Site header, which would otherwise let a same-origin
// POST through without a token (issue 4: a POST without a valid token gets
// 403 and changes nothing).
func requireCSRFToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		unsafe := r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions
		form := unsafe && !strings.HasPrefix(r.URL.Path, "/api/")
		if form && (r.Header.Get(echo.HeaderSecFetchSite) == "cross-site" || r.URL.Query().Has("_csrf")) {
			return &userError{http.StatusForbidden, "err_csrf"}
		}
		r.Header.Del(echo.HeaderSecFetchSite)
		return next(c)
	}
}

// checkLang is the middleware of the language prefix: an unknown one is 404.
func (h *handler) checkLang(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !validLang(c.Param("lang")) {
			return errNotFound
		}
		return next(c)
	}
}

// root sends / to the home page in the visitor's language.
func (h *handler) root(c echo.Context) error {
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	if u := h.currentUser(c); u != nil && validLang(u.Language) {
		return c.Redirect(http.StatusFound, "/"+u.Language+"/")
	}
	return c.Redirect(http.StatusFound, "/"+matchLang(c.Request().Header.Get("Accept-Language"))+"/")
}

// invite sends the invitation link /join/{id} to the join page in the
// visitor's language.
func (h *handler) invite(c echo.Context) error {
	if !models.ValidKey(c.Param("id"), 12) {
		return errNotFound
	}
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	lang := matchLang(c.Request().Header.Get("Accept-Language"))
	return c.Redirect(http.StatusFound, "/"+lang+"/games/"+c.Param("id")+"/join")
}

// healthz answers 200 when the database answers.
func (h *handler) healthz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	if err := h.db.Ping(ctx); err != nil {
		h.log.Error("healthz", "err", err)
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "database unavailable"})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// static serves an embedded asset by its content-hashed URL, cached for ever.
func (h *handler) static(c echo.Context) error {
	a := h.assets.ByURL(c.Request().URL.Path)
	if a == nil {
		return errNotFound
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
	return c.Blob(http.StatusOK, a.ContentType, a.Body)
}

// langOf returns the locale of the request: its language prefix, or the
// best match of Accept-Language outside the prefixed pages.
func langOf(c echo.Context) string {
	if l := c.Param("lang"); validLang(l) {
		return l
	}
	seg, _, _ := strings.Cut(strings.TrimPrefix(c.Request().URL.Path, "/"), "/")
	if validLang(seg) {
		return seg
	}
	return matchLang(c.Request().Header.Get("Accept-Language"))
}

// page returns the layout data of a page in the request's locale; path is
// the page's path after the language prefix.
func (h *handler) page(c echo.Context, titleKey, path string) views.Page {
	lang := langOf(c)
	l := newLocalizer(h.bundle, lang, h.log)
	return views.Page{
		L: l, Lang: lang, Title: l.T(titleKey), Path: path, Query: c.Request().URL.RawQuery,
		BaseURL: h.base, Version: h.version, Commit: h.commit, Theme: theme(c),
		NoIndex: !indexable(path), Description: defaultDescription(l, path),
		Assets: views.AssetURLs{
			CSS: h.assets.URL("app.css"), PagesCSS: h.assets.URL("pages.css"), HTMX: h.assets.URL("htmx.min.js"),
			SSE: h.assets.URL("sse.min.js"), JS: h.assets.URL("app.js"),
			Icon: h.assets.URL("icon.svg"),
		},
		User: h.userName(c), CSRF: csrfToken(c),
	}
}

// csrfToken returns the token of the request's forms.
func csrfToken(c echo.Context) string {
	s, _ := c.Get("csrf").(string)
	return s
}

// render writes a component as an HTML answer.
func render(c echo.Context, status int, t templ.Component) error {
	var buf bytes.Buffer
	if err := t.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	return c.HTMLBlob(status, buf.Bytes())
}

// handleError answers an error: JSON under /api/, else a localized page.
// Refusals (userError) keep their status; anything else is logged as a 500.
func (h *handler) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, key := http.StatusInternalServerError, "err_internal"
	var ue *userError
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ue):
		status, key = ue.status, ue.key
	case errors.As(err, &he):
		status = he.Code
		switch {
		case status == http.StatusNotFound || status == http.StatusMethodNotAllowed:
			key = "err_not_found"
		case status == http.StatusForbidden:
			key = "err_forbidden"
		case status == http.StatusRequestEntityTooLarge:
			key = "err_too_large"
		case status < 500:
			key = "err_bad_request"
		}
	}
	if status >= 500 && c.Request().Context().Err() != nil {
		// The client went away: not a fault of the server, and nobody reads
		// the answer.
		h.log.Info("request abandoned", "method", c.Request().Method, "uri", c.Request().RequestURI)
		return
	}
	if status >= 500 {
		h.log.Error("request failed", "method", c.Request().Method, "uri", c.Request().RequestURI, "err", err)
	}
	if strings.HasPrefix(c.Request().URL.Path, "/api/") {
		_ = c.JSON(status, map[string]string{"error": h.english.T(key)})
		return
	}
	title := "title_error"
	switch status {
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		title = "title_not_found"
	case http.StatusForbidden:
		title = "title_forbidden"
	}
	p := h.page(c, title, "/")
	p.NoIndex = true
	if err := render(c, status, views.ErrorPage(p, p.L.T(key))); err != nil {
		h.log.Error("render error page", "err", err)
	}
}
