//go:build !unix

package live

import "syscall"

// writeNow writes nothing here: every write of a detached stream goes
// through its goroutine (detached.finish).
func writeNow(syscall.RawConn, []byte) (int, error) { return 0, nil }
