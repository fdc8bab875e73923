package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemdUnit checks oware.service and oware-worker.service with
// systemd-analyze: verify finds
// nothing to say (an unknown or misspelt setting is only a warning there,
// so any output fails), and its security review rates the unit's exposure
// at most 2.0 of 10 ("OK"; the threshold is in tenths). The unit's program is replaced by an
// executable that exists here. Without systemd-analyze the test is
// skipped (.ci/run installs it). The worker unit must keep its searches
// at CPUWeight=10 and SCHED_IDLE (docs/operating.md).
func TestSystemdUnit(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not found")
	}
	for _, name := range []string{"oware.service", "oware-worker.service"} {
		unit, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"\nUser=oware\n", "\nNoNewPrivileges=yes\n", "\nProtectSystem=strict\n",
			"\nRestart=on-failure\n", "\nExecStart=/usr/local/bin/oware"} {
			if !strings.Contains(string(unit), want) {
				t.Errorf("%s lacks %q", name, strings.TrimSpace(want))
			}
		}
		if name == "oware-worker.service" {
			for _, want := range []string{"\nCPUWeight=10\n", "\nCPUSchedulingPolicy=idle\n"} {
				if !strings.Contains(string(unit), want) {
					t.Errorf("%s lacks %q: a search must not take CPU from the site or PostgreSQL", name, strings.TrimSpace(want))
				}
			}
		}
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), name)
		text := strings.Replace(string(unit), "ExecStart=/usr/local/bin/oware", "ExecStart="+self, 1)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(analyze, "verify", path).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("systemd-analyze verify %s: %v\n%s", name, err, out)
		}
		out, err := exec.Command(analyze, "security", "--offline=yes", "--threshold=20", path).CombinedOutput()
		if err != nil {
			t.Errorf("systemd-analyze security %s: %v (exposure above 2.0)\n%s", name, err, out)
		}
	}
}
