// Package models keeps the site's data: the GORM models, the embedded
// schema migrations, the queries on them and the event broker that tells
// every server instance when a game changed.
//
// Two databases serve the same models: PostgreSQL in production and an
// embedded SQLite file (pure Go, no cgo) as the zero-setup default. The
// schema comes from the versioned SQL files under migrations/, one folder
// per dialect, run by goose when the database is opened.
//
// One storage style per path: the cold paths (accounts, pages, tutorials,
// history, ratings, tournaments, puzzles, chat) go through GORM; the hot
// paths (a game's load with the visitor's seat, a move's write and its
// notification) are hand-written SQL in the *_sql.go files, straight on
// pgx (database/sql on SQLite), one round trip each. Errors come back one
// way: a missing row is ErrNotFound (notFound maps GORM's), a lost version
// check or a duplicate is ErrConflict, and any other error is the
// driver's, wrapped with %w (fmt.Errorf("models: <what>: %w", err) where
// the caller lacks the context), so that errors.Is and Unavailable see
// through it. Only the services (game, accounts, tournament, content) use
// this package; handlers never do.
package models

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/glebarez/sqlite"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
)

// Errors returned by the queries. Callers test them with errors.Is.
var (
	// ErrNotFound: no row has the given id or key.
	ErrNotFound = errors.New("not found")
	// ErrConflict: the row changed since it was loaded (its version moved
	// on), or the write would duplicate a unique value such as a move's ply.
	// Nothing was written; reload and try again.
	ErrConflict = errors.New("changed meanwhile")
)

// The two values of DB.Dialect.
const (
	Postgres = "postgres"
	SQLite   = "sqlite"
)

// DB is an open database. It is safe for concurrent use.
type DB struct {
	// Gorm is the GORM handle, for queries this package does not offer.
	Gorm *gorm.DB
	// Dialect is Postgres ("postgres") or SQLite ("sqlite").
	Dialect string

	dsn     string
	log     *slog.Logger
	sql     *sql.DB            // under Gorm: the hot path's queries on SQLite
	pool    *pgxpool.Pool      // PostgreSQL: the connections of Gorm and of the hot path
	hub     *hub               // this process's subscribers of game events
	ctx     context.Context    // done when the DB is closed: stops the broker
	stop    context.CancelFunc // cancels ctx
	once    sync.Once          // starts the broker
	broker  Broker
	pub     *publisher // this instance's events after commit (PostgreSQL)
	pubOnce sync.Once  // starts pub
	close   sync.Once
	latest  int64 // the newest embedded migration's version, for Ready
}

// Open opens the database named by dsn and brings its schema up to date
// with the embedded migrations.
//
// A dsn starting with "postgres://" or "postgresql://" is a PostgreSQL
// connection URL. Anything else is the path of an SQLite file; its folder is
// created when missing. The database has one connection (requests queue for
// it), with WAL, foreign keys, a busy timeout of 5 s (for other processes on
// the file) and immediate transactions. Code running inside a transaction must
// use the transaction's handle only: a second query on DB.Gorm would wait
// for the connection forever. log receives migration and broker messages; nil
// discards them.
func Open(ctx context.Context, dsn string, log *slog.Logger) (*DB, error) {
	return OpenWith(ctx, dsn, log, Options{})
}

// Options are the settings of OpenWith besides the dsn and the log.
type Options struct {
	// Tracer sees every statement sent to PostgreSQL, GORM's and the hot
	// path's (tests count a request's round trips with it); nil for none.
	// SQLite ignores it.
	Tracer pgx.QueryTracer
}

// pingIdle is how long a PostgreSQL connection may sit idle before the
// pool pings it before lending it (pgxpool's default is 1 s).
const pingIdle = 10 * time.Second

// OpenWith is Open with opts.
func OpenWith(ctx context.Context, dsn string, log *slog.Logger, opts Options) (*DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	db := &DB{dsn: dsn, log: log, hub: newHub()}
	var dialector gorm.Dialector
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		db.Dialect = Postgres
		cfg, err := pgxpool.ParseConfig(dsn)
		if err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		// Requests queue for a connection instead of failing with "too
		// many clients" (PostgreSQL's default max_connections is 100,
		// shared by every instance).
		cfg.MaxConns = maxPostgresConns
		cfg.ConnConfig.Tracer = opts.Tracer
		// pgxpool pings a connection idle for over a second before lending
		// it: the heartbeat's connection every second on an idle site.
		cfg.ShouldPing = func(_ context.Context, p pgxpool.ShouldPingParams) bool {
			return p.IdleDuration > pingIdle
		}
		if db.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
			return nil, fmt.Errorf("models: open postgres: %w", err)
		}
		// GORM shares the pool's connections.
		dialector = postgres.New(postgres.Config{Conn: stdlib.OpenDBFromPool(db.pool)})
	} else {
		db.Dialect = SQLite
		if dir := filepath.Dir(dsn); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("models: create the database folder: %w", err)
			}
		}
		dialector = sqlite.Open(sqliteDSN(dsn))
	}
	g, err := gorm.Open(dialector, &gorm.Config{
		Logger:                 logger.Discard,
		TranslateError:         true,
		SkipDefaultTransaction: true, // multi-statement writes use explicit transactions
		NowFunc:                func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
	})
	if err != nil {
		if db.pool != nil {
			db.pool.Close()
		}
		return nil, fmt.Errorf("models: open %s: %w", db.Dialect, err)
	}
	db.Gorm = g
	if db.sql, err = g.DB(); err != nil {
		return nil, err
	}
	if db.Dialect == SQLite {
		// One connection: SQLite has one writer at a time anyway, and
		// queueing in database/sql is fairer and faster than the busy
		// timeout's sleep-and-retry (p99 of a move 47 ms instead of 150 ms
		// under load on 2 cores).
		db.sql.SetMaxOpenConns(1)
	}
	db.ctx, db.stop = context.WithCancel(context.Background())
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.migrateJobs(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// sqliteDSN appends the connection settings the site relies on to an
// SQLite file path (which may carry options of its own after a "?").
func sqliteDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	if strings.Contains(path, "?") {
		return path + "&" + q.Encode()
	}
	return path + "?" + q.Encode()
}

// Close stops the broker and closes the database. Calling it again does
// nothing.
func (db *DB) Close() error {
	var err error
	db.close.Do(func() {
		db.stop()
		err = db.sql.Close()
		if db.pool != nil {
			db.pool.Close()
		}
	})
	return err
}

// Closed returns a context done once the database is closed: the end of
// whatever works on it in the background (the computer's jobs).
func (db *DB) Closed() context.Context { return db.ctx }

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.sql.PingContext(ctx) }

// secretKey is the settings key of the cookie secret.
const secretKey = "cookie_secret"

// Secret returns the site's cookie secret: 32 random bytes generated and
// stored (hex, settings key "cookie_secret") on the first call, so every
// instance on the same database signs cookies with the same key.
func (db *DB) Secret(ctx context.Context) ([]byte, error) {
	b := make([]byte, 32)
	rand.Read(b)
	fresh := Setting{Key: secretKey, Value: hex.EncodeToString(b)}
	// Insert when missing; an instance that raced us leaves its value.
	err := db.Gorm.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&fresh).Error
	if err != nil {
		return nil, fmt.Errorf("models: store the secret: %w", err)
	}
	var s Setting
	if err := db.Gorm.WithContext(ctx).First(&s, "key = ?", secretKey).Error; err != nil {
		return nil, fmt.Errorf("models: read the secret: %w", err)
	}
	secret, err := hex.DecodeString(s.Value)
	if err != nil || len(secret) == 0 {
		return nil, fmt.Errorf("models: the stored secret is not hex: %q", s.Value)
	}
	return secret, nil
}

// HashToken returns the SHA-256 of a secret token in lowercase hex (64
// characters): what the database keeps of a seat's bearer token
// (Game.SouthToken, Game.NorthToken, VisitorSeat.TokenHash), a visitor id
// (Visitor.ID) and a password reset link's token (PasswordReset.TokenHash).
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// NewToken returns a new secret bearer token: 32 random bytes from
// crypto/rand, base64url without padding (43 characters).
func NewToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// maxPostgresConns is one instance's share of PostgreSQL connections.
const maxPostgresConns = 20

var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// randomKey returns n characters of lowercase base32 (a-z, 2-7) from
// crypto/rand: 5 random bits per character.
func randomKey(n int) string {
	b := make([]byte, (n*5+7)/8)
	rand.Read(b)
	return lowerBase32.EncodeToString(b)[:n]
}

// notFound maps GORM's missing-row error to ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}

// PoolStat returns the figures of the PostgreSQL connection pool (shared
// by GORM and the hot path), or nil on SQLite, whose connections
// database/sql keeps (Gorm.DB().Stats()).
func (db *DB) PoolStat() *pgxpool.Stat {
	if db.pool == nil {
		return nil
	}
	return db.pool.Stat()
}
