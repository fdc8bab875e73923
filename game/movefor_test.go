package game_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"oware/engine"
	"oware/game"
	"oware/models/modelstest"
)

// TestMoveForTwoInstances: two instances (two handles on one database, two
// services) play one game through MoveFor, each from the state it kept.
// Now and then both send a move for the player to move at the same moment
// (two different legal pits): exactly one is stored, the other is refused
// as not that player's turn (or a conflict); otherwise one instance, drawn
// at random, moves, so the other's kept state falls a version or more
// behind: its write is refused and it reads the game and moves again.
// Every move is stored once, in order, and the row's cache equals the
// replay of the moves (game.Verify).
func TestMoveForTwoInstances(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			db := modelstest.Open(t, d)
			ctx := t.Context()
			services := [2]*game.Service{game.New(db, quiet), game.New(modelstest.Reopen(t, db), quiet)}
			g, south, err := services[0].Create(ctx, game.Settings{Rules: "abapa"})
			if err != nil {
				t.Fatal(err)
			}
			north, _, err := services[0].Join(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			mustLoad(t, services[1], g.ID)
			tokens := [2]string{south, north}
			rng := rand.New(rand.NewPCG(5, 6))
			played, races := 0, 0
			for played < 60 {
				row, err := db.FindGame(ctx, g.ID)
				if err != nil {
					t.Fatal(err)
				}
				cur := mustLoad(t, game.New(db, quiet), g.ID) // a third instance's look, which keeps nothing of the two
				if row.Status != "playing" {
					break
				}
				side := cur.Position.ToMove
				v := game.Visitor{Token: tokens[side]}
				legal := cur.Engine.LegalMoves().Pits()
				if len(legal) < 2 || rng.IntN(3) > 0 {
					i := rng.IntN(2)
					if _, _, err := services[i].MoveFor(ctx, g.ID, v, engine.Label(legal[rng.IntN(len(legal))])); err != nil {
						t.Fatalf("ply %d, instance %d: %v", played+1, i, err)
					}
					played++
					continue
				}
				races++
				var errs [2]error
				var wg sync.WaitGroup
				for i := range 2 {
					wg.Go(func() { _, _, errs[i] = services[i].MoveFor(ctx, g.ID, v, engine.Label(legal[i])) })
				}
				wg.Wait()
				stored := 0
				for _, err := range errs {
					switch {
					case err == nil:
						stored++
					case !errors.Is(err, game.ErrNotYourTurn) && !errors.Is(err, game.ErrConflict) && !errors.Is(err, engine.ErrGameOver): // the other move ended the game
						t.Fatalf("ply %d, a race: %v", played+1, err)
					}
				}
				if stored != 1 {
					t.Fatalf("ply %d: two moves at once stored %d, want 1 (%v)", played+1, stored, errs)
				}
				played++
			}
			moves := movesOf(t, db, g.ID)
			if len(moves) != played || races == 0 {
				t.Fatalf("%d moves stored after %d played (%d races), want as many and a race", len(moves), played, races)
			}
			for i, m := range moves {
				if m.Ply != i+1 {
					t.Fatalf("move %d has ply %d", i+1, m.Ply)
				}
			}
			rep, err := game.Verify(ctx, db)
			if err != nil || len(rep.Mismatches) > 0 {
				t.Fatalf("verify: %v %v", err, rep.Mismatches)
			}
		})
	}
}
