//go:build faults

package faults

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgBin is the folder of the PostgreSQL binaries the tests run.
const pgBin = "/usr/lib/postgresql/15/bin"

// postgres is a private PostgreSQL server of one test: its data folder,
// port and the user that runs it (postgres when the test runs as root,
// since initdb refuses root).
type postgres struct {
	t      *testing.T
	dir    string // holds data/, the socket and log
	port   int
	runner []string // the command prefix that runs as the server's user
}

// startPostgres initializes and starts a private PostgreSQL on a free
// port; it is stopped and removed when the test ends. The test is skipped
// when the binaries are missing.
func startPostgres(t *testing.T) *postgres {
	t.Helper()
	for _, b := range []string{"initdb", "pg_ctl"} {
		if _, err := os.Stat(filepath.Join(pgBin, b)); err != nil {
			t.Skipf("PostgreSQL 15 binaries not found (%v): skipping the fault test", err)
		}
	}
	dir, err := os.MkdirTemp("", "oware-faults-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	p := &postgres{t: t, dir: dir, port: freePort(t)}
	if os.Getuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skipf("running as root and no user postgres to run initdb as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		p.runner = []string{"runuser", "-u", "postgres", "--"}
	}
	p.run("initdb", "-D", p.data(), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
	p.ctl("start")
	t.Cleanup(func() { p.ctlQuiet("stop", "-m", "immediate") })
	return p
}

// data is the data folder.
func (p *postgres) data() string { return filepath.Join(p.dir, "data") }

// URL is the connection URL of its database "postgres".
func (p *postgres) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.port)
}

// ctl runs pg_ctl with args (start, stop, restart and their options),
// waiting for the server to be up or down.
func (p *postgres) ctl(args ...string) {
	p.t.Helper()
	if out, err := p.pgctl(args...); err != nil {
		log, _ := os.ReadFile(filepath.Join(p.dir, "log"))
		p.t.Fatalf("pg_ctl %v: %v\n%s\nlog:\n%s", args, err, out, log)
	}
}

func (p *postgres) ctlQuiet(args ...string) { p.pgctl(args...) }

func (p *postgres) pgctl(args ...string) ([]byte, error) {
	full := append([]string{"-D", p.data(), "-w", "-t", "60", "-l", filepath.Join(p.dir, "log"),
		"-o", fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", p.port, p.dir)}, args...)
	return p.command("pg_ctl", full...).CombinedOutput()
}

// run runs a PostgreSQL binary as the server's user and fails the test
// if it fails.
func (p *postgres) run(bin string, args ...string) {
	p.t.Helper()
	if out, err := p.command(bin, args...).CombinedOutput(); err != nil {
		p.t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
}

func (p *postgres) command(bin string, args ...string) *exec.Cmd {
	argv := append(append([]string{}, p.runner...), filepath.Join(pgBin, bin))
	argv = append(argv, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = p.dir
	return cmd
}

// conn connects to its database "postgres"; closed when the test ends.
func (p *postgres) conn(ctx context.Context) *pgx.Conn {
	p.t.Helper()
	c, err := pgx.Connect(ctx, p.URL())
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// freePort returns a TCP port of 127.0.0.1 that nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitFor calls ok every 20 ms until it is true or the timeout passes; it
// returns how long it took and whether ok came true.
func waitFor(timeout time.Duration, ok func() bool) (time.Duration, bool) {
	began := time.Now()
	for time.Since(began) < timeout {
		if ok() {
			return time.Since(began), true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(began), false
}
