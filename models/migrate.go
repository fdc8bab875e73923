package models

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// migrations holds the schema: one folder of goose SQL files per dialect,
// numbered 00001_name.sql, 00002_name.sql, ... A change of the schema is a
// new file in both folders, never an edit of an applied one.
//
//go:embed migrations/postgres/*.sql migrations/sqlite/*.sql
var migrations embed.FS

// migrate applies the pending migrations of db's dialect and records them in
// goose's table (goose_db_version). On PostgreSQL an advisory lock keeps
// instances that start together from migrating at the same time.
func (db *DB) migrate(ctx context.Context) error {
	dir, err := fs.Sub(migrations, "migrations/"+db.Dialect)
	if err != nil {
		return err
	}
	dialect := goose.DialectSQLite3
	// A migration numbered below the last applied one (numbers handed out
	// to changes made side by side) is applied rather than refused.
	opts := []goose.ProviderOption{goose.WithAllowOutofOrder(true)}
	if db.Dialect == Postgres {
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	sqlDB, err := db.Gorm.DB()
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(dialect, sqlDB, dir, opts...)
	if err != nil {
		return fmt.Errorf("models: migrations: %w", err)
	}
	sources := p.ListSources()
	db.latest = sources[len(sources)-1].Version
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("models: migrate: %w", err)
	}
	for _, r := range results {
		db.log.Info("migration applied", "dialect", db.Dialect, "version", r.Source.Version,
			"file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

// The errors of Ready about the schema's version (the highest in
// goose_db_version) against the newest migration embedded in the binary.
var (
	// ErrNotMigrated: the database lacks embedded migrations.
	ErrNotMigrated = errors.New("models: migrations not applied")
	// ErrSchemaNewer: the database has migrations this binary does not
	// know (a newer release migrated it).
	ErrSchemaNewer = errors.New("models: schema newer than this binary")
)

// Ready reports whether the database serves requests: it answers, and its
// schema is at the latest embedded migration (the highest version in
// goose_db_version equals the newest file's). The error is the failure to
// reach it (see Unavailable), or wraps ErrNotMigrated or ErrSchemaNewer
// with both versions.
func (db *DB) Ready(ctx context.Context) error {
	var current sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, `SELECT max(version_id) FROM goose_db_version`).Scan(&current); err != nil {
		return fmt.Errorf("models: schema version: %w", err)
	}
	switch {
	case current.Int64 < db.latest:
		return fmt.Errorf("%w: at version %d, latest %d", ErrNotMigrated, current.Int64, db.latest)
	case current.Int64 > db.latest:
		return fmt.Errorf("%w: at version %d, latest here %d", ErrSchemaNewer, current.Int64, db.latest)
	}
	return nil
}

// MigrationsDigest returns a hex SHA-256 of the embedded migrations (every
// file's path and content, both dialects): equal digests mean Open builds
// the same schema, e.g. for tests that migrate a template database once
// and copy it.
func MigrationsDigest() string {
	h := sha256.New()
	err := fs.WalkDir(migrations, "migrations", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := migrations.ReadFile(path)
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		panic(err) // embedded files always read
	}
	return hex.EncodeToString(h.Sum(nil))
}
