//go:build !linux

package game

// lowerThread does nothing: only on Linux does a nice value belong to a
// thread (elsewhere the whole process's would rise).
func lowerThread(nice int, idle bool) {}
