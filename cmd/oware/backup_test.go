package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"oware/engine"
	"oware/game"
	"oware/models"
	"oware/models/modelstest"
)

// storeGames creates n games on db and plays plies moves in each (the
// first legal pit every time), returning their ids.
func storeGames(t *testing.T, db *models.DB, n, plies int) []string {
	t.Helper()
	ctx := t.Context()
	s := game.New(db, slog.New(slog.DiscardHandler))
	var ids []string
	for range n {
		g, _, err := s.Create(ctx, game.Settings{Rules: "abapa"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Join(ctx, g); err != nil {
			t.Fatal(err)
		}
		for range plies {
			if g, err = s.Load(ctx, g.ID); err != nil {
				t.Fatal(err)
			}
			pits := g.Engine.LegalMoves().Pits()
			if err := s.Move(ctx, g, g.Position.ToMove, engine.Label(pits[0])); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, g.ID)
	}
	return ids
}

// checkRestored opens the restored database dsn, runs -check-games on it
// and checks that each game of want is there with at least its moves.
func checkRestored(t *testing.T, dsn string, want map[string]int) {
	t.Helper()
	out := captureStdout(t, func() error { return run([]string{"-database", dsn, "-check-games"}) })
	// Every game checked, none differing (the -check-games line).
	if !strings.Contains(out, " 0 whose cache differs") {
		t.Errorf("-check-games on the restored database: %q", out)
	}
	db, err := models.Open(t.Context(), dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := game.New(db, slog.New(slog.DiscardHandler))
	for id, moves := range want {
		g, err := s.Load(t.Context(), id)
		if err != nil {
			t.Errorf("game %s after the restore: %v", id, err)
			continue
		}
		if len(g.Engine.Moves) < moves {
			t.Errorf("game %s has %d moves after the restore, want at least %d", id, len(g.Engine.Moves), moves)
		}
	}
}

// captureStdout runs f with os.Stdout going to a pipe and returns what f
// wrote; f must succeed.
func captureStdout(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	var out []byte
	done := make(chan struct{})
	go func() { out, _ = io.ReadAll(r); close(done) }()
	err = f()
	os.Stdout = old
	w.Close()
	<-done
	if err != nil {
		t.Fatalf("%v (output %q)", err, out)
	}
	return string(out)
}

// TestBackupRestoreSQLite backs up an SQLite database while moves are
// being stored on it, restores the copy as a fresh database (a copied
// file) and checks that -check-games passes on it and that every game
// stored before the backup began is there with its moves.
func TestBackupRestoreSQLite(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "oware.db")
	db, err := models.Open(t.Context(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ids := storeGames(t, db, 3, 6)
	want := map[string]int{}
	for _, id := range ids {
		want[id] = 6
	}

	// Moves go on being stored while the backup runs.
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() {
		s := game.New(db, slog.New(slog.DiscardHandler))
		for ctx.Err() == nil {
			g, _, err := s.Create(ctx, game.Settings{Rules: "abapa"})
			if err != nil {
				return
			}
			s.Join(ctx, g)
		}
	})
	copyPath := filepath.Join(dir, "backup.db")
	out := captureStdout(t, func() error { return run([]string{"backup", "-database", src, copyPath}) })
	cancel()
	wg.Wait()
	if !strings.Contains(out, copyPath) {
		t.Errorf("backup printed %q, want the path it wrote", out)
	}

	// A second backup to the same path is refused and leaves it alone.
	if err := run([]string{"backup", "-database", src, copyPath}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("backup over an existing file: %v", err)
	}
	// A database that does not exist is not created.
	missing := filepath.Join(dir, "nothing.db")
	if err := run([]string{"backup", "-database", missing, filepath.Join(dir, "x.db")}); err == nil {
		t.Error("backup of a missing database succeeded")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("backup created the missing database")
	}

	// Restore: the copy, put in place of a fresh database.
	restored := filepath.Join(t.TempDir(), "oware.db")
	b, err := os.ReadFile(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(restored, b, 0o600); err != nil {
		t.Fatal(err)
	}
	checkRestored(t, restored, want)
}

// TestBackupRestorePostgres backs a PostgreSQL database up with pg_dump,
// restores it with pg_restore into a fresh empty database and checks it
// as TestBackupRestoreSQLite does (the procedure of docs/operating.md).
// It needs OWARE_TEST_POSTGRES and pg_dump.
func TestBackupRestorePostgres(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	pgDump, pgRestore := pgTool(t, "pg_dump"), pgTool(t, "pg_restore")
	ids := storeGames(t, db, 3, 6)
	want := map[string]int{}
	for _, id := range ids {
		want[id] = 6
	}
	if err := run([]string{"backup", "-database", modelstest.DSN(t, db), filepath.Join(t.TempDir(), "x")}); err == nil {
		t.Error("oware backup of a PostgreSQL database succeeded")
	}
	dump := filepath.Join(t.TempDir(), "oware.dump")
	if out, err := exec.Command(pgDump, "-Fc", "-f", dump, modelstest.DSN(t, db)).CombinedOutput(); err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, out)
	}
	fresh := modelstest.EmptyPostgres(t)
	if out, err := exec.Command(pgRestore, "--no-owner", "-d", fresh, dump).CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v\n%s", err, out)
	}
	checkRestored(t, fresh, want)
}

// pgTool finds a PostgreSQL client program: PostgreSQL 15's, else on PATH.
func pgTool(t *testing.T, name string) string {
	t.Helper()
	if p := filepath.Join("/usr/lib/postgresql/15/bin", name); fileExists(p) {
		return p
	}
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found", name)
	}
	return p
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
