//go:build !linux

package main

import "os/exec"

// startNiced starts cmd; only on Linux at a raised nice value (elsewhere a
// nice value is the whole process's, and the server's own would rise).
func startNiced(cmd *exec.Cmd, nice int) error { return cmd.Start() }
