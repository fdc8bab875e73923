package models_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"oware/models"
)

// TestImports: a kept record loads by its id; an unknown id and a record
// older than ImportLifetime are not found, and the old one is deleted when
// the next record is kept.
func TestImports(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		id, err := db.SaveImport(ctx, "1. C d\n")
		if err != nil || len(id) != 16 {
			t.Fatalf("save: %q %v", id, err)
		}
		im, err := db.LoadImport(ctx, id)
		if err != nil || im.Record != "1. C d\n" {
			t.Fatalf("load: %+v %v", im, err)
		}
		if _, err := db.LoadImport(ctx, "nosuchimport234"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}
		old := time.Now().UTC().Add(-models.ImportLifetime - time.Minute)
		if err := db.Gorm.Model(&models.Import{}).Where("id = ?", id).Update("created_at", old).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := db.LoadImport(ctx, id); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("expired: %v", err)
		}
		if _, err := db.SaveImport(ctx, "1. F\n"); err != nil {
			t.Fatal(err)
		}
		var n int64
		db.Gorm.Model(&models.Import{}).Where("id = ?", id).Count(&n)
		if n != 0 {
			t.Errorf("the expired record was kept")
		}
	})
}

// TestImportsBounded: past MaxImports kept records, keeping a new one
// deletes the oldest, so that a client posting records in a loop fills
// at most MaxImports rows (about MaxImports MiB), not the disk.
func TestImportsBounded(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		base := time.Now().UTC().Add(-time.Hour)
		rows := make([]models.Import, models.MaxImports)
		for i := range rows {
			rows[i] = models.Import{ID: fmt.Sprintf("fill%012d", i), Record: "1. C\n", CreatedAt: base.Add(time.Duration(i) * time.Millisecond)}
		}
		if err := db.Gorm.CreateInBatches(rows, 500).Error; err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveImport(ctx, "1. C d\n")
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		db.Gorm.Model(&models.Import{}).Count(&n)
		if n != models.MaxImports {
			t.Errorf("%d records kept, want %d", n, models.MaxImports)
		}
		if _, err := db.LoadImport(ctx, "fill000000000000"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("the oldest record: %v, want it gone", err)
		}
		for _, keep := range []string{"fill000000000001", id} {
			if _, err := db.LoadImport(ctx, keep); err != nil {
				t.Errorf("%s: %v", keep, err)
			}
		}
	})
}
