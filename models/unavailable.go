package models

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err says that the database cannot be reached
// just now (it restarts, it is down, the network to it failed), rather than
// that a query or its data was wrong. Such a request may succeed if tried
// again a moment later; the site answers it with 503 and Retry-After.
//
// It is true for:
//   - a failed connection attempt of pgx (*pgconn.ConnectError: refused,
//     timed out, the server starting up or shutting down, ...);
//   - an error the PostgreSQL server sent with a SQLSTATE of class 08
//     (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
//     57P03 cannot_connect_now or 53300 too_many_connections;
//   - a connection lost under a query: driver.ErrBadConn, sql.ErrConnDone,
//     pgconn.ErrConnClosed, and pgx's own failures to send or receive
//     (network errors, timeouts; its errors that are not the server's);
//   - the connection ending under a read (io.EOF, io.ErrUnexpectedEOF: pgx
//     returns them bare), closed (net.ErrClosed), refused or reset
//     (syscall.ECONNREFUSED, ECONNRESET, EPIPE).
//
// io.EOF and io.ErrUnexpectedEOF are also what a truncated request body
// gives: callers map the errors of reading requests (bad input, 400) first.
//
// Other errors (constraint violations, syntax errors, ErrNotFound,
// ErrConflict, nil) are not.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var connect *pgconn.ConnectError
	if errors.As(err, &connect) {
		return true
	}
	var server *pgconn.PgError
	if errors.As(err, &server) {
		return unavailableCode(server.Code)
	}
	// pgx marks each failure of its own (never one the server sent, which
	// is a PgError) with SafeToRetry: they are failures of the connection.
	var lost interface{ SafeToRetry() bool }
	return errors.As(err, &lost) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// unavailableCode reports whether a SQLSTATE says the server cannot serve
// the connection now.
func unavailableCode(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "53300":
		return true
	}
	return strings.HasPrefix(code, "08")
}
