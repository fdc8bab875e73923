// Package modelstest opens throwaway databases for tests, on SQLite and,
// when OWARE_TEST_POSTGRES is set, on PostgreSQL.
package modelstest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
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
func Open(t testing.TB, dialect string) *models.DB {
	t.Helper()
	var dsn string
	switch dialect {
	case models.SQLite:
		dsn = filepath.Join(t.TempDir(), "oware.db")
	case models.Postgres:
		dsn = createPostgres(t)
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
	return createPostgres(t)
}

// createPostgres creates a fresh database, drops it when the test ends,
// and returns its URL.
func createPostgres(t testing.TB) string {
	t.Helper()
	server := os.Getenv(EnvPostgres)
	if server == "" {
		t.Skipf("modelstest: %s is not set; skipping PostgreSQL", EnvPostgres)
	}
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("modelstest: %s: %v", EnvPostgres, err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "oware_test_" + hex.EncodeToString(b)
	admin(t, server, "CREATE DATABASE "+name)
	t.Cleanup(func() { admin(t, server, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	u.Path = "/" + name
	return u.String()
}

// admin runs one statement on the server's maintenance database.
func admin(t testing.TB, server, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("modelstest: connect to %s: %v", EnvPostgres, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("modelstest: %s: %v", sql, err)
	}
}
