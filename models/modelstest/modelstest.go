// Package modelstest opens throwaway databases for tests, on SQLite and,
// when OWARE_TEST_POSTGRES is set, on PostgreSQL.
package modelstest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"oware/models"
)

// EnvPostgres names the environment variable with the URL of a PostgreSQL
// server the tests may create databases on, e.g.
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable.
const EnvPostgres = "OWARE_TEST_POSTGRES"

// Dialects returns the dialects tests run on: "sqlite" and "postgres".
func Dialects() []string { return []string{models.SQLite, models.Postgres} }

// dsns remembers the DSN of every database Open returned, for Reopen.
var dsns sync.Map // *models.DB -> string

// Open returns a migrated, empty database of the given dialect, closed
// (and, on PostgreSQL, dropped) when the test ends.
//
// "sqlite" is a file in t.TempDir(). "postgres" is a new database
// oware_test_<random> on the server of OWARE_TEST_POSTGRES; without that
// variable the test is skipped. Other dialects fail the test.
//
// The migrations run once per test process and dialect, not per database:
// SQLite's migrated file is kept in memory and written out for each test;
// PostgreSQL's databases are created from the template database
// oware_tmpl_<digest of the migrations>, which the first process to need
// it builds (see postgresTemplate).
func Open(t testing.TB, dialect string) *models.DB {
	t.Helper()
	var dsn string
	switch dialect {
	case models.SQLite:
		dsn = filepath.Join(t.TempDir(), "oware.db")
		sqliteOnce.Do(func() { sqliteFile, sqliteErr = migratedSQLite() })
		if sqliteErr != nil {
			t.Fatalf("modelstest: migrate the SQLite template: %v", sqliteErr)
		}
		if err := os.WriteFile(dsn, sqliteFile, 0o644); err != nil {
			t.Fatalf("modelstest: %v", err)
		}
	case models.Postgres:
		server := postgresServer(t)
		pgOnce.Do(func() { pgTemplate, pgErr = postgresTemplate(server) })
		if pgErr != nil {
			t.Fatalf("modelstest: the PostgreSQL template: %v", pgErr)
		}
		dsn = createPostgres(t, pgTemplate)
	default:
		t.Fatalf("modelstest: unknown dialect %q", dialect)
	}
	return open(t, dsn)
}

// Reopen opens a second handle on the database of db (which Open
// returned), as a second server instance or a restart would; it is closed
// when the test ends. db may already be closed.
func Reopen(t testing.TB, db *models.DB) *models.DB {
	t.Helper()
	dsn, ok := dsns.Load(db)
	if !ok {
		t.Fatal("modelstest: Reopen of a database Open did not return")
	}
	return open(t, dsn.(string))
}

// DSN returns the DSN db was opened with (which Open returned): the SQLite
// file's path or the PostgreSQL URL, e.g. to reach the same database
// another way.
func DSN(t testing.TB, db *models.DB) string {
	t.Helper()
	dsn, ok := dsns.Load(db)
	if !ok {
		t.Fatal("modelstest: DSN of a database Open did not return")
	}
	return dsn.(string)
}

func open(t testing.TB, dsn string) *models.DB {
	t.Helper()
	db, err := models.Open(context.Background(), dsn, nil)
	if err != nil {
		t.Fatalf("modelstest: %v", err)
	}
	dsns.Store(db, dsn)
	t.Cleanup(func() {
		db.Close()
		dsns.Delete(db)
	})
	return db
}

// EmptyPostgres returns the URL of a fresh, empty PostgreSQL database (not
// migrated, e.g. to restore a dump into), dropped when the test ends; it
// skips the test without OWARE_TEST_POSTGRES.
func EmptyPostgres(t testing.TB) string {
	t.Helper()
	postgresServer(t)
	return createPostgres(t, "")
}

// postgresServer returns OWARE_TEST_POSTGRES, skipping the test when it
// is not set.
func postgresServer(t testing.TB) string {
	t.Helper()
	server := os.Getenv(EnvPostgres)
	if server == "" {
		t.Skipf("modelstest: %s is not set; skipping PostgreSQL", EnvPostgres)
	}
	return server
}

// createPostgres creates a fresh database, a copy of template (PostgreSQL's
// template1, empty, when ""), drops it when the test ends, and returns its
// URL.
func createPostgres(t testing.TB, template string) string {
	t.Helper()
	server := postgresServer(t)
	b := make([]byte, 6)
	rand.Read(b)
	name := "oware_test_" + hex.EncodeToString(b)
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	dsn, err := withDatabase(server, name)
	if err != nil {
		t.Fatalf("modelstest: %s: %v", EnvPostgres, err)
	}
	// Commits need not wait for the disk: a test database outlives no
	// crash (a third fewer seconds loading the content on a busy machine).
	admin(t, server, create, "ALTER DATABASE "+name+" SET synchronous_commit = off")
	t.Cleanup(func() { admin(t, server, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	return dsn
}

// withDatabase returns the URL server with its database replaced by name.
func withDatabase(server, name string) (string, error) {
	u, err := url.Parse(server)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// The migrated templates, made once per test process.
var (
	sqliteOnce sync.Once
	sqliteFile []byte // a migrated SQLite database file
	sqliteErr  error

	pgOnce     sync.Once
	pgTemplate string // the migrated template database's name
	pgErr      error
)

// migratedSQLite migrates an SQLite database in a temporary folder and
// returns its file.
func migratedSQLite() ([]byte, error) {
	dir, err := os.MkdirTemp("", "oware_tmpl_")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "oware.db")
	db, err := models.Open(context.Background(), path, nil)
	if err != nil {
		return nil, err
	}
	// Everything into the main file: the copies are that file alone.
	if err := db.Gorm.Exec("PRAGMA wal_checkpoint(TRUNCATE)").Error; err != nil {
		db.Close()
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("%s-wal left with %d bytes", path, fi.Size())
	}
	return os.ReadFile(path)
}

// templateLock is the advisory lock (on the server's maintenance database)
// under which one test process builds a template while the others wait.
const templateLock = 0x6f77617265746d70 // "owaretmp"

// postgresTemplate returns the name of the migrated template database
// oware_tmpl_<16 hex digits>, a digest of the embedded migrations and of
// River's version, building it on the server when missing: migrated as
// Open does under a temporary name, renamed, then marked a template that
// accepts no connections (a connection would make CREATE DATABASE ...
// TEMPLATE fail). Test processes of other packages running at the same
// time wait on templateLock for the first one to build it. A template
// stays on the server for later runs; a change of the migrations makes a
// new one, and the old ones are dropped once unused for staleTemplate
// (dropStaleTemplates).
func postgresTemplate(server string) (string, error) {
	h := sha256.New()
	io.WriteString(h, models.MigrationsDigest())
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/riverqueue/river" {
				io.WriteString(h, m.Path+"@"+m.Version)
			}
		}
	}
	name := "oware_tmpl_" + hex.EncodeToString(h.Sum(nil))[:16]

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(templateLock)); err != nil {
		return "", err
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", int64(templateLock))
	if err := dropStaleTemplates(ctx, conn, "oware_tmpl_", name, time.Now()); err != nil {
		return "", err
	}
	var exists bool
	err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists)
	if err != nil {
		return "", err
	}
	if exists {
		return name, markUsed(ctx, conn, name, time.Now())
	}
	// A build interrupted before (a killed test) left its database.
	build := name + "_build"
	for _, sql := range []string{"DROP DATABASE IF EXISTS " + build + " WITH (FORCE)", "CREATE DATABASE " + build} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", err
		}
	}
	dsn, err := withDatabase(server, build)
	if err != nil {
		return "", err
	}
	db, err := models.Open(ctx, dsn, nil)
	if err != nil {
		return "", err
	}
	db.Close()
	for _, sql := range []string{
		"ALTER DATABASE " + build + " RENAME TO " + name,
		"ALTER DATABASE " + name + " WITH IS_TEMPLATE true ALLOW_CONNECTIONS false",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", err
		}
	}
	return name, markUsed(ctx, conn, name, time.Now())
}

// staleTemplate is how long a template database (of other migrations: an
// older commit, another branch) stays on the server after the last test
// process that used it: a day.
const staleTemplate = 24 * time.Hour

// templateUsed is the start of a template database's comment, followed by
// the time (RFC 3339) a test process last used it.
const templateUsed = "oware test template, last used "

// markUsed sets the comment of the template database name to now, the time
// of its last use (templateUsed).
func markUsed(ctx context.Context, conn *pgx.Conn, name string, now time.Time) error {
	_, err := conn.Exec(ctx, "COMMENT ON DATABASE "+name+" IS '"+templateUsed+now.UTC().Format(time.RFC3339)+"'")
	return err
}

// dropStaleTemplates drops, under templateLock, the template databases
// named prefix* (oware_tmpl_*) other than current last used more than
// staleTemplate before now, and the leftovers of interrupted builds
// (prefix*_build: a build runs under the lock, so none is under way). A
// template with no time in its comment (made before templates had one) is
// given now, and goes a staleTemplate later unless used.
func dropStaleTemplates(ctx context.Context, conn *pgx.Conn, prefix, current string, now time.Time) error {
	rows, err := conn.Query(ctx, `SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2`, prefix, current)
	if err != nil {
		return err
	}
	type template struct{ name, comment string }
	var found []template
	for rows.Next() {
		var tm template
		if err := rows.Scan(&tm.name, &tm.comment); err != nil {
			return err
		}
		found = append(found, tm)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, tm := range found {
		used, err := time.Parse(time.RFC3339, strings.TrimPrefix(tm.comment, templateUsed))
		switch {
		case strings.HasSuffix(tm.name, "_build"), err == nil && now.Sub(used) > staleTemplate:
			for _, sql := range []string{
				"ALTER DATABASE " + tm.name + " WITH IS_TEMPLATE false",
				"DROP DATABASE IF EXISTS " + tm.name + " WITH (FORCE)",
			} {
				if _, err := conn.Exec(ctx, sql); err != nil {
					return err
				}
			}
		case err != nil:
			if err := markUsed(ctx, conn, tm.name, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// admin runs statements, in order, on the server's maintenance database.
func admin(t testing.TB, server string, sqls ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("modelstest: connect to %s: %v", EnvPostgres, err)
	}
	defer conn.Close(ctx)
	for _, sql := range sqls {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("modelstest: %s: %v", sql, err)
		}
	}
}
