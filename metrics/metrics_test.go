package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"oware/metrics"
)

// TestNilDoesNothing checks that a nil *Metrics can be reported to.
func TestNilDoesNothing(t *testing.T) {
	var m *metrics.Metrics
	m.Request("GET", "/", 200, time.Millisecond)
	m.Move(time.Millisecond)
	m.WatchStreams(nil)
	m.WatchDB(nil)
	m.WatchComputer(nil)
	m.WatchPool(nil)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("nil handler: %d, want 404", rec.Code)
	}
}

// TestLabelsBounded checks that odd methods, statuses and unmatched
// routes fall into fixed label values.
func TestLabelsBounded(t *testing.T) {
	m := metrics.New()
	m.Request("BREW", "", 418, time.Millisecond)
	m.Request("GET", "/:lang/", 999, time.Millisecond)
	m.Request("POST", "/:lang/login", 303, 2*time.Second)
	m.WatchComputer(func() metrics.ComputerStats { return metrics.ComputerStats{Workers: 2, Running: 1, Queued: 5} })
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`oware_http_requests_total{method="other",route="none",status="4xx"} 1`,
		`oware_http_requests_total{method="GET",route="/:lang/",status="other"} 1`,
		`oware_http_requests_total{method="POST",route="/:lang/login",status="3xx"} 1`,
		`oware_http_request_duration_seconds_bucket{method="POST",route="/:lang/login",status="3xx",le="1"} 0`,
		`oware_http_request_duration_seconds_bucket{method="POST",route="/:lang/login",status="3xx",le="2.5"} 1`,
		"oware_computer_workers 2", "oware_computer_searches_running 1", "oware_computer_searches_queued 5",
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
}
