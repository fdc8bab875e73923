//go:build faults

package faults

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// binary is cmd/oware, built once by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "oware-faults-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "oware")
	build := exec.Command("go", "build", "-o", binary, "oware/cmd/oware")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "faults: build cmd/oware:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// instance is a running server process.
type instance struct {
	t    *testing.T
	name string
	bin  string // the program: binary when empty
	addr string // 127.0.0.1:PORT
	dsn  string
	base string // http://127.0.0.1:PORT
	cmd  *exec.Cmd
	log  string   // its log file
	args []string // flags of its own, after the common ones
	done chan struct{}
}

// startInstance starts cmd/oware on the database dsn and a free port,
// without endgame tables, and waits until /readyz says it is ready. It is
// stopped (SIGTERM) when the test ends, if still running.
func startInstance(t *testing.T, name, dsn string) *instance {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	in := &instance{t: t, name: name, addr: addr, dsn: dsn, base: "http://" + addr, log: filepath.Join(t.TempDir(), name+".log")}
	in.start()
	return in
}

// startProgram is startInstance of the program bin on addr.
func startProgram(t *testing.T, bin, name, dsn, addr string) *instance {
	t.Helper()
	in := &instance{t: t, name: name, bin: bin, addr: addr, dsn: dsn, base: "http://" + addr, log: filepath.Join(t.TempDir(), name+".log")}
	in.start()
	return in
}

// start starts the instance's process on its address and database and
// waits until /readyz says it is ready. It is stopped (SIGTERM) when the
// test ends, if still running.
func (in *instance) start() {
	t := in.t
	t.Helper()
	in.done = make(chan struct{})
	f, err := os.OpenFile(in.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	bin := in.bin
	if bin == "" {
		bin = binary
	}
	in.cmd = exec.Command(bin, "-addr", in.addr, "-database", in.dsn, "-table-seeds", "0", "-build-tables=false",
		"-computer", "1")
	in.cmd.Args = append(in.cmd.Args, in.args...)
	in.cmd.Stdout, in.cmd.Stderr = f, f
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmd, done := in.cmd, in.done
	go func() { cmd.Wait(); f.Close(); close(done) }()
	t.Cleanup(func() {
		if in.alive() {
			in.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-in.done:
			case <-time.After(15 * time.Second):
				in.cmd.Process.Kill()
				<-in.done
			}
		}
	})
	if _, ok := waitFor(60*time.Second, func() bool { return in.alive() && in.ready() }); !ok {
		in.fail("did not get ready")
	}
}

// stop stops the process with SIGTERM (a graceful shutdown) and waits
// for it to end.
func (in *instance) stop() {
	in.cmd.Process.Signal(syscall.SIGTERM)
	<-in.done
}

// alive reports whether the process still runs.
func (in *instance) alive() bool {
	select {
	case <-in.done:
		return false
	default:
		return true
	}
}

// ready reports whether GET /readyz answers 200.
func (in *instance) ready() bool {
	res, err := http.Get(in.base + "/readyz")
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// kill sends SIGKILL and waits for the process to end.
func (in *instance) kill() {
	in.cmd.Process.Signal(syscall.SIGKILL)
	<-in.done
}

// fail ends the test with the tail of the instance's log.
func (in *instance) fail(format string, args ...any) {
	in.t.Helper()
	b, _ := os.ReadFile(in.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	in.t.Fatalf("%s: %s\nlog tail:\n%s", in.name, fmt.Sprintf(format, args...), b)
}
