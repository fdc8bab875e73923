package models_test

import (
	"testing"

	"oware/models"
	"oware/models/modelstest"
)

// BenchmarkMove measures the store's share of a move request: read the
// game's row, store the new move with the version check (which publishes
// it). Each game gets 50 moves, then a new game starts.
func BenchmarkMove(b *testing.B) {
	for _, d := range modelstest.Dialects() {
		b.Run(d, func(b *testing.B) {
			db := modelstest.Open(b, d)
			ctx := b.Context()
			var id string
			for i := 0; b.Loop(); i++ {
				if i%50 == 0 {
					g := &models.Game{Rules: "abapa", StartPosition: start, Position: start, Status: "playing"}
					if err := db.CreateGame(ctx, g); err != nil {
						b.Fatal(err)
					}
					id = g.ID
				}
				g, err := db.FindGame(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				m := &models.Move{Ply: i%50 + 1, Pit: 2, Label: "C", Position: start}
				if err := db.UpdateGame(ctx, g, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
