package game

import (
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// lowerThread locks the calling goroutine to its thread, for good, and
// lowers that thread's priority (a scheduling policy and a nice value
// belong to a thread on Linux): under SCHED_IDLE when idle (the thread
// then gets only the CPU time no other thread wants), else, or where the
// kernel refuses the policy (a seccomp filter), nice values below the
// process's own (threadNice: a process started at nice 19 keeps its
// workers below its requests). The goroutine then runs only on it; the
// thread ends with the goroutine. Nothing happens for nice <= 0 without
// idle, and where neither can be set the thread keeps the process's
// priority.
func lowerThread(nice int, idle bool) {
	if nice <= 0 && !idle {
		return
	}
	runtime.LockOSThread() // never unlocked: the thread is dropped with the goroutine
	if idle && unix.SchedSetAttr(0, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_IDLE}, 0) == nil {
		return
	}
	if nice > 0 {
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), threadNice(processNice(), nice))
	}
}

// processNice returns the nice value of the process's main thread (the
// one it was started with, by nice(1) or a unit's Nice=), 0 where it
// cannot be read.
func processNice() int {
	prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, os.Getpid())
	if err != nil {
		return 0
	}
	return 20 - prio // the system call's raw value is 20 - nice
}
