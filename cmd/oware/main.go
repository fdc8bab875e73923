// Command oware serves the Oware website.
//
// Configuration comes from flags, or from the environment for flags not
// given (see -help). With no configuration at all it serves on :8080 from
// the SQLite file ./data/oware.db, created on first start.
//
// "oware worker [flags]" works the computer's replies and the reviews of
// the site on the database of its flags, and serves nothing (worker.go);
// "oware backup [-database FILE] PATH" writes a consistent copy of an
// SQLite database to PATH, also while a server runs on it; "oware
// healthcheck" asks the server on this machine for /healthz (for a
// container's health check); "oware build-table" is what the server runs
// to build an endgame table at a low priority (tables.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"oware/accounts"
	"oware/content"
	"oware/engine/endgame"
	"oware/game"
	"oware/handlers"
	"oware/mailer"
	"oware/metrics"
	"oware/models"
	"oware/tournament"
)

// Set at build time:
//
//	go build -ldflags "-X main.version=v0.1.0 -X main.commit=$(git rev-parse --short=7 HEAD)" ./cmd/oware
//
// Without them the commit comes from the Go build info (vcs.revision) when
// the binary was built in a git checkout.
var (
	version = "dev"
	commit  = ""
)

// env maps each flag to the environment variable used when the flag is not
// given.
var env = map[string]string{
	"addr":          "OWARE_ADDR",
	"database":      "DATABASE_URL",
	"base-url":      "OWARE_BASE_URL",
	"secret":        "OWARE_SECRET",
	"log-format":    "OWARE_LOG_FORMAT",
	"behind-proxy":  "OWARE_BEHIND_PROXY",
	"tables":        "OWARE_TABLES",
	"table-seeds":   "OWARE_TABLE_SEEDS",
	"build-tables":  "OWARE_BUILD_TABLES",
	"computer":      "OWARE_COMPUTER",
	"computer-jobs": "OWARE_COMPUTER_JOBS",
	"computer-nice": "OWARE_COMPUTER_NICE",
	"computer-idle": "OWARE_COMPUTER_IDLE",
	"smtp-url":      "OWARE_SMTP_URL",
	"metrics-addr":  "OWARE_METRICS_ADDR",
	"stream-limits": "OWARE_STREAM_LIMITS",
	"hourly-arenas": "OWARE_HOURLY_ARENAS",
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "oware:", err)
		os.Exit(1)
	}
}

// config is the server's configuration.
type config struct {
	addr, database, baseURL, secret, logFormat string
	behindProxy                                bool // trust X-Forwarded-For from a proxy on a private network
	version                                    bool // print the version and exit
	checkGames                                 bool // check the cached state of every game and exit
	tables                                     string
	tableSeeds                                 int    // the endgame tables' size; 0 for none
	buildTables                                bool   // build the missing tables in the background
	computer                                   int    // the computer's searches at a time; 0: one per core
	computerJobs                               bool   // work the computer's jobs in this process
	computerNice                               int    // the nice value of the computer's workers
	computerIdle                               bool   // the computer's workers under SCHED_IDLE (game.PoolConfig.Idle)
	smtpURL                                    string // the SMTP server of the password reset mail; "" for none
	metricsAddr                                string // the listen address of /metrics; "" for none
	streams                                    handlers.StreamLimits
	hourlyArenas                               bool // make the hourly arenas (tournament.HourlyControls)
}

// parseConfig reads the flags in args and, for flags not given, the
// environment variables of env.
func parseConfig(args []string) (config, error) {
	var c config
	fs := flags(&c)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, key := range env {
		if v := os.Getenv(key); v != "" && !given[name] {
			if err := fs.Set(name, v); err != nil {
				return c, fmt.Errorf("%s: %w", key, err)
			}
		}
	}
	if c.database == "" {
		return c, errors.New("-database is empty: give a postgres:// URL or an SQLite file path")
	}
	if c.computerNice < 0 || c.computerNice > 19 {
		return c, fmt.Errorf("-computer-nice %d: want 0 to 19", c.computerNice)
	}
	if c.tableSeeds < 0 || c.tableSeeds > endgame.MaxSeedsLimit {
		return c, fmt.Errorf("-table-seeds %d: want 0 to %d", c.tableSeeds, endgame.MaxSeedsLimit)
	}
	if c.baseURL == "" {
		c.baseURL = defaultBaseURL(c.addr)
	}
	c.baseURL = strings.TrimRight(c.baseURL, "/")
	return c, nil
}

// flags returns the server's flag set, writing into c. README.md's
// configuration table lists every flag (TestReadmeConfiguration).
func flags(c *config) *flag.FlagSet {
	fs := flag.NewFlagSet("oware", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", ":8080", "listen address (env OWARE_ADDR)")
	fs.StringVar(&c.database, "database", "./data/oware.db",
		"postgres:// URL, or the path of an SQLite file, created with its folder (env DATABASE_URL)")
	fs.StringVar(&c.baseURL, "base-url", "", "public URL of the site, for links (env OWARE_BASE_URL); default: http:// and -addr, localhost when it names no host")
	fs.StringVar(&c.secret, "secret", "", "cookie signing secret; default: generated once and kept in the database (env OWARE_SECRET)")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json (env OWARE_LOG_FORMAT)")
	fs.BoolVar(&c.behindProxy, "behind-proxy", false,
		"served behind a reverse proxy on a private network: take the client address from X-Forwarded-For (env OWARE_BEHIND_PROXY)")
	fs.StringVar(&c.tables, "tables", "./data/tables", "folder of the endgame tables, built there when missing (env OWARE_TABLES)")
	fs.IntVar(&c.tableSeeds, "table-seeds", defaultTableSeeds,
		"the endgame tables cover every board of up to this many seeds, 0 for none (0-21; env OWARE_TABLE_SEEDS)")
	fs.BoolVar(&c.buildTables, "build-tables", true,
		"build the missing endgame tables in the background at the lowest priority (Abapa first, Wari and Warri once played); false: play without them, e.g. on all but one of several instances (env OWARE_BUILD_TABLES)")
	fs.IntVar(&c.computer, "computer", 0,
		"the computer's searches at a time in this process, at most one per core, at a low priority (default: one per core; env OWARE_COMPUTER)")
	fs.IntVar(&c.computerNice, "computer-nice", game.DefaultNice,
		"how far below the process's nice value the computer's workers' threads run, 0 (the site's priority) to 19, never past nice 19 (Linux; env OWARE_COMPUTER_NICE)")
	fs.BoolVar(&c.computerIdle, "computer-idle", false,
		"run the computer's workers' threads under SCHED_IDLE, CPU time nobody else wants (Linux; -computer-nice where refused; env OWARE_COMPUTER_IDLE)")
	fs.BoolVar(&c.computerJobs, "computer-jobs", true,
		"work the computer's replies and the game reviews in this process; false: leave them to `oware worker` processes (env OWARE_COMPUTER_JOBS)")
	fs.StringVar(&c.smtpURL, "smtp-url", "",
		"SMTP server for password reset mail, e.g. smtp://user:pass@host:587?from=oware@example.org (smtps:// for TLS on 465); empty: no resets (env OWARE_SMTP_URL)")
	fs.StringVar(&c.metricsAddr, "metrics-addr", "",
		"listen address of the Prometheus metrics at /metrics, e.g. 127.0.0.1:9090; empty: none (env OWARE_METRICS_ADDR)")
	fs.Var((*streamLimits)(&c.streams), "stream-limits",
		"event streams a client may open on one game, in all, and the instance's, as N,N,N (default 6,40,20000; env OWARE_STREAM_LIMITS)")
	fs.BoolVar(&c.hourlyArenas, "hourly-arenas", false,
		"make a rated Abapa arena of 55 minutes every hour for each of 1+1, 3+2 and 5+3 (env OWARE_HOURLY_ARENAS)")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVar(&c.checkGames, "check-games", false,
		"check that the state each game's row caches equals the replay of its moves, print what was found and exit (status 1 on a mismatch)")
	return fs
}

// defaultBaseURL is the URL of a server listening on addr, as seen from the
// same machine: http://localhost:8080 for ":8080", http://127.0.0.1:18080
// for "127.0.0.1:18080".
func defaultBaseURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://localhost:8080"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func run(args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "backup":
			return backup(args[1:])
		case "healthcheck":
			return healthcheck(args[1:])
		case "build-table":
			return buildTable(args[1:])
		case "mine-puzzles":
			return minePuzzles(args[1:])
		case "hide-study":
			return hideStudy(args[1:])
		case "worker":
			return worker(args[1:])
		}
	}
	cfg, err := parseConfig(args)
	if err != nil {
		return err
	}
	version, commit := buildVersion()
	if cfg.version {
		fmt.Println("oware", version, commit)
		return nil
	}

	log, handler, err := newLogger(cfg.logFormat)
	if err != nil {
		return err
	}

	// A bad -smtp-url stops the server before it opens (or creates) the
	// database.
	var mail *mailer.Mailer
	if cfg.smtpURL != "" {
		if mail, err = mailer.New(cfg.smtpURL, log); err != nil {
			return err
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	db, err := models.Open(ctx, cfg.database, log)
	if err != nil {
		return err
	}
	defer db.Close()
	if mail != nil {
		defer mail.Wait() // the reset mail under way, before the database closes
	}

	if cfg.checkGames {
		return checkGames(ctx, db)
	}

	key := []byte(cfg.secret)
	if len(key) == 0 {
		if key, err = db.Secret(ctx); err != nil {
			return err
		}
	}

	var met *metrics.Metrics // nil: no metrics
	if cfg.metricsAddr != "" {
		met = metrics.New()
	}

	lctx, cancel := context.WithTimeout(ctx, time.Minute)
	err = content.Load(lctx, db, log)
	cancel()
	if err != nil {
		return err
	}

	// The broker stops when shutdown begins, which closes the event
	// streams so that Shutdown does not wait for them.
	brokerCtx, stopBroker := context.WithCancel(context.Background())
	defer stopBroker()
	events := db.Broker(brokerCtx)
	games, stopComputer, err := startComputer(db, cfg, log)
	if err != nil {
		return err
	}
	defer stopComputer()
	// The sweeper ends the games whose time ran out (with any number of
	// instances, each game once) and writes the heartbeat by which no
	// clock counts the site's outages (game/outage.go); it stops when
	// shutdown begins.
	games.WatchOutages()
	go games.RunSweeper(brokerCtx, time.Second)
	// The tournaments: started, paired and finished on time by every
	// instance (each pairing once, tournament.Service.Pass).
	tournaments := tournament.New(db, games, log)
	tournaments.Hourly = cfg.hourlyArenas
	go tournaments.Run(brokerCtx, time.Second)
	e, err := handlers.New(handlers.Config{
		Events:  events,
		Games:   games,
		BaseURL: cfg.baseURL,
		Secret:  key,
		Log:     log,
		Version: version,
		Commit:  commit,

		Tournaments: tournaments,
		Accounts:    accounts.New(db),
		Content:     content.New(db),
		BehindProxy: cfg.behindProxy,
		Mail:        mail,
		Metrics:     met,
		Streams:     cfg.streams,
	})
	if err != nil {
		return err
	}

	srv := &http.Server{
		Addr:     cfg.addr,
		Handler:  e,
		ErrorLog: slog.NewLogLogger(handler, slog.LevelWarn),
	}
	handlers.LimitServer(srv) // timeouts and the header bound
	srv.RegisterOnShutdown(stopBroker)
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	if met != nil {
		msrv, maddr, err := serveMetrics(cfg.metricsAddr, met, log, errc)
		if err != nil {
			return fmt.Errorf("-metrics-addr: %w", err)
		}
		defer msrv.Close()
		log.Info("serving metrics", "addr", maddr.String(), "path", "/metrics")
	}
	log.Info("serving", "addr", cfg.addr, "base_url", cfg.baseURL, "database", db.Dialect,
		"version", version, "commit", commit)

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// newLogger returns the process's logger of format ("text" or "json", on
// stderr, with the request id of a request's lines), made the default,
// and its handler.
func newLogger(format string) (*slog.Logger, slog.Handler, error) {
	var handler slog.Handler
	switch format {
	case "text":
		handler = slog.NewTextHandler(os.Stderr, nil)
	case "json":
		handler = slog.NewJSONHandler(os.Stderr, nil)
	default:
		return nil, nil, fmt.Errorf("-log-format %q: want text or json", format)
	}
	handler = handlers.LogHandler(handler)
	log := slog.New(handler)
	slog.SetDefault(log)
	return log, handler, nil
}

// checkGames checks the cache of every stored game (game.Verify) and
// prints what it found.
func checkGames(ctx context.Context, db *models.DB) error {
	rep, err := game.Verify(ctx, db)
	if err != nil {
		return err
	}
	for _, m := range rep.Mismatches {
		fmt.Println(m)
	}
	fmt.Printf("%d games checked: %d without a cache yet, %d whose cache differs from the replay of their moves\n",
		rep.Games, rep.Uncached, len(rep.Mismatches))
	if len(rep.Mismatches) > 0 {
		return errors.New("some cached game states are wrong")
	}
	return nil
}

// buildVersion returns the version and the short commit of the binary:
// the -ldflags values, else the commit from the build info (first 7
// characters of vcs.revision); the version stays "dev" when not set.
func buildVersion() (string, string) {
	v, c := version, commit
	if c == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" {
					c = s.Value[:min(7, len(s.Value))]
				}
			}
		}
	}
	return v, c
}

// streamLimits is the flag of handlers.StreamLimits: "per-game,per-client,total".
type streamLimits handlers.StreamLimits

func (l *streamLimits) String() string {
	if l == nil || *l == (streamLimits{}) {
		return ""
	}
	return fmt.Sprintf("%d,%d,%d", l.PerGame, l.PerClient, l.Total)
}

func (l *streamLimits) Set(s string) error {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return errors.New("want three numbers: per game, per client, in all (e.g. 6,40,20000)")
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 1 {
			return fmt.Errorf("%q is not a positive number", p)
		}
		n[i] = v
	}
	*l = streamLimits{PerGame: n[0], PerClient: n[1], Total: n[2]}
	return nil
}
