package models_test

import (
	"reflect"
	"strings"
	"testing"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"oware/models"
	"oware/models/modelstest"
)

// compatible lists, per GORM data type, the column types (lowercase, as the
// database reports them) that hold it.
var compatible = map[schema.DataType][]string{
	schema.String: {"text", "varchar", "character varying"},
	schema.Int:    {"integer", "int", "int4", "int8", "bigint"},
	schema.Uint:   {"integer", "int", "int4", "int8", "bigint"},
	schema.Time:   {"timestamptz", "timestamp with time zone", "datetime"},
	schema.Bool:   {"bool", "boolean"},
	schema.Float:  {"double precision", "float8", "real", "double"},
	schema.Bytes:  {"bytea", "blob"},
}

// TestSchemaMatchesModels checks the migrated schema against the GORM
// models: every field has a NOT NULL column of a compatible type, and every
// column has a field.
func TestSchemaMatchesModels(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		for _, model := range []any{&models.Game{}, &models.Move{}, &models.Setting{}, &models.User{}, &models.Page{},
			&models.Tutorial{}, &models.TutorialStep{}, &models.TutorialProgress{}, &models.Import{},
			&models.Presence{}, &models.Rating{}, &models.RatingChange{}, &models.Challenge{},
			&models.Visitor{}, &models.VisitorSeat{}, &models.PasswordReset{}, &models.Review{},
			&models.Puzzle{}, &models.PuzzlePlayer{}, &models.PuzzleAttempt{},
			&models.Tournament{}, &models.TournamentPlayer{}, &models.TournamentGame{}, &models.AccountToken{}, &models.Study{}, &models.GameGIF{}} {
			stmt := &gorm.Statement{DB: db.Gorm}
			if err := stmt.Parse(model); err != nil {
				t.Fatal(err)
			}
			table := stmt.Schema.Table
			cols, err := db.Gorm.Migrator().ColumnTypes(model)
			if err != nil {
				t.Fatalf("%s: %v", table, err)
			}
			if len(cols) == 0 {
				t.Fatalf("table %s missing", table)
			}
			fields := map[string]*schema.Field{}
			for _, f := range stmt.Schema.Fields {
				if f.DBName != "" && !f.IgnoreMigration {
					fields[f.DBName] = f
				}
			}
			for _, c := range cols {
				f, ok := fields[c.Name()]
				if !ok {
					t.Errorf("%s.%s: column without a model field", table, c.Name())
					continue
				}
				delete(fields, c.Name())
				typ := strings.ToLower(c.DatabaseTypeName())
				want := compatible[f.DataType]
				found := false
				for _, w := range want {
					found = found || typ == w
				}
				if !found {
					t.Errorf("%s.%s: column type %q cannot hold field %s (%s; want one of %v)",
						table, c.Name(), typ, f.Name, f.DataType, want)
				}
				if null, ok := c.Nullable(); ok && null && !f.PrimaryKey && f.FieldType.Kind() != reflect.Pointer {
					t.Errorf("%s.%s: column is nullable but field %s cannot hold NULL", table, c.Name(), f.Name)
				}
			}
			for name, f := range fields {
				t.Errorf("%s: field %s has no column %s", table, f.Name, name)
			}
		}
	})
}

// TestMigrationsRecorded checks that Open records the applied migrations in
// goose's table.
func TestMigrationsRecorded(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		var max int64
		if err := db.Gorm.Raw("SELECT MAX(version_id) FROM goose_db_version WHERE is_applied").Scan(&max).Error; err != nil {
			t.Fatal(err)
		}
		if max < 1 {
			t.Errorf("goose_db_version: latest version %d, want >= 1", max)
		}
	})
}

// TestMigrationOutOfOrder: a database migrated past a number that was
// handed out later (here 00008, made side by side with 00010-00014) gets
// it at the next start instead of refusing to start.
func TestMigrationOutOfOrder(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		for _, q := range []string{"DROP TABLE visitor_seats", "DROP TABLE visitors",
			"DELETE FROM goose_db_version WHERE version_id = 8"} {
			if err := db.Gorm.Exec(q).Error; err != nil {
				t.Fatal(err)
			}
		}
		again := modelstest.Reopen(t, db)
		if !again.Gorm.Migrator().HasTable(&models.VisitorSeat{}) {
			t.Fatal("visitor_seats was not made again")
		}
		var n int64
		again.Gorm.Raw("SELECT COUNT(*) FROM goose_db_version WHERE version_id = 8 AND is_applied").Scan(&n)
		if n != 1 {
			t.Errorf("migration 8 recorded %d times, want 1", n)
		}
	})
}
