package core

import (
	"time"

	"github.com/labstack/echo/v4"

	"oware/metrics"
)

// Watch reports to m (nil: nothing) every request by route pattern, the
// move latency of the game service, the open event streams (the count that
// bounds them, streams.go), the database pool (database/sql's, and
// pgxpool's on PostgreSQL) and the computer's pool.
func (h *Handlers) Watch(e *echo.Echo, m *metrics.Metrics) error {
	if m == nil {
		return nil
	}
	e.Use(requestMetrics(m))
	h.Games.OnMove(m.Move)
	m.WatchStreams(h.Streams.Open)
	sqlDB, err := h.Games.SQLDB()
	if err != nil {
		return err
	}
	m.WatchDB(sqlDB)
	if h.Games.PoolStat() != nil {
		m.WatchPool(func() metrics.PoolStats {
			s := h.Games.PoolStat()
			return metrics.PoolStats{
				Max: int(s.MaxConns()), Acquired: int(s.AcquiredConns()), Idle: int(s.IdleConns()),
				Constructing: int(s.ConstructingConns()), Acquires: s.AcquireCount(),
				Waited: s.EmptyAcquireCount(), WaitTime: s.AcquireDuration(),
			}
		})
	}
	if pool := h.Games.Computer(); pool != nil {
		// game.PoolStats and metrics.ComputerStats hold the same figures.
		m.WatchComputer(func() metrics.ComputerStats { return metrics.ComputerStats(pool.Stats()) })
	}
	return nil
}

// requestMetrics counts every request with its route pattern (c.Path(),
// set by the router before the middleware runs) and the status it got;
// it runs first, so that the status is the one answered, errors included.
func requestMetrics(m *metrics.Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil && !c.Response().Committed {
				c.Error(err)
				err = nil
			}
			m.Request(c.Request().Method, c.Path(), c.Response().Status, time.Since(start))
			return err
		}
	}
}
