package models_test

import (
	"os"
	"regexp"
	"testing"
	"time"

	"oware/models"
)

// puzzle is a puzzle for the tests of puzzle players.
var puzzle = models.Puzzle{ID: "p1", Number: 1, Rules: "warri", Position: "0-0-0-0-1-1-1-0-0-0-0-0-22-23-S",
	Solution: "F", Themes: ",endgame-win,", FirstMoves: "F:2:2,E:0:0", Rating: 1500, Deviation: 300, Volatility: 0.06}

// attempt records player's attempt at puzzle, rated as a plain win.
func attempt(t *testing.T, db *models.DB, player string) {
	t.Helper()
	fresh := models.PuzzlePlayer{Rating: 1500, Deviation: 350, Volatility: 0.06}
	_, rated, err := db.RatePuzzleAttempt(t.Context(), player, puzzle.ID, true, fresh,
		func(pl models.PuzzlePlayer, pz models.Puzzle) (models.PuzzlePlayer, models.Puzzle) {
			pl.Solved++
			return pl, pz
		})
	if err != nil || !rated {
		t.Fatalf("attempt of %s: %v %v", player, rated, err)
	}
}

// players returns the puzzle players and the players of the attempts.
func players(t *testing.T, db *models.DB) (ps, as []string) {
	t.Helper()
	db.Gorm.Model(&models.PuzzlePlayer{}).Order("player").Pluck("player", &ps)
	db.Gorm.Model(&models.PuzzleAttempt{}).Order("player").Pluck("player", &as)
	return ps, as
}

// TestIdlePuzzleGuests: the sweeper's DeleteIdlePuzzleGuests deletes the
// rows of the guests idle since before the bound, and keeps the active
// guests' and every account's (however idle).
func TestIdlePuzzleGuests(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		if _, err := db.LoadPuzzles(t.Context(), []models.Puzzle{puzzle}); err != nil {
			t.Fatal(err)
		}
		idle, active, account := models.GuestPuzzlePlayer("idle"), models.GuestPuzzlePlayer("active"), models.AccountPuzzlePlayer(7)
		for _, p := range []string{idle, active, account} {
			attempt(t, db, p)
		}
		long := time.Now().Add(-100 * 24 * time.Hour)
		db.Gorm.Model(&models.PuzzlePlayer{}).Where("player IN ?", []string{idle, account}).Update("updated_at", long)
		if err := db.DeleteIdlePuzzleGuests(t.Context(), time.Now().Add(-90*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		ps, as := players(t, db)
		want := []string{account, active}
		if len(ps) != 2 || ps[0] != want[0] || ps[1] != want[1] || len(as) != 2 || as[0] != want[0] || as[1] != want[1] {
			t.Errorf("left: players %v, attempts %v; want %v in both", ps, as, want)
		}
	})
}

// TestGuestKeyMigration: migration 00050's PostgreSQL statements turn a
// guest's old key ("v" and the raw visitor id of 43 characters) into
// GuestPuzzlePlayer's, in both tables, and leave accounts alone.
func TestGuestKeyMigration(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		if db.Dialect != models.Postgres {
			t.Skip("SQLite deletes the old keys (no SHA-256)")
		}
		if _, err := db.LoadPuzzles(t.Context(), []models.Puzzle{puzzle}); err != nil {
			t.Fatal(err)
		}
		raw := models.NewToken()
		attempt(t, db, "v"+raw)
		attempt(t, db, "u3")
		sql, err := os.ReadFile("migrations/postgres/00050_puzzle_guest_keys.sql")
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range regexp.MustCompile(`(?s)UPDATE [^;]*;`).FindAllString(string(sql), -1) {
			if err := db.Gorm.Exec(stmt).Error; err != nil {
				t.Fatal(err)
			}
		}
		ps, as := players(t, db)
		want := []string{"u3", models.GuestPuzzlePlayer(raw)}
		if len(ps) != 2 || ps[0] != want[0] || ps[1] != want[1] || len(as) != 2 || as[0] != want[0] || as[1] != want[1] {
			t.Errorf("after: players %v, attempts %v; want %v in both", ps, as, want)
		}
	})
}
