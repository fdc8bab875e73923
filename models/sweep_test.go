package models_test

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"oware/models"
	"oware/models/modelstest"
)

// TestSweepAt: the sweeper finds a clocked game by sweep_at, at or before
// its deadline. A game starts with sweep_at at its deadline; a move that
// puts the deadline later leaves sweep_at; when it passes, DueGames leases
// nothing and raises it to the deadline; a move that brings the deadline
// before it lowers it, so that the flag falls on time; the game's end
// (no deadline) clears it.
func TestSweepAt(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		t0 := time.Now().UTC().Truncate(time.Second)
		at := func(s int) *time.Time { v := t0.Add(time.Duration(s) * time.Second); return &v }
		g := &models.Game{Rules: "abapa", StartPosition: start, Position: start, Status: "playing",
			ClockInitial: 60, Deadline: at(30)}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		sweepAt := func(want *time.Time) {
			t.Helper()
			var row struct{ SweepAt *time.Time }
			if err := db.Gorm.Raw(`SELECT sweep_at FROM games WHERE id = ?`, g.ID).Scan(&row).Error; err != nil {
				t.Fatal(err)
			}
			got := row.SweepAt
			if (got == nil) != (want == nil) || got != nil && !got.Equal(*want) {
				t.Errorf("sweep_at %v, want %v", got, want)
			}
		}
		due := func(s int, want bool) {
			t.Helper()
			ids, err := db.DueGames(ctx, *at(s), 30*time.Second, 10)
			if err != nil || slices.Contains(ids, g.ID) != want {
				t.Errorf("DueGames at +%d s: %v, %v; want the game %v", s, ids, err, want)
			}
		}
		ply := 0
		move := func(deadline *time.Time) {
			t.Helper()
			ply++
			g.Deadline = deadline
			if err := db.MoveGame(ctx, g, &models.Move{Ply: ply, Pit: 0, Label: "A", Position: g.Position}, nil); err != nil {
				t.Fatal(err)
			}
		}
		sweepAt(at(30))
		move(at(70)) // the opponent has more time: later
		sweepAt(at(30))
		due(40, false) // past sweep_at, not past the deadline
		sweepAt(at(70))
		move(at(50)) // less time: earlier than sweep_at
		sweepAt(at(50))
		due(49, false)
		due(50, true)
		g.Status, g.Deadline = "over", nil
		if err := db.UpdateGame(ctx, g, nil); err != nil {
			t.Fatal(err)
		}
		sweepAt(nil)
	})
}

// moveColumns are the columns of games a move in the middle of a game
// writes (models.moveGame without the end's status, result and reason and
// without sweep_at): deadline is the clocked game's.
var moveColumns = []string{"position", "version", "end_offer", "resume", "rounds", "updated_at",
	"south_ms", "north_ms", "turn_since", "deadline"}

// TestMoveIndexesNothing: on PostgreSQL no index of games names a column a
// move writes, in its keys, expressions or predicate, so that a move, also
// of a game with a clock, is a HOT update (no new index entry; the columns
// of a partial index's predicate count too).
func TestMoveIndexesNothing(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	var defs []string
	if err := db.Gorm.Raw(`SELECT indexdef FROM pg_indexes WHERE tablename = 'games'`).Scan(&defs).Error; err != nil {
		t.Fatal(err)
	}
	if len(defs) < 2 {
		t.Fatalf("indexes of games: %q", defs)
	}
	for _, def := range defs {
		for _, col := range moveColumns {
			if regexp.MustCompile(`\b` + col + `\b`).MatchString(def) {
				t.Errorf("a move writes %s, which %s indexes", col, def)
			}
		}
	}
}
