//go:build !linux

package live

// watchClose has d's hang-up seen (d.gone) by a goroutine blocked in a
// read of d's connection (Linux has one poller for all: closewatch_linux.go).
func watchClose(d *detached) { go d.readUntilClosed() }

// unwatchClose does nothing here: the reading goroutine ends with the
// connection.
func unwatchClose(*detached) {}
