package models

import (
	"errors"

	"gorm.io/gorm"
)

// Per-account caps (docs/architecture.md, "per-account caps"): a cap's
// count and the insert it allows run in one transaction that first takes
// the cap's lock, so that requests at once, on any number of instances,
// never pass the same count.

// ErrCapped: the cap's owner already has Cap.Limit rows; nothing was
// written.
var ErrCapped = errors.New("models: over the cap")

// Cap is a per-account (or per-visitor) cap: at most Limit rows of the
// query Count makes in a transaction. Key names the capped thing and its
// owner ("tournaments:u12"); caps of one key are counted one at a time.
type Cap struct {
	Key   string
	Limit int
	Count func(tx *gorm.DB) *gorm.DB
}

// Capped runs insert in one transaction after c's count, in the same
// transaction, found fewer than c.Limit rows; else it returns ErrCapped.
// The count is serialized per key (Cap.check), so of two inserts at once
// the second counts the first.
func (db *DB) Capped(tx *gorm.DB, c Cap, insert func(tx *gorm.DB) error) error {
	return tx.Transaction(func(tx *gorm.DB) error {
		if err := db.check(tx, c); err != nil {
			return err
		}
		return insert(tx)
	})
}

// check returns ErrCapped when c is reached, in tx, a transaction that
// then holds c's lock until it ends: on PostgreSQL a transaction-level
// advisory lock of the key; on SQLite every transaction of the site's
// connections begins IMMEDIATE (sqliteDSN), so it already is the only
// writer of the database.
func (db *DB) check(tx *gorm.DB, c Cap) error {
	if db.Dialect == Postgres {
		if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext(?))", "oware-cap:"+c.Key).Error; err != nil {
			return err
		}
	}
	var n int64
	if err := c.Count(tx).Count(&n).Error; err != nil {
		return err
	}
	if n >= int64(c.Limit) {
		return ErrCapped
	}
	return nil
}
