package main

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"oware/metrics"
)

func TestServeMetrics(t *testing.T) {
	errc := make(chan error, 1)
	srv, addr, err := serveMetrics("127.0.0.1:0", metrics.New(), slog.New(slog.DiscardHandler), errc)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	get := func(path string) (int, string) {
		res, err := http.Get("http://" + addr.String() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/metrics"); code != http.StatusOK || !strings.Contains(body, "\ngo_goroutines ") ||
		!strings.Contains(body, "# TYPE oware_event_streams_open gauge") {
		t.Errorf("/metrics: %d\n%s", code, body)
	}
	if code, _ := get("/"); code != http.StatusNotFound {
		t.Errorf("/: %d, want 404", code)
	}
}
