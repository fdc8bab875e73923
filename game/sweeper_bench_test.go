package game_test

import (
	"fmt"
	"log/slog"
	"testing"
	"time"

	"oware/game"
	"oware/models"
	"oware/models/modelstest"
)

// BenchmarkSweepIdle is the cost of one sweep when no game is due, with
// 10,000 games in play on the clock (deadlines in the future) and as many
// finished: what every instance pays once a second.
func BenchmarkSweepIdle(b *testing.B) {
	for _, d := range modelstest.Dialects() {
		b.Run(d, func(b *testing.B) {
			db := modelstest.Open(b, d)
			s := game.New(db, slog.New(slog.DiscardHandler))
			ctx := b.Context()
			future := time.Now().Add(time.Hour)
			rows := make([]models.Game, 20000)
			for i := range rows {
				rows[i] = models.Game{ID: fmt.Sprintf("bench%07d", i), SpectatorKey: fmt.Sprintf("benchkey%08d", i),
					Rules: "abapa", Status: "over", ClockInitial: 60, Version: 1}
				if i%2 == 0 {
					rows[i].Status, rows[i].Deadline = "playing", &future
				}
			}
			if err := db.Gorm.CreateInBatches(rows, 500).Error; err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if n, err := s.Sweep(ctx); n != 0 || err != nil {
					b.Fatal(n, err)
				}
			}
		})
	}
}
