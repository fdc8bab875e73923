package main

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"oware/metrics"
)

// serveMetrics serves m at GET /metrics (and nothing else) on its own
// listener at addr, apart from the site, so that only who can reach addr
// reads them. Errors of the server after it started go to errc; the
// caller closes the returned server.
func serveMetrics(addr string, m *metrics.Metrics, log *slog.Logger, errc chan<- error) (*http.Server, net.Addr, error) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	go func() {
		if err := srv.Serve(ln); err != http.ErrServerClosed {
			errc <- err
		}
	}()
	return srv, ln.Addr(), nil
}
