package game

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5/pgxpool"

	"oware/models"
)

// What the handlers need to know of the storage under the service, so that
// they never use it themselves.

// Broker carries the "game changed" events to the live views of every
// instance (models.Broker: LISTEN/NOTIFY on PostgreSQL, in process on
// SQLite).
type Broker = models.Broker

// Broker returns the events' broker of the service's database, running
// until ctx is done (models.DB.Broker).
func (s *Service) Broker(ctx context.Context) Broker { return s.db.Broker(ctx) }

// The errors of Ready besides the database out of reach.
var (
	ErrNotMigrated = models.ErrNotMigrated
	ErrSchemaNewer = models.ErrSchemaNewer
)

// Ready returns nil when the database answers and its schema is at the
// latest migration this binary embeds; ErrNotMigrated, ErrSchemaNewer, or
// the failure to reach it (models.DB.Ready).
func (s *Service) Ready(ctx context.Context) error { return s.db.Ready(ctx) }

// Unavailable reports whether err says the database cannot be reached
// just now (models.Unavailable): the site answers 503 with Retry-After.
func Unavailable(err error) bool { return models.Unavailable(err) }

// SQLDB returns the database/sql handle under the service (its pool's
// statistics feed the metrics).
func (s *Service) SQLDB() (*sql.DB, error) { return s.db.Gorm.DB() }

// PoolStat returns the statistics of the PostgreSQL connection pool; nil
// on SQLite.
func (s *Service) PoolStat() *pgxpool.Stat { return s.db.PoolStat() }
