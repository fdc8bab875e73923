package game

import (
	"os"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLowerThread lowers a goroutine's thread as a worker's and reads its
// policy and nice value back: SCHED_IDLE when asked (or, where the kernel
// refuses it to every thread, nice 10 below the process's), else
// SCHED_NORMAL at nice 10 below the process's (at most 19).
func TestLowerThread(t *testing.T) {
	prio, _ := syscall.Getpriority(syscall.PRIO_PROCESS, os.Getpid())
	want := min(20-prio+10, 19) // the raw value is 20 - nice
	allowed := make(chan bool)
	go func() { // does the kernel let this process's threads take SCHED_IDLE?
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		allowed <- unix.SchedSetAttr(0, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_IDLE}, 0) == nil
	}()
	idleAllowed := <-allowed
	for _, idle := range []bool{true, false} {
		got := make(chan [2]int)
		go func() {
			lowerThread(10, idle)
			policy := -1
			if a, err := unix.SchedGetAttr(0, 0); err == nil {
				policy = int(a.Policy)
			}
			prio, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
			got <- [2]int{policy, 20 - prio} // the raw value is 20 - nice
		}()
		g := <-got
		switch {
		case idle && g[0] == unix.SCHED_IDLE:
		case idle && !idleAllowed && g[0] == unix.SCHED_NORMAL && g[1] == want:
			t.Logf("SCHED_IDLE refused here: nice %d", want)
		case !idle && g[0] == unix.SCHED_NORMAL && g[1] == want:
		default:
			t.Errorf("idle %v: policy %d, nice %d; want SCHED_IDLE (%d) or SCHED_NORMAL (%d) at nice %d", idle, g[0], g[1], unix.SCHED_IDLE, unix.SCHED_NORMAL, want)
		}
	}
}

// TestThreadNice: a worker's nice value is the pool's below the process's,
// never past 19: at 0 a worker at 10 is at 10; at 5, 15; at 12 or 19, 19
// (not 10, which would outrank the process's requests).
func TestThreadNice(t *testing.T) {
	for _, c := range [][3]int{{0, 10, 10}, {5, 10, 15}, {12, 10, 19}, {19, 10, 19}, {0, 19, 19}, {3, 1, 4}} {
		if got := threadNice(c[0], c[1]); got != c[2] {
			t.Errorf("threadNice(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
