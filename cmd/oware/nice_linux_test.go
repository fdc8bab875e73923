package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStartNiced starts processes with startNiced and reads their nice
// value from /proc (field 19 of stat). Of this process's threads, none
// keeps the raised value but, at most, one: the forking thread ends with
// its goroutine, unless it was the main thread, which Go then parks for
// good (it runs no goroutine again).
func TestStartNiced(t *testing.T) {
	if niceOf(t, "/proc/self/stat") == 19 {
		t.Skip("this process runs at nice 19 itself: a thread left at the raised value cannot be told from the others")
	}
	for range 3 {
		cmd := exec.Command("sleep", "60")
		if err := startNiced(cmd, 19); err != nil {
			t.Fatal(err)
		}
		if got := niceOf(t, "/proc/"+strconv.Itoa(cmd.Process.Pid)+"/stat"); got != 19 {
			t.Errorf("the child's nice value: %d, want 19", got)
		}
		cmd.Process.Kill()
		cmd.Wait()
	}
	// A thread whose goroutine started a child ends just after; wait for
	// that (at most 10 s): then at most one thread is niced (see above).
	deadline := time.Now().Add(10 * time.Second)
	for {
		niced, all := nicedThreads(t)
		if niced <= 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of this process's %d threads keep the raised nice value, want at most 1", niced, all)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// nicedThreads counts this process's threads at nice 19, and all of them.
func nicedThreads(t *testing.T) (niced, all int) {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(syscall.Getpid()) + "/task/*/stat")
	for _, task := range tasks {
		if niceOf(t, task) == 19 {
			niced++
		}
	}
	return niced, len(tasks)
}

// niceOf returns the nice value in a /proc stat file (of a process or a
// thread).
func niceOf(t *testing.T, stat string) int {
	t.Helper()
	b, err := os.ReadFile(stat)
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	// The fields after the command's name, which is in parentheses.
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	n, err := strconv.Atoi(fields[16]) // field 19 of stat; the 3rd here is field 3
	if err != nil {
		t.Fatal(err)
	}
	return n
}
