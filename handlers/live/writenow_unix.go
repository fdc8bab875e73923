//go:build unix

package live

import "syscall"

// writeNow writes what of b the socket takes without waiting and returns
// how many bytes that was.
func writeNow(rc syscall.RawConn, b []byte) (int, error) {
	n := 0
	var werr error
	err := rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, err := syscall.Write(int(fd), b[n:])
			if m > 0 {
				n += m
			}
			if err == syscall.EINTR {
				continue
			}
			if err != nil && err != syscall.EAGAIN {
				werr = err
			}
			if err != nil || m <= 0 {
				break
			}
		}
		return true
	})
	if err == nil {
		err = werr
	}
	return n, err
}
