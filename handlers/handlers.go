package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/content"
	"oware/engine"
	"oware/game"
	"oware/handlers/api"
	"oware/handlers/core"
	"oware/handlers/live"
	"oware/handlers/web"
	"oware/mailer"
	"oware/metrics"
	"oware/static"
	"oware/tournament"
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
	AnalysisLimit, ImportLimit core.RateLimit
	// ChallengeLimit is the per-client rate limit of new challenges (the
	// lobby's forms and the API); zero fields: the default.
	ChallengeLimit core.RateLimit
	// PuzzleLimit is the per-client rate limit of puzzle attempts (each
	// move of the puzzle page's form and each attempt of the API); zero
	// fields: the default.
	PuzzleLimit core.RateLimit
	// Streams bounds the event streams; zero fields: the defaults
	// (streams.go).
	Streams core.StreamLimits
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

// loadBundle and loadAssets read the message catalogs and the static files
// (minified, hashed and gzipped) once per process: they come from the
// binary and every site shares them read-only. The tests start a site
// each (handlers/web: 4.5 of its 46 CPU seconds went to reading them
// again for each).
var (
	loadBundle = sync.OnceValues(core.LoadBundle)
	loadAssets = sync.OnceValues(static.Load)
)

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
	cfg.Log = slog.New(core.LogHandler(cfg.Log.Handler()))
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://localhost:8080"
	}
	bundle, err := loadBundle()
	if err != nil {
		return nil, err
	}
	assets, err := loadAssets()
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	h := &core.Handlers{
		Games: cfg.Games, Accounts: cfg.Accounts, Content: cfg.Content, Tournaments: cfg.Tournaments, Base: base, Log: cfg.Log,
		Version: cfg.Version, Commit: cfg.Commit,
		Bundle: bundle, Localizers: core.NewLocalizers(bundle, cfg.Log),
		Assets: assets, Sessions: core.NewCookieStore(cfg.Secret, strings.HasPrefix(base, "https://")),
		CSRFKey:        core.NewCSRFKey(cfg.Secret),
		BehindProxy:    cfg.BehindProxy,
		Limits:         core.NewLoginLimits(cfg.Clock),
		Guesses:        core.NewLoginLimits(cfg.Clock),
		Analyses:       core.NewRateLimit(cfg.AnalysisLimit, core.DefaultAnalysisLimit, core.ErrAnalysisLimit),
		Imports:        core.NewRateLimit(cfg.ImportLimit, core.DefaultImportLimit, core.ErrImportLimit),
		PuzzleAttempts: core.NewRateLimit(cfg.PuzzleLimit, core.DefaultPuzzleLimit, core.ErrPuzzleRate),
		Challenges:     core.NewRateLimit(cfg.ChallengeLimit, core.DefaultChallengeLimit, core.ErrChallengeRate),
		Streams:        core.NewStreams(cfg.Streams),
		Legal:          engine.NewLegalCache(1 << 14),
		Mail:           cfg.Mail,
		Events:         cfg.Events,
	}
	cfg.Content.Follow(cfg.Events) // the pages' states from memory while the listener hears their changes
	site := web.New(h)
	streams := live.New(h, site.Panels, site.TournamentView)
	// A version this instance stored is known here at once, before its
	// event comes back: a visitor's next page shows their own change.
	h.Games.OnStore(func(_ context.Context, g *game.Game) { h.Pages.NoteHead(&g.Head) })
	h.Pages.Events = cfg.Events
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = h.HandleError
	e.IPExtractor = echo.ExtractIPDirect()
	if cfg.BehindProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	if err := h.Watch(e, cfg.Metrics); err != nil {
		return nil, err
	}
	h.Middleware(e)
	routes(e, site, api.New(h), streams)
	return e, nil
}

// RateLimit is a per-client rate limit (core.RateLimit).
type RateLimit = core.RateLimit

// StreamLimits bounds the event streams (core.StreamLimits).
type StreamLimits = core.StreamLimits

// LimitServer sets the bounds of srv's connections (core.LimitServer).
func LimitServer(srv *http.Server) { core.LimitServer(srv) }

// LogHandler wraps h so that records carry the request id
// (core.LogHandler).
func LogHandler(h slog.Handler) slog.Handler { return core.LogHandler(h) }
