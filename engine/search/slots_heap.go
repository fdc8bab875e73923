//go:build !(linux || darwin)

package search

// newSlots returns n empty slots of table t, from the heap (on Linux and
// macOS they are mapped outside it: slots_mmap.go).
func newSlots(_ *table, n uint64) []slot { return make([]slot, n) }
