package models_test

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"oware/models"
	"oware/models/modelstest"
)

// TestMoveGameSeen: a move written from a kept state (MoveGame with a
// Seen) is stored only while what Seen checks is so, each check on its
// own and together: the visitor's guest seat (its token hash) and the
// seated accounts' session epochs; a refused one stores nothing and keeps
// the version.
func TestMoveGameSeen(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		u := &models.User{Username: "seen_south", PasswordHash: "x"}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		g := &models.Game{Rules: "abapa", StartPosition: start, Position: start, Status: "playing",
			SouthUserID: &u.ID}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := db.KeepVisitorSeat(ctx, "v1", g.ID, "seat1"); err != nil {
			t.Fatal(err)
		}
		visitor := models.HashToken("v1")
		ply := 0
		move := func(what string, seen models.Seen, ok bool) {
			t.Helper()
			version := g.Version
			g.Position = "after " + what
			err := db.MoveGame(ctx, g, &models.Move{Ply: ply + 1, Pit: 2, Label: "C", Position: g.Position}, &seen)
			switch {
			case ok && err != nil:
				t.Errorf("%s: %v, want it stored", what, err)
			case !ok && !errors.Is(err, models.ErrConflict):
				t.Errorf("%s: %v, want ErrConflict", what, err)
			case !ok && g.Version != version:
				t.Errorf("%s: refused, version %d, want %d", what, g.Version, version)
			}
			if ok && err == nil {
				ply++
			}
		}
		move("both", models.Seen{Visitor: visitor, SeatHash: "seat1", Accounts: true, Epochs: [2]int{1, 0}}, true)
		move("another seat", models.Seen{Visitor: visitor, SeatHash: "seat2", Accounts: true, Epochs: [2]int{1, 0}}, false)
		move("another visitor", models.Seen{Visitor: models.HashToken("v2"), SeatHash: "seat1"}, false)
		move("an old epoch", models.Seen{Accounts: true, Epochs: [2]int{2, 0}}, false)
		move("North's epoch", models.Seen{Accounts: true, Epochs: [2]int{1, 1}}, false)
		move("accounts", models.Seen{Accounts: true, Epochs: [2]int{1, 0}}, true)
		move("visitor", models.Seen{Visitor: visitor, SeatHash: "seat1"}, true)
		move("the row only", models.Seen{}, true)
		if err := db.BumpEpoch(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		move("after the epoch's bump", models.Seen{Visitor: visitor, SeatHash: "seat1", Accounts: true, Epochs: [2]int{1, 0}}, false)
		move("the visitor after the bump", models.Seen{Visitor: visitor, SeatHash: "seat1"}, true)
		move("the new epoch", models.Seen{Visitor: visitor, SeatHash: "seat1", Accounts: true, Epochs: [2]int{2, 0}}, true)
		got := load(t, db, g.ID)
		if len(got.Moves) != 6 || got.Version != g.Version || got.Position != "after the new epoch" {
			t.Errorf("stored %d moves, version %d (want %d), position %q; want 6 moves, the last one's position",
				len(got.Moves), got.Version, g.Version, got.Position)
		}
	})
}

// TestMoveGamePlannedOnce (PostgreSQL): each text of a move written from
// a kept state is planned five times on a connection, then its generic
// plan is kept (PostgreSQL's plan cache: five custom plans, then the
// generic one when it costs no more than their average). When the text
// had conditions on parameters (the visitor's check behind "$26 is empty
// OR") every execution was planned again: 10 custom plans of 10.
func TestMoveGamePlannedOnce(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	g := newGame(t, db)
	conn, err := pgx.Connect(t.Context(), modelstest.DSN(t, db))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	for _, visitor := range []bool{false, true} {
		for _, accounts := range []bool{false, true} {
			q := models.MoveGameSeen(visitor, accounts)
			// The version -1 matches no row: nothing is written.
			args := []any{g.ID, -1, start, "playing", "", "", "", "", "", g.CreatedAt, 1, 2, "C",
				int64(0), int64(0), nil, nil, nil, nil, false, "", "", "", 0, ""}
			if visitor {
				args = append(args, "visitor", "seat")
			}
			if accounts {
				args = append(args, 1, 0)
			}
			for range 10 {
				if _, err := conn.Exec(t.Context(), q, args...); err != nil {
					t.Fatalf("visitor %v, accounts %v: %v", visitor, accounts, err)
				}
			}
			var custom, generic int
			err := conn.QueryRow(t.Context(), `SELECT custom_plans, generic_plans FROM pg_prepared_statements
				WHERE statement = $1`, q).Scan(&custom, &generic)
			if err != nil {
				t.Fatal(err)
			}
			if custom != 5 || generic != 5 {
				t.Errorf("visitor %v, accounts %v: %d custom plans and %d generic of 10, want 5 and 5", visitor, accounts, custom, generic)
			}
		}
	}
}
