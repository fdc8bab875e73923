//go:build linux || darwin

package search

import (
	"runtime"
	"syscall"
	"unsafe"
)

// newSlots returns n empty slots in anonymous memory mapped outside the
// Go heap, unmapped once t (their table) is unreachable, or from the heap
// (make) when the mapping fails. A table holds no pointers, and off the
// heap it does not count in the heap the collector paces itself by: the
// server's two 32 MB tables made its live heap ~94 MB, which let ~94 MB
// of garbage (the event streams' among it) pile up before each collection
// (issue 37, docs/capacity.md). Its pages take memory when first written,
// as the heap's do. Every method of table that touches the slots keeps t
// alive to its end (runtime.KeepAlive), so that the cleanup never unmaps
// slots in use.
func newSlots(t *table, n uint64) []slot {
	size := n * uint64(unsafe.Sizeof(slot{}))
	mem, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]slot, n)
	}
	runtime.AddCleanup(t, func(mem []byte) { _ = syscall.Munmap(mem) }, mem)
	return unsafe.Slice((*slot)(unsafe.Pointer(unsafe.SliceData(mem))), n)
}
