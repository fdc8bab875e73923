package models_test

import (
	"testing"

	"oware/models"
)

// TestNamNamColumns: the Nam-nam columns (migration 00005) are stored by
// CreateGame and UpdateGame and read back by LoadGame; an Oware game keeps
// their zero values.
func TestNamNamColumns(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		oware := newGame(t, db)
		if g := load(t, db, oware.ID); g.Fours != "" || g.Agreements != "" || g.SouthRoundSeen != 0 || g.NorthRoundSeen != 0 {
			t.Errorf("Oware game: fours %q, agreements %q, seen %d %d", g.Fours, g.Agreements, g.SouthRoundSeen, g.NorthRoundSeen)
		}
		const pos = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0"
		g := &models.Game{Rules: "namnam", Fours: "owner", StartPosition: pos, Position: pos, Status: "playing"}
		if err := db.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		if got := load(t, db, g.ID); got.Fours != "owner" || got.Rules != "namnam" {
			t.Fatalf("created: rules %q fours %q", got.Rules, got.Fours)
		}
		g.Agreements, g.SouthRoundSeen, g.NorthRoundSeen = "14,14", 2, 3
		if err := db.UpdateGame(t.Context(), g, nil); err != nil {
			t.Fatal(err)
		}
		got := load(t, db, g.ID)
		if got.Fours != "owner" || got.Agreements != "14,14" || got.SouthRoundSeen != 2 || got.NorthRoundSeen != 3 {
			t.Errorf("updated: fours %q, agreements %q, seen %d %d", got.Fours, got.Agreements, got.SouthRoundSeen, got.NorthRoundSeen)
		}
	})
}
