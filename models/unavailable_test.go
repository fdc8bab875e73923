package models_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"oware/models"
	"oware/models/modelstest"
)

// closedPort returns a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestUnavailableConnecting: the errors of connection attempts that fail
// are the database out of reach.
func TestUnavailableConnecting(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		_, err := pgx.Connect(t.Context(), "postgres://postgres@"+closedPort(t)+"/x?sslmode=disable&connect_timeout=5")
		if err == nil || !models.Unavailable(err) || !models.Unavailable(fmt.Errorf("load game: %w", err)) {
			t.Fatalf("connection refused: Unavailable false for %v", err)
		}
	})
	t.Run("deadline while connecting", func(t *testing.T) {
		// A server that accepts and never answers.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close()
			}
		}()
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		_, err = pgx.Connect(ctx, "postgres://postgres@"+ln.Addr().String()+"/x?sslmode=disable")
		if err == nil || !errors.Is(err, context.DeadlineExceeded) || !models.Unavailable(err) {
			t.Fatalf("deadline while connecting: Unavailable false for %v", err)
		}
	})
}

// TestUnavailableValues: the server's shutdown codes and a bad connection
// of database/sql are the database out of reach; a refusal of the data is
// not.
func TestUnavailableValues(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"}, true},
		{&pgconn.PgError{Severity: "FATAL", Code: "57P02", Message: "terminating connection because of crash of another server process"}, true},
		{&pgconn.PgError{Severity: "FATAL", Code: "57P03", Message: "the database system is starting up"}, true},
		{&pgconn.PgError{Severity: "FATAL", Code: "08006", Message: "connection failure"}, true},
		{&pgconn.PgError{Severity: "FATAL", Code: "53300", Message: "sorry, too many clients already"}, true},
		{fmt.Errorf("models: update game x: %w", driver.ErrBadConn), true},
		{fmt.Errorf("query: %w", pgconn.ErrConnClosed), true},
		{io.ErrUnexpectedEOF, true}, // pgx's read of a connection the server closed
		{fmt.Errorf("read: %w", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}), true},
		{&pgconn.PgError{Severity: "ERROR", Code: "23505", Message: "duplicate key value violates unique constraint"}, false},
		{&pgconn.PgError{Severity: "ERROR", Code: "42601", Message: "syntax error"}, false},
		{&pgconn.PgError{Severity: "ERROR", Code: "57014", Message: "canceling statement due to user request"}, false},
		{models.ErrNotFound, false},
		{fmt.Errorf("models: update game x: %w", models.ErrConflict), false},
		{context.Canceled, false},
		{errors.New("something else"), false},
		{nil, false},
	} {
		if got := models.Unavailable(c.err); got != c.want {
			t.Errorf("Unavailable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestUnavailableServer: on a real PostgreSQL, a connection the server
// terminated (as a restart does, SQLSTATE 57P01) is the database out of
// reach; a unique violation and a syntax error are not.
func TestUnavailableServer(t *testing.T) {
	server := os.Getenv(modelstest.EnvPostgres)
	if server == "" {
		t.Skipf("%s is not set", modelstest.EnvPostgres)
	}
	ctx := t.Context()
	victim, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close(context.Background())
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)

	_, err = victim.Exec(ctx, "SELEKT 1")
	if err == nil || models.Unavailable(err) {
		t.Errorf("syntax error: Unavailable(%v) = true", err)
	}
	_, err = victim.Exec(ctx, "CREATE TEMP TABLE u (k int PRIMARY KEY); INSERT INTO u VALUES (1); INSERT INTO u VALUES (1)")
	if err == nil || models.Unavailable(err) {
		t.Errorf("unique violation: Unavailable(%v) = true", err)
	}

	var ok bool
	if err := admin.QueryRow(ctx, "SELECT pg_terminate_backend($1)", victim.PgConn().PID()).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend: %v %v", ok, err)
	}
	// The backend is gone once the server says so.
	for range 100 {
		var n int
		admin.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", victim.PgConn().PID()).Scan(&n)
		if n == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, err = victim.Exec(ctx, "SELECT 1")
	if err == nil || !models.Unavailable(err) {
		t.Fatalf("terminated connection: Unavailable false for %v", err)
	}
}
