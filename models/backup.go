package models

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// ErrBackupPostgres is Backup's answer for a PostgreSQL URL: PostgreSQL's
// own tools (pg_dump) make its consistent copies.
var ErrBackupPostgres = errors.New("the database is PostgreSQL: back it up with pg_dump (docs/operating.md, Backups)")

// Backup writes a consistent copy of the SQLite database file (a path as
// Open takes it) to the new file path, with VACUUM INTO: one read
// transaction, so what a running server stores meanwhile is in the copy
// or not, whole. The copy is a database of its own (compacted, at the
// original's migration) that a server can open as it is. Backup neither
// creates nor migrates file; it refuses a file that does not exist, a
// path that does, and a PostgreSQL URL (ErrBackupPostgres).
func Backup(ctx context.Context, file, path string) error {
	if strings.HasPrefix(file, "postgres://") || strings.HasPrefix(file, "postgresql://") {
		return ErrBackupPostgres
	}
	if _, err := os.Stat(strings.SplitN(file, "?", 2)[0]); err != nil {
		return fmt.Errorf("backup: the database: %w", err)
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("backup: %s exists already", path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	g, err := gorm.Open(sqlite.Open(sqliteDSN(file)), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return fmt.Errorf("backup: open %s: %w", file, err)
	}
	sqlDB, err := g.DB()
	if err != nil {
		return err
	}
	defer sqlDB.Close()
	if _, err := sqlDB.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return nil
}
