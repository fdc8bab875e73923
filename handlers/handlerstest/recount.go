package handlerstest

import (
	"context"
	"log/slog"
	"sort"
	"strings"
	"testing"
	"time"

	"oware/game"
	"oware/handlers"
	"oware/models"
	"oware/tournament"
)

// CheckRecount counts the arena's points again from the stored games (in
// the order they ended: 2 a win, 4 after two wins in a row, 1 a draw; a
// game over before both moved scores nobody, and ends the streak of the
// player who did not move) and compares them with the API's standings,
// which must have players lines.
func (s *Site) CheckRecount(db *models.DB, path string, ps []models.TournamentGame, players int) {
	type end struct {
		at           time.Time
		seq          uint
		south, north uint
		result       string
		forfeit      uint // of an unplayed game: the player to move, who did not move
	}
	var ends []end
	for _, p := range ps {
		g, err := db.LoadGame(s.T.Context(), *p.GameID)
		if err != nil {
			s.T.Fatal(err)
		}
		e := end{at: g.UpdatedAt, seq: p.ID, south: p.SouthID, north: *p.NorthID, result: g.Result}
		if g.Reason == "aborted" {
			e.result = strings.Fields(g.AbortedEnd + " none")[0] // as it ended before it was aborted
		}
		if len(g.Moves) < 2 { // over before both moved: nobody scores (the bots never resign)
			e.result, e.forfeit = "unplayed", map[bool]uint{true: p.SouthID, false: *p.NorthID}[len(g.Moves) == 0]
		}
		ends = append(ends, e)
	}
	sort.SliceStable(ends, func(i, j int) bool {
		if !ends[i].at.Equal(ends[j].at) {
			return ends[i].at.Before(ends[j].at)
		}
		return ends[i].seq < ends[j].seq
	})
	points, games, streak := map[uint]float64{}, map[uint]int{}, map[uint]int{}
	score := func(id uint, won, drawn bool) {
		games[id]++
		switch {
		case won && streak[id] >= 2:
			points[id] += 4
			streak[id]++
		case won:
			points[id] += 2
			streak[id]++
		case drawn:
			points[id]++
			streak[id] = 0
		default:
			streak[id] = 0
		}
	}
	for _, e := range ends {
		if e.result == "unplayed" {
			streak[e.forfeit] = 0
			continue
		}
		score(e.south, e.result == "south", e.result == "draw")
		score(e.north, e.result == "north", e.result == "draw")
	}
	users := map[string]uint{}
	for id := range games {
		u, err := db.UserByID(s.T.Context(), id)
		if err != nil {
			s.T.Fatal(err)
		}
		users[u.Username] = id
	}
	var v struct {
		Standings []struct {
			Player string
			Points float64
			Games  int
		}
	}
	s.ApiAs(nil, "GET", path, nil, &v)
	if len(v.Standings) != players {
		s.T.Errorf("%d players in the standings", len(v.Standings))
	}
	for _, st := range v.Standings {
		id := users[st.Player]
		if st.Points != points[id] || st.Games != games[id] {
			s.T.Errorf("%s: %v points in %d games, the recount %v in %d", st.Player, st.Points, st.Games, points[id], games[id])
		}
	}
}

// NewTournamentSite is NewSiteWith (adjust may be nil) whose game sweeper
// and tournament ticks run every second, as the server's do, until the
// test ends.
func NewTournamentSite(t *testing.T, db *models.DB, adjust func(*handlers.Config)) *Site {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	games := game.New(db, log)
	ts := tournament.New(db, games, log)
	s := NewSiteWith(t, db, func(c *handlers.Config) {
		c.Games, c.Tournaments = games, ts
		if adjust != nil {
			adjust(c)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go games.RunSweeper(ctx, time.Second)
	go ts.Run(ctx, time.Second)
	return s
}
