package tournament_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"oware/models"
	"oware/models/modelstest"
	"oware/tournament"
)

// arena200 returns an arena of 200 players and 1,500 finished games (15
// each), as the pure code reads it.
func arena200() ([]uint, []tournament.Pairing) {
	rnd := rand.New(rand.NewPCG(1, 2))
	players := make([]uint, 200)
	for i := range players {
		players[i] = uint(i + 1)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ps := make([]tournament.Pairing, 1500)
	for i := range ps {
		a := uint(rnd.IntN(200) + 1)
		b := uint(rnd.IntN(199) + 1)
		if b >= a {
			b++
		}
		ps[i] = tournament.Pairing{South: a, North: b, Outcome: tournament.Outcome(1 + rnd.IntN(3)),
			Ended: start.Add(time.Duration(i) * time.Second), Seq: uint(i)}
	}
	return players, ps
}

// BenchmarkArenaStandings: the standings of an arena of 200 players after
// 1,500 games, counted again from the games (the pure part of an update).
func BenchmarkArenaStandings(b *testing.B) {
	players, ps := arena200()
	for b.Loop() {
		tournament.ArenaStandings(players, ps)
	}
}

// BenchmarkPairArena: pairing 200 waiting players (the worst case of a
// pass; a pass after one game's end has two).
func BenchmarkPairArena(b *testing.B) {
	players, _ := arena200()
	waiting := make([]tournament.ArenaPlayer, len(players))
	for i, id := range players {
		waiting[i] = tournament.ArenaPlayer{ID: id, Points: float64(i % 17), Rating: 1500 + float64(i), Last: uint(i%200 + 1)}
	}
	for b.Loop() {
		tournament.PairArena(waiting, false)
	}
}

// BenchmarkArenaView: one update of the standings of an arena of 200
// players after 1,500 games as the pages and the API make it: the two
// queries (players, pairings joined with their games) and the count, on
// SQLite (and PostgreSQL with OWARE_TEST_POSTGRES).
func BenchmarkArenaView(b *testing.B) {
	for _, d := range modelstest.Dialects() {
		b.Run(d, func(b *testing.B) {
			f := newFixture(modelstest.Open(b, d))
			ctx := b.Context()
			ids := make([]uint, 200)
			for i := range ids {
				u := &models.User{Username: fmt.Sprintf("b%03d", i), PasswordHash: "x"}
				if err := f.db.CreateUser(ctx, u); err != nil {
					b.Fatal(err)
				}
				ids[i] = u.ID
			}
			tr := &models.Tournament{Kind: "arena", Name: "Bench", Rules: "abapa", ClockInitial: 60, Minutes: 60,
				Status: "finished", StartsAt: f.now, EndsAt: f.now.Add(time.Hour)}
			if err := f.db.CreateTournament(ctx, tr, f.now); err != nil {
				b.Fatal(err)
			}
			for _, id := range ids {
				if err := f.db.JoinTournament(ctx, tr.ID, id, 0, f.now, tournament.MaxPlayers); err != nil {
					b.Fatal(err)
				}
			}
			_, ps := arena200()
			rows := make([]models.TournamentGame, len(ps))
			for i, p := range ps {
				id, north := models.NewGameID(), ids[p.North-1]
				g := &models.Game{ID: id, Rules: "abapa", Status: "over", Result: []string{"", "south", "north", "draw"}[p.Outcome],
					SouthUserID: &ids[p.South-1], NorthUserID: &north, MoveLabels: "CdBa"}
				if err := f.db.CreateGame(ctx, g); err != nil {
					b.Fatal(err)
				}
				rows[i] = models.TournamentGame{TournamentID: tr.ID, GameID: &id, SouthID: ids[p.South-1], NorthID: &north, CreatedAt: f.now}
			}
			if err := f.db.Gorm.WithContext(ctx).CreateInBatches(rows, 200).Error; err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				v, err := f.ts.View(ctx, tr)
				if err != nil || len(v.Standings) != 200 {
					b.Fatal(err)
				}
			}
		})
	}
}
