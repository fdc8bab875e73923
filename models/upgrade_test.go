package models_test

import (
	"errors"
	"testing"

	"oware/models"
	"oware/models/modelstest"
)

// TestOpenNewerSchema: a database that a newer release migrated (a
// version in goose's table this binary does not have) still opens, so an
// older instance restarted during a rolling upgrade serves what it can
// while Ready says ErrSchemaNewer (its /readyz takes it out of the load
// balancer); its own migrations are all applied already.
func TestOpenNewerSchema(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		var latest int64
		if err := db.Gorm.Raw(`SELECT max(version_id) FROM goose_db_version`).Scan(&latest).Error; err != nil {
			t.Fatal(err)
		}
		if err := db.Gorm.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, true)`, latest+1).Error; err != nil {
			t.Fatal(err)
		}
		old := modelstest.Reopen(t, db)
		if err := old.Ready(t.Context()); !errors.Is(err, models.ErrSchemaNewer) {
			t.Errorf("Ready on a newer schema: %v, want ErrSchemaNewer", err)
		}
		newGame(t, old) // it still stores games
	})
}
