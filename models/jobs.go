package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
)

// The durable jobs of the computer (its replies, the game reviews) are
// kept by River (github.com/riverqueue/river) in its own tables (river_job,
// river_queue, river_leader, river_migration and, on SQLite,
// river_notification), which Open brings up to date after goose's
// migrations with River's own (rivermigrate). On PostgreSQL River uses the
// pgx pool and LISTEN/NOTIFY to wake the workers of every process; on
// SQLite the one connection of the file and River's notification table,
// which its listener polls every 50 ms.

// jobsLock is the PostgreSQL advisory lock key under which an instance
// applies River's migrations, so that instances starting together do not
// apply them twice.
const jobsLock = 0x6f77617265 // "oware"

// migrateJobs applies River's pending migrations on db.
func (db *DB) migrateJobs(ctx context.Context) error {
	if db.pool != nil {
		conn, err := db.pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer conn.Release()
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", jobsLock); err != nil {
			return err
		}
		defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", jobsLock)
		return migrateRiver(ctx, riverpgxv5.New(db.pool), db)
	}
	return migrateRiver(ctx, riversqlite.New(db.sql), db)
}

// migrateRiver applies River's migrations with driver and logs them.
func migrateRiver[T any](ctx context.Context, driver riverdriver.Driver[T], db *DB) error {
	m, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: db.log})
	if err != nil {
		return fmt.Errorf("models: job migrations: %w", err)
	}
	res, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return fmt.Errorf("models: job migrations: %w", err)
	}
	for _, v := range res.Versions {
		db.log.Info("job migration applied", "dialect", db.Dialect, "version", v.Version, "name", v.Name, "duration", v.Duration)
	}
	return nil
}

// Jobs is a River client on the database: it inserts jobs and, when its
// configuration has queues and workers, works them. It is safe for
// concurrent use.
type Jobs struct {
	insert func(context.Context, river.JobArgs, *river.InsertOpts) (*rivertype.JobInsertResult, error)
	list   func(context.Context, *river.JobListParams) (*river.JobListResult, error)
	start  func(context.Context) error
	stop   func(context.Context) error
}

// NewJobs returns a River client on db with cfg (its Workers, Queues and
// timings; nil Logger: db's). Start it to work the jobs.
func (db *DB) NewJobs(cfg *river.Config) (*Jobs, error) {
	if cfg.Logger == nil {
		cfg.Logger = db.log
	}
	if db.pool != nil {
		return newJobs(riverpgxv5.New(db.pool), cfg)
	}
	return newJobs(riversqlite.New(db.sql), cfg)
}

// newJobs is NewJobs on one driver (pgx.Tx or *sql.Tx transactions).
func newJobs[T any](driver riverdriver.Driver[T], cfg *river.Config) (*Jobs, error) {
	c, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("models: jobs: %w", err)
	}
	return &Jobs{insert: c.Insert, list: c.JobList, start: c.Start, stop: c.Stop}, nil
}

// Insert inserts a job with args and opts; it reports whether a job was
// inserted (false: a unique job like it was already waiting or running).
func (j *Jobs) Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (bool, error) {
	res, err := j.insert(ctx, args, opts)
	if err != nil {
		return false, err
	}
	return !res.UniqueSkippedAsDuplicate, nil
}

// Waiting counts the jobs of queue available to a worker now (not
// running, not scheduled for later), at most limit.
func (j *Jobs) Waiting(ctx context.Context, queue string, limit int) (int, error) {
	res, err := j.list(ctx, river.NewJobListParams().Queues(queue).States(rivertype.JobStateAvailable).First(limit))
	if err != nil {
		return 0, err
	}
	return len(res.Jobs), nil
}

// Start starts the workers; they stop when ctx ends (the job under way is
// then cancelled) or Stop is called.
func (j *Jobs) Start(ctx context.Context) error { return j.start(ctx) }

// Stop stops fetching jobs and waits for those under way, or for ctx.
func (j *Jobs) Stop(ctx context.Context) error {
	err := j.stop(ctx)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// JobRetention is how long a finished job stays in River's table (for the
// operator's look) before River deletes it.
const JobRetention = time.Hour
