// Package faults holds the fault tests of the server, behind the build tag
// "faults" (go test -tags faults ./faults): a private PostgreSQL restarted
// while bots play through the JSON API, and kill -9 of one of two
// instances under load. Each checks that clients only ever get 2xx, 4xx
// or 503 (never another 5xx), that the server recovers by itself, and
// that every move acknowledged with 2xx is stored exactly once.
//
// The tests start their own PostgreSQL (initdb and pg_ctl of PostgreSQL
// 15, on a free port, in a temporary folder) and build cmd/oware once;
// they never touch a shared server. Without the PostgreSQL binaries they
// are skipped.
package faults
