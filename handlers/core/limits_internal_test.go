package core

import (
	"testing"
	"time"
)

// TestPairDelay: the first 5 failures of an account from an address are
// free; then the wait doubles from 1 s with each failure, at most 5 min.
func TestPairDelay(t *testing.T) {
	for n, want := range map[int]time.Duration{
		0: 0, 4: 0, 5: time.Second, 6: 2 * time.Second, 7: 4 * time.Second,
		13: 256 * time.Second, 14: 5 * time.Minute, 1000: 5 * time.Minute,
	} {
		if got := pairDelay(n); got != want {
			t.Errorf("pairDelay(%d) = %v, want %v", n, got, want)
		}
	}
}
