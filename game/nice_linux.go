package game

import (
	"runtime"
	"syscall"
)

// lowerThread locks the calling goroutine to its thread, for good, and
// raises that thread's nice value to nice (a nice value belongs to a
// thread on Linux): the goroutine then runs only on it, at that priority.
// The thread ends with the goroutine. Nothing happens for nice <= 0, and
// where the value cannot be raised (a seccomp filter) the thread keeps the
// process's priority.
func lowerThread(nice int) {
	if nice <= 0 {
		return
	}
	runtime.LockOSThread() // never unlocked: the thread is dropped with the goroutine
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice)
}
