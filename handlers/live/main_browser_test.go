//go:build browser

package live_test

import (
	"os"
	"testing"

	"oware/handlers/handlerstest"
)

// TestMain shares one chromium between the browser tests (RunSharing):
// each gets tabs in browser contexts of its own instead of a browser.
func TestMain(m *testing.M) { os.Exit(handlerstest.RunSharing(m)) }
