//go:build slow

package content_test

import "testing"

// TestSlowShippedPuzzlesAllProven proves every shipped puzzle again, with
// the tables of up to 10 seeds built here (.ci/run runs it).
func TestSlowShippedPuzzlesAllProven(t *testing.T) { verifyPuzzles(t, shipped(t)) }
