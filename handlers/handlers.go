// Package handlers is the website and the JSON API: Echo handlers that
// parse a request, call the game service (package game), the content and
// the tutor, and render the templ views (whole pages, or the game panel
// for htmx and server-sent events). The routes are in routes.go.
package handlers

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"oware/accounts"
	"oware/content"
	"oware/engine"
	"oware/game"
	"oware/mailer"
	"oware/metrics"
	"oware/static"
	"oware/tournament"
	"oware/views"
)

// Config is what the site needs from the server command. The services
// and the broker are required: the caller starts them, with the context
// that ends them (New starts nothing that would outlive the caller).
type Config struct {
	// Events is the broker of the live updates (game.Service.Broker),
	// required.
	Events game.Broker
	// Games is the game service, required, with its computer's pool
	// started (game.Service.StartComputer).
	Games *game.Service
	// Accounts is the accounts service, required.
	Accounts *accounts.Service
	// Content reads the pages and tutorials, required.
	Content *content.Service
	// Tournaments runs the tournaments, required (the server also runs
	// tournament.Service.Run; without it pairings run only when a game
	// ends or a page asks).
	Tournaments *tournament.Service
	BaseURL     string       // absolute URL of the site, for invitation links; "http://localhost:8080" when empty
	Secret      []byte       // the cookie secret (session keys are derived from it)
	Log         *slog.Logger // nil: slog.Default(); wrapped in LogHandler
	// Version and Commit are shown in the footer; "" when unknown.
	Version, Commit string
	// BehindProxy: the site is served behind a reverse proxy on the same
	// machine or a private network, whose X-Forwarded-For names the client
	// (for the login, stream and rate limits) and whose X-Request-Id is
	// kept. Without it the connection's address counts and every request
	// gets a new id.
	BehindProxy bool
	// AnalysisLimit and ImportLimit are the per-client rate limits of the
	// analysis API and of the import page; zero fields: the defaults
	// (ratelimit.go).
	AnalysisLimit, ImportLimit RateLimit
	// ChallengeLimit is the per-client rate limit of new challenges (the
	// lobby's forms and the API); zero fields: the default.
	ChallengeLimit RateLimit
	// PuzzleLimit is the per-client rate limit of puzzle attempts (each
	// move of the puzzle page's form and each attempt of the API); zero
	// fields: the default.
	PuzzleLimit RateLimit
	// Streams bounds the event streams; zero fields: the defaults
	// (streams.go).
	Streams StreamLimits
	// Clock is the time of the login limits (limits.go); nil: time.Now.
	// Tests move it by hand.
	Clock func() time.Time
	// Mail sends the password reset links; nil: the site sends no mail and
	// says that resets are not available.
	Mail *mailer.Mailer
	// Metrics gets the site's metrics (requests, moves, event streams, the
	// database and the computer's pools); nil: none. One site per Metrics.
	Metrics *metrics.Metrics
}

// handler holds what the handlers share.
type handler struct {
	games           *game.Service
	accounts        *accounts.Service
	content         *content.Service
	tournaments     *tournament.Service
	events          game.Broker // the tournaments' live standings (tournaments.go)
	standings       *standings  // their counts shared by the streams (standings.go)
	base            string
	log             *slog.Logger
	version, commit string
	bundle          *i18n.Bundle
	localizers      map[string]*localizer // by locale
	assets          *static.Assets
	sessions        *sessions.CookieStore
	limits          *loginLimits // failed logins (limits.go)
	live            *live        // the event streams (live.go)
	analyses        *rateLimit   // the analysis API's per-client limit (ratelimit.go)
	challenges      *rateLimit   // new challenges' per-client limit
	imports         *rateLimit   // the import page's per-client limit
	puzzleAttempts  *rateLimit   // the puzzle attempts' per-client limit
	streams         *streams     // the open event streams (streams.go)
	legal           *engine.LegalCache
	bodies          content.BodyCache
	pages           pageCache      // whole pages of visitors without an account
	behindProxy     bool           // Config.BehindProxy
	mail            *mailer.Mailer // nil: no password resets (reset.go)
	resets          *resetLimits
	// seatRoutes are the paths (echo's c.Path) of the seat actions, whose
	// game is read with the session's account (routes.go).
	seatRoutes map[string]bool
}

// New returns the site: every page, the JSON API, the static files and
// GET /healthz and /readyz, with their middleware (middleware.go: request
// ids, security headers, recovery, request log, compression, the bounds
// of a request, CSRF protection of every state-changing form, the visit)
// and, with cfg.Metrics, the metrics of every request (metrics.go). The
// pages and tutorials must have been loaded into the database
// (content.Load).
func New(cfg Config) (*echo.Echo, error) {
	switch {
	case cfg.Events == nil:
		return nil, errors.New("handlers: Config.Events is nil")
	case cfg.Games == nil:
		return nil, errors.New("handlers: Config.Games is nil")
	case cfg.Games.Computer() == nil:
		return nil, errors.New("handlers: Config.Games has no computer's pool (game.Service.StartComputer)")
	case cfg.Accounts == nil:
		return nil, errors.New("handlers: Config.Accounts is nil")
	case cfg.Content == nil:
		return nil, errors.New("handlers: Config.Content is nil")
	case cfg.Tournaments == nil:
		return nil, errors.New("handlers: Config.Tournaments is nil")
	}
	if len(cfg.Secret) < 16 {
		return nil, errors.New("handlers: Config.Secret is shorter than 16 bytes")
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	cfg.Log = slog.New(LogHandler(cfg.Log.Handler()))
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
	h := &handler{
		games: cfg.Games, accounts: cfg.Accounts, content: cfg.Content, tournaments: cfg.Tournaments, base: base, log: cfg.Log,
		version: cfg.Version, commit: cfg.Commit,
		bundle: bundle, localizers: newLocalizers(bundle, cfg.Log),
		assets: assets, sessions: newCookieStore(cfg.Secret, strings.HasPrefix(base, "https://")),
		behindProxy:    cfg.BehindProxy,
		limits:         newLoginLimits(cfg.Clock),
		analyses:       newRateLimit(cfg.AnalysisLimit, defaultAnalysisLimit, errAnalysisLimit),
		imports:        newRateLimit(cfg.ImportLimit, defaultImportLimit, errImportLimit),
		puzzleAttempts: newRateLimit(cfg.PuzzleLimit, defaultPuzzleLimit, errPuzzleRate),
		challenges:     newRateLimit(cfg.ChallengeLimit, defaultChallengeLimit, errChallengeRate),
		streams:        newStreams(cfg.Streams),
		legal:          engine.NewLegalCache(1 << 14),
		mail:           cfg.Mail, resets: newResetLimits(),
	}
	cfg.Content.Follow(cfg.Events) // the pages' states from memory while the listener hears their changes
	h.live = newLive(cfg.Events, cfg.Log, h.games.Load, h.panels)
	h.games.OnStore(h.live.stored)
	// A version this instance stored is known here at once, before its
	// event comes back: a visitor's next page shows their own change.
	h.games.OnStore(func(_ context.Context, g *game.Game) { h.pages.noteHead(&g.Head) })
	h.events = cfg.Events
	h.pages.events = cfg.Events
	h.tournaments.OnChange(h.publishTournament)
	h.standings = newStandings(cfg.Events, h.tournaments.ViewOf, cfg.Log)
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = h.handleError
	e.IPExtractor = echo.ExtractIPDirect()
	if cfg.BehindProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	if err := h.watch(e, cfg.Metrics); err != nil {
		return nil, err
	}
	h.middleware(e)
	h.routes(e)
	return e, nil
}

// page returns the layout data of a page in the request's locale; path is
// the page's path after the language prefix.
func (h *handler) page(c echo.Context, titleKey, path string) views.Page {
	v := h.visit(c)
	p := views.Page{
		L: v.l, Lang: v.lang, Title: v.l.T(titleKey), Path: path, Query: c.Request().URL.RawQuery,
		BaseURL: h.base, Version: h.version, Commit: h.commit, Theme: theme(c),
		NoIndex: !indexable(path), Description: defaultDescription(v.l, path),
		Assets: views.AssetURLs{
			CSS: h.assets.URL("app.css"), PagesCSS: h.assets.URL("pages.css"), HTMX: h.assets.URL("htmx.min.js"),
			SSE: h.assets.URL("sse.min.js"), JS: h.assets.URL("app.js"), Turn: h.assets.URL("turn.js"),
			Icon: h.assets.URL("icon.svg"),
		},
		CSRF:  csrfToken(c),
		Board: h.boardSettings(c),
	}
	if h.user(c) != nil {
		p.User = h.user(c).Username
	}
	return p
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

// htmx reports whether the request is an htmx swap (not a history restore,
// which wants the whole page).
func htmx(c echo.Context) bool {
	hdr := c.Request().Header
	return hdr.Get("HX-Request") != "" && hdr.Get("HX-History-Restore-Request") == ""
}

// redirect answers a form with 303 See Other to path.
func redirect(c echo.Context, path string) error { return c.Redirect(http.StatusSeeOther, path) }
