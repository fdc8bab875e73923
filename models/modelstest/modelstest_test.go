package modelstest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestDropStaleTemplates: of four template databases, the one last used 25
// hours ago and an interrupted build's go; the one used an hour ago stays
// as it was, and the one with no time in its comment stays, given now.
func TestDropStaleTemplates(t *testing.T) {
	server := os.Getenv(EnvPostgres)
	if server == "" {
		t.Skipf("%s is not set", EnvPostgres)
	}
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	// Test processes building or dropping templates wait meanwhile.
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(templateLock)); err != nil {
		t.Fatal(err)
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", int64(templateLock))

	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	old, recent, bare, build := "oware_tmpl_ci_test_old", "oware_tmpl_ci_test_recent", "oware_tmpl_ci_test_bare", "oware_tmpl_ci_test_build"
	names := []string{old, recent, bare, build}
	drop := func() {
		for _, n := range names {
			conn.Exec(context.Background(), "ALTER DATABASE "+n+" WITH IS_TEMPLATE false")
			conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+n+" WITH (FORCE)")
		}
	}
	drop()
	defer drop()
	for _, sql := range []string{
		"CREATE DATABASE " + old + " IS_TEMPLATE true",
		"COMMENT ON DATABASE " + old + " IS 'oware test template, last used 2026-12-06T11:00:00Z'",
		"CREATE DATABASE " + recent + " IS_TEMPLATE true",
		"COMMENT ON DATABASE " + recent + " IS 'oware test template, last used 2026-12-07T11:00:00Z'",
		"CREATE DATABASE " + bare + " IS_TEMPLATE true",
		"CREATE DATABASE " + build,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	if err := dropStaleTemplates(ctx, conn, "oware_tmpl_ci_test_", "oware_tmpl_ci_test_current", now); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		recent: "oware test template, last used 2026-12-07T11:00:00Z",
		bare:   "oware test template, last used 2026-12-07T12:00:00Z",
	}
	rows, err := conn.Query(ctx, `SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE starts_with(datname, 'oware_tmpl_ci_test_')`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for rows.Next() {
		var n, c string
		if err := rows.Scan(&n, &c); err != nil {
			t.Fatal(err)
		}
		got[n] = c
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("databases left: %v, want %v", got, want)
	}
	for n, c := range want {
		if got[n] != c {
			t.Errorf("%s: comment %q, want %q", n, got[n], c)
		}
	}
}
