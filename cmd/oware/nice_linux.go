package main

import (
	"os/exec"
	"runtime"
	"syscall"
)

// startNiced starts cmd with the nice value nice. On Linux a nice value
// belongs to a thread and a child inherits the one of the thread that
// forks it: the fork happens on an OS thread of its own whose value was
// raised first, and that thread ends with its goroutine (a raised value
// cannot be lowered again without privileges). Where the value cannot be
// raised (a seccomp filter), cmd starts at the normal priority.
func startNiced(cmd *exec.Cmd, nice int) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread is dropped
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice)
		errc <- cmd.Start()
	}()
	return <-errc
}
