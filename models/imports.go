package models

import (
	"context"
	"time"
)

// Import is a game record imported on the import page (table imports),
// kept for ImportLifetime so that its replay is addressed by ID alone.
type Import struct {
	// ID is random: 16 characters of lowercase base32 (80 bits).
	ID string `gorm:"primaryKey"`
	// Record is the record as it was imported (read by engine.ReadRecord).
	Record string
	// CreatedAt is when it was imported (UTC).
	CreatedAt time.Time
}

// ImportLifetime is how long an imported record is kept.
const ImportLifetime = 7 * 24 * time.Hour

// MaxImports bounds the records kept: keeping one more deletes the
// oldest, so that the table holds at most about MaxImports MiB
// (engine.MaxRecordBytes each) whoever posts records in a loop.
const MaxImports = 2000

// SaveImport keeps record under a new random id and returns it; records
// older than ImportLifetime, and the oldest past MaxImports, are deleted
// on the way.
func (db *DB) SaveImport(ctx context.Context, record string) (string, error) {
	g := db.Gorm.WithContext(ctx)
	if err := g.Where("created_at < ?", time.Now().UTC().Add(-ImportLifetime)).Delete(&Import{}).Error; err != nil {
		return "", err
	}
	im := Import{ID: randomKey(16), Record: record}
	if err := g.Create(&im).Error; err != nil {
		return "", err
	}
	return im.ID, db.trimImports(ctx)
}

// trimImports deletes the oldest kept records past MaxImports.
func (db *DB) trimImports(ctx context.Context) error {
	g := db.Gorm.WithContext(ctx)
	var n int64
	if err := g.Model(&Import{}).Count(&n).Error; err != nil || n <= MaxImports {
		return err
	}
	var old []string
	if err := g.Model(&Import{}).Order("created_at, id").Limit(int(n-MaxImports)).Pluck("id", &old).Error; err != nil {
		return err
	}
	return g.Where("id IN ?", old).Delete(&Import{}).Error
}

// LoadImport returns the kept record with the given id, or ErrNotFound
// (also once it is older than ImportLifetime).
func (db *DB) LoadImport(ctx context.Context, id string) (*Import, error) {
	var im Import
	err := db.Gorm.WithContext(ctx).Where("id = ? AND created_at >= ?", id, time.Now().UTC().Add(-ImportLifetime)).Take(&im).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &im, nil
}

// ImportIDs returns the ids of the kept records after id after (in id
// order), at most limit: a walk over all of them, page by page.
func (db *DB) ImportIDs(ctx context.Context, after string, limit int) ([]string, error) {
	var ids []string
	err := db.Gorm.WithContext(ctx).Model(&Import{}).Where("id > ?", after).Order("id").Limit(limit).Pluck("id", &ids).Error
	return ids, err
}
