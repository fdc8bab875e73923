package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Linux: CPU and memory of the processes that serve the load, read from
// /proc, so that a run can say what a move or a page costs in CPU time on
// the whole machine, not only in the load client.

// clockTick is the unit of utime and stime in /proc/<pid>/stat (USER_HZ).
const clockTick = 10 * time.Millisecond

// procCPU returns the CPU time (user and system) that process pid has
// used, or 0 when it is gone.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name in parentheses may hold spaces: the fields start
	// after the last ')' with field 3 (state); utime and stime are fields
	// 14 and 15.
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+sys) * clockTick
}

// selfCPU returns the CPU time this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// findProcs returns the pids whose command name is comm and, when arg is
// not "", whose command line holds it (a PostgreSQL backend names its
// database there: "postgres: user db 127.0.0.1(5432) idle").
func findProcs(comm, arg string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, d := range dirs {
		c, err := os.ReadFile(d + "/comm")
		if err != nil || strings.TrimSpace(string(c)) != comm {
			continue
		}
		if arg != "" {
			cmd, _ := os.ReadFile(d + "/cmdline")
			if !bytes.Contains(cmd, []byte(" "+arg+" ")) {
				continue
			}
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		pids = append(pids, pid)
	}
	return pids
}

// rss returns the resident memory of process pid in bytes.
func rss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// meter measures the CPU of the server, the PostgreSQL backends of one
// database and this client. Backends come and go (pgbench's end with it),
// so while a measurement runs their CPU is read every 100 ms and a backend
// counts with its last reading.
type meter struct {
	server   int    // the server's pid, 0 for none
	database string // the PostgreSQL database whose backends count; "" for none

	start    cpuSample
	mu       sync.Mutex
	first    map[int]time.Duration // each backend's CPU when first seen (0 when born since begin)
	last     map[int]time.Duration // and when last seen
	stop     chan struct{}
	finished sync.WaitGroup
}

// cpuSample is the CPU used by each party.
type cpuSample struct{ server, postgres, client time.Duration }

// begin starts a measurement.
func (m *meter) begin() {
	m.start = cpuSample{client: selfCPU()}
	if m.server != 0 {
		m.start.server = procCPU(m.server)
	}
	m.first, m.last = map[int]time.Duration{}, map[int]time.Duration{}
	if m.database == "" {
		return
	}
	pids := findProcs("postgres", m.database)
	for _, pid := range pids {
		cpu := procCPU(pid)
		m.first[pid], m.last[pid] = cpu, cpu
	}
	m.stop = make(chan struct{})
	m.finished.Go(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-m.stop:
				return
			case <-tick.C:
			}
			if n%10 == 0 {
				pids = findProcs("postgres", m.database)
			}
			m.read(pids)
		}
	})
}

// read takes a reading of the backends pids.
func (m *meter) read(pids []int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, pid := range pids {
		if cpu := procCPU(pid); cpu > 0 {
			if _, seen := m.last[pid]; !seen {
				m.first[pid] = 0 // born since begin
			}
			m.last[pid] = cpu
		}
	}
}

// since ends the measurement and returns the CPU used by each party since
// begin.
func (m *meter) since() cpuSample {
	s := cpuSample{client: selfCPU() - m.start.client}
	if m.server != 0 {
		s.server = procCPU(m.server) - m.start.server
	}
	if m.stop != nil {
		close(m.stop)
		m.finished.Wait()
		m.stop = nil
		m.read(findProcs("postgres", m.database))
	}
	for pid, cpu := range m.last {
		s.postgres += cpu - m.first[pid]
	}
	return s
}

// total is the CPU of all parties.
func (s cpuSample) total() time.Duration { return s.server + s.postgres + s.client }

// per divides each party's CPU by n.
func (s cpuSample) per(n int) cpuSample {
	if n == 0 {
		return cpuSample{}
	}
	d := time.Duration(n)
	return cpuSample{s.server / d, s.postgres / d, s.client / d}
}

// String writes the CPU of each party and the total, in microseconds.
func (s cpuSample) String() string {
	us := func(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e3, 'f', 0, 64) + " µs" }
	return "server " + us(s.server) + " + postgres " + us(s.postgres) + " + client " + us(s.client) + " = " + us(s.total())
}
