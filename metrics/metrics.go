// Package metrics keeps the server's Prometheus metrics (the official
// client library) and serves them in the Prometheus text format: requests
// per route, move latency, open event streams, the computer's searches,
// the database pool, and the Go runtime and process.
//
// Every method does nothing on a nil *Metrics, so that code can report
// unconditionally and a server without metrics passes nil.
package metrics

import (
	"database/sql"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is one server's set of metrics, in its own registry. It is safe
// for concurrent use.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	moves    prometheus.Histogram
	// streams reads the event streams open now (WatchStreams); unset, 0.
	streams atomic.Pointer[func() int]
}

// requestBuckets are the bounds of the request latency histogram, in
// seconds (5 ms to 10 s).
var requestBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// New returns the metrics with the Go runtime and process collectors
// registered.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "oware_http_requests_total",
			Help: "HTTP requests answered, by method, route pattern and status class (2xx, 3xx, 4xx, 5xx).",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "oware_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request (an event stream: how long it stayed open), by method, route pattern and status class.",
			Buckets: requestBuckets,
		}, []string{"method", "route", "status"}),
		moves: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "oware_move_duration_seconds",
			Help:    "Time from a player's move reaching the game service to the move stored.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}),
	}
	open := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "oware_event_streams_open",
		Help: "Live-update event streams open now.",
	}, func() float64 {
		if f := m.streams.Load(); f != nil {
			return float64((*f)())
		}
		return 0
	})
	m.reg.MustRegister(m.requests, m.duration, m.moves, open,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Request counts an answered request: its method, its route pattern
// ("/:lang/games/:id", never the raw path, so that the series stay few;
// "" for none), its status and how long it took.
func (m *Metrics) Request(method, route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
	default:
		method = "other"
	}
	if route == "" {
		route = "none"
	}
	class := "other"
	if status >= 100 && status < 600 {
		class = strconv.Itoa(status/100) + "xx"
	}
	m.requests.WithLabelValues(method, route, class).Inc()
	m.duration.WithLabelValues(method, route, class).Observe(d.Seconds())
}

// Move records the time a move took to be stored.
func (m *Metrics) Move(d time.Duration) {
	if m != nil {
		m.moves.Observe(d.Seconds())
	}
}

// WatchStreams reports the live-update event streams open now
// (oware_event_streams_open, 0 until it is called), read from open at
// each scrape.
func (m *Metrics) WatchStreams(open func() int) {
	if m != nil && open != nil {
		m.streams.Store(&open)
	}
}

// WatchDB reports the use of db's connection pool (sql.DBStats) with the
// label db_name="oware". Call it once.
func (m *Metrics) WatchDB(db *sql.DB) {
	if m != nil {
		m.reg.MustRegister(collectors.NewDBStatsCollector(db, "oware"))
	}
}

// ComputerStats are the figures of the computer's pool at one moment.
type ComputerStats struct {
	Workers, Running, Queued int
}

// WatchComputer reports the computer's searches running and queued, and
// its workers, read from stats at each scrape. Call it once.
func (m *Metrics) WatchComputer(stats func() ComputerStats) {
	if m == nil {
		return
	}
	gauge := func(name, help string, f func(ComputerStats) int) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help},
			func() float64 { return float64(f(stats())) })
	}
	m.reg.MustRegister(
		gauge("oware_computer_workers", "Searches the computer runs at a time.", func(s ComputerStats) int { return s.Workers }),
		gauge("oware_computer_searches_running", "Computer searches (replies, hints, analyses) running now.",
			func(s ComputerStats) int { return s.Running }),
		gauge("oware_computer_searches_queued", "Computer searches waiting for a worker now.",
			func(s ComputerStats) int { return s.Queued }),
	)
}

// PoolStats are the figures of a connection pool that database/sql does
// not see (pgxpool on PostgreSQL) at one moment.
type PoolStats struct {
	Max, Acquired, Idle, Constructing int
	// Acquires counts the connections taken from the pool so far, Waited
	// those that had to wait for one, and WaitTime is the time spent
	// waiting in all.
	Acquires, Waited int64
	WaitTime         time.Duration
}

// WatchPool reports a connection pool's figures, read from stats at each
// scrape: oware_db_pool_* with the label db_name="oware". Call it once.
func (m *Metrics) WatchPool(stats func() PoolStats) {
	if m != nil {
		m.reg.MustRegister(poolCollector{stats})
	}
}

// poolCollector collects the figures of WatchPool.
type poolCollector struct{ stats func() PoolStats }

var (
	poolLabels = prometheus.Labels{"db_name": "oware"}
	poolMax    = prometheus.NewDesc("oware_db_pool_max_connections", "Connections the pool may open.", nil, poolLabels)
	poolConns  = prometheus.NewDesc("oware_db_pool_connections", "Connections of the pool now, by state (acquired, idle, constructing).",
		[]string{"state"}, poolLabels)
	poolAcquires = prometheus.NewDesc("oware_db_pool_acquires_total", "Connections taken from the pool.", nil, poolLabels)
	poolWaited   = prometheus.NewDesc("oware_db_pool_waited_acquires_total", "Connections taken from the pool that had to wait for one.", nil, poolLabels)
	poolWait     = prometheus.NewDesc("oware_db_pool_wait_seconds_total", "Time spent waiting for a connection.", nil, poolLabels)
)

// Describe implements prometheus.Collector.
func (poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolMax, poolConns, poolAcquires, poolWaited, poolWait} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := p.stats()
	ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(s.Max))
	ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.Acquired), "acquired")
	ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.Idle), "idle")
	ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.Constructing), "constructing")
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(s.Acquires))
	ch <- prometheus.MustNewConstMetric(poolWaited, prometheus.CounterValue, float64(s.Waited))
	ch <- prometheus.MustNewConstMetric(poolWait, prometheus.CounterValue, s.WaitTime.Seconds())
}
