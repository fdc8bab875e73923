package models_test

import (
	"testing"
	"time"

	"oware/models"
	"oware/models/modelstest"
)

// TestPulse: on PostgreSQL the heartbeat of a second without a gap is one
// statement that also tells whether a game is due for the sweep (in play,
// past its deadline, not leased) and whether any game in play has a
// deadline (clocks); it writes nothing before the first Beat
// or after a gap longer than away (Beat moves the clocks then). On SQLite
// it always leaves the heartbeat to Beat.
func TestPulse(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			db := modelstest.Open(t, d)
			ctx := t.Context()
			t0 := time.Now().UTC().Truncate(time.Second)
			const away = 3 * time.Second
			pulse := func(at time.Duration, beaten, due, clocks bool) {
				t.Helper()
				b, u, c, err := db.Pulse(ctx, t0.Add(at), away)
				if err != nil || b != beaten || u != due || c != clocks {
					t.Errorf("pulse at +%v: beaten %v, due %v, clocks %v, %v; want %v, %v, %v", at, b, u, c, err, beaten, due, clocks)
				}
			}
			pulse(0, false, false, false) // no heartbeat yet
			if _, _, err := db.Beat(ctx, t0, away, time.Second); err != nil {
				t.Fatal(err)
			}
			if d == models.SQLite {
				pulse(time.Second, false, false, false)
				return
			}
			pulse(time.Second, true, false, false) // no game in play
			deadline := t0.Add(1500 * time.Millisecond)
			g := models.Game{ID: "pulsegame234", SpectatorKey: "pulsekey2345", Rules: "abapa", Status: "playing",
				ClockInitial: 60, Version: 1, Deadline: &deadline}
			over := models.Game{ID: "pulseover234", SpectatorKey: "pulseover345", Rules: "abapa", Status: "over",
				ClockInitial: 60, Version: 1}
			if err := db.Gorm.Create(&over).Error; err != nil {
				t.Fatal(err)
			}
			pulse(time.Second, true, false, false) // a game over has no deadline
			if err := db.Gorm.Create(&g).Error; err != nil {
				t.Fatal(err)
			}
			pulse(time.Second, true, false, true)  // before the deadline
			pulse(2*time.Second, true, true, true) // past it
			if ids, err := db.DueGames(ctx, t0.Add(2*time.Second), 30*time.Second, 10); err != nil || len(ids) != 1 {
				t.Fatalf("DueGames: %v, %v; want the game", ids, err)
			}
			pulse(3*time.Second, true, false, true)   // leased to a sweeper
			pulse(7*time.Second, false, false, false) // 4 s after the last: a gap, Beat's
		})
	}
}
