package game

import (
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLowerThread lowers a goroutine's thread as a worker's and reads its
// policy and nice value back: SCHED_IDLE when asked (or, where the kernel
// refuses it to every thread, nice 10), else SCHED_NORMAL at nice 10.
func TestLowerThread(t *testing.T) {
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
		case idle && !idleAllowed && g[0] == unix.SCHED_NORMAL && g[1] == 10:
			t.Log("SCHED_IDLE refused here: nice 10")
		case !idle && g[0] == unix.SCHED_NORMAL && g[1] == 10:
		default:
			t.Errorf("idle %v: policy %d, nice %d; want SCHED_IDLE (%d) or SCHED_NORMAL (%d) at nice 10", idle, g[0], g[1], unix.SCHED_IDLE, unix.SCHED_NORMAL)
		}
	}
}
