//go:build faults

package faults

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRollingUpgrade follows docs/operating.md's rolling upgrade: bots
// play on two instances of one database (through a list of addresses, as
// behind a load balancer, the third of which is not up yet); a newer
// release (this one with a migration more, which adds a column) starts on
// the third address and migrates; the old instances' /readyz then say
// "schema newer than this server", and they are stopped with SIGTERM one
// after the other while the bots go on on the new one. No answer is a 5xx
// other than 503 and no acknowledged move is lost or stored twice.
func TestRollingUpgrade(t *testing.T) {
	newer := buildNewer(t)
	pg := startPostgres(t)
	a := startInstance(t, "old-a", pg.URL())
	b := startInstance(t, "old-b", pg.URL())
	newAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	l := newLedger()
	bots, stopBots := startBots(l, 6, a.base, b.base, "http://"+newAddr)
	defer stopBots()
	time.Sleep(2 * time.Second)

	n := startProgram(t, newer, "new", pg.URL(), newAddr)
	for _, old := range []*instance{a, b} {
		if _, ok := waitFor(10*time.Second, func() bool { return readyz(old) == "schema newer than this server" }); !ok {
			old.fail("/readyz says %q after the newer release migrated, want \"schema newer than this server\"", readyz(old))
		}
	}
	before := l.moves()
	for _, old := range []*instance{a, b} {
		old.stop()
	}
	at := time.Now()
	if _, ok := waitFor(30*time.Second, func() bool {
		for _, bot := range bots {
			if !bot.ackedSince(at) {
				return false
			}
		}
		return true
	}); !ok {
		n.fail("not every bot went on playing on the new release")
	}
	stopBots()
	t.Logf("%d moves before the old instances stopped, %d in all; longest time without a move %v; answers by status %v (0: none)",
		before, l.moves(), l.longestGap(at, time.Now()).Round(time.Millisecond), l.statuses)
	var has bool
	if err := pg.conn(t.Context()).QueryRow(t.Context(),
		`SELECT count(*) = 1 FROM information_schema.columns WHERE table_name = 'games' AND column_name = 'upgrade_probe'`).Scan(&has); err != nil || !has {
		t.Errorf("the newer release's migration is not applied: %v", err)
	}
	verify(t, pg, l, n.base)
}

// readyz returns the status /readyz of in gives ("ready", ...).
func readyz(in *instance) string {
	res, err := http.Get(in.base + "/readyz")
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	s := string(b)
	if i := strings.Index(s, `"status":"`); i >= 0 {
		s = s[i+len(`"status":"`):]
		if j := strings.IndexByte(s, '"'); j >= 0 {
			return s[:j]
		}
	}
	return s
}

// buildNewer builds cmd/oware from a copy of this module with one
// migration more in both dialects (a column added to games, as a newer
// release would) and returns the program's path.
func buildNewer(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "data", "dist", "node_modules":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dialect := range []string{"postgres", "sqlite"} {
		m := "-- +goose Up\nALTER TABLE games ADD COLUMN upgrade_probe integer NOT NULL DEFAULT 0;\n"
		if err := os.WriteFile(filepath.Join(dst, "models", "migrations", dialect, "99001_upgrade_probe.sql"), []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dst, "oware-newer")
	build := exec.Command("go", "build", "-o", bin, "./cmd/oware")
	build.Dir = dst
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the newer release: %v\n%s", err, out)
	}
	return bin
}
