//go:build slow

package handlerstest

import (
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"time"

	"oware/engine"
	"oware/models"
)

// Bot joins the arena and plays its games until deadline, then withdraws
// and plays out the game it may still have.
func (s *Site) Bot(c *http.Client, path string, deadline time.Time, rnd *rand.Rand) {
	if code := s.ApiAs(c, "POST", path+"/join", nil, nil); code != http.StatusOK {
		s.T.Errorf("join: %d", code)
		return
	}
	var withdrawn time.Time
	for {
		if withdrawn.IsZero() && time.Now().After(deadline) {
			if code := s.ApiAs(c, "POST", path+"/withdraw", nil, nil); code != http.StatusOK {
				s.T.Errorf("withdraw: %d", code)
			}
			withdrawn = time.Now()
		}
		var m Me
		if code := s.ApiAs(c, "GET", path+"/me", nil, &m); code != http.StatusOK {
			s.T.Errorf("me: %d", code)
			return
		}
		if m.Game == nil {
			// A pairing made as the bot withdrew gets its game a moment
			// later (the pairing is stored first): play it too.
			if !withdrawn.IsZero() && time.Since(withdrawn) > 2*time.Second {
				return
			}
			time.Sleep(20 * time.Millisecond)
			continue
		}
		s.play(m.Game.ID, m.Game.Token, m.Game.Seat, rnd)
	}
}

// play plays random legal moves in game id for seat until it is over.
func (s *Site) play(id, token, seat string, rnd *rand.Rand) {
	r, _ := engine.RulesByName("abapa")
	for {
		code, g := s.Api("GET", "/api/v1/games/"+id, token, nil)
		if code != http.StatusOK {
			s.T.Errorf("game: %d", code)
			return
		}
		if g["status"] == "over" {
			return
		}
		pos, err := r.ParsePosition(g["position"].(string))
		if err != nil {
			s.T.Error(err)
			return
		}
		if pos.ToMove.String() != seat {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		pits := r.LegalMoves(pos).Pits()
		if code, _ := s.Api("POST", "/api/v1/games/"+id+"/moves", token, map[string]string{"pit": engine.Label(pits[rnd.IntN(len(pits))])}); code != http.StatusOK && code != http.StatusConflict {
			s.T.Errorf("move: %d", code)
			return
		}
	}
}

// SampleFree reads the arena every 100 ms until deadline and returns how
// long (over 1 s) players who could have been paired stayed free.
func (s *Site) SampleFree(path string, deadline time.Time) []time.Duration {
	var waits []time.Duration
	var since time.Time // when the current stretch of a possible pair began
	for time.Now().Before(deadline) {
		var v struct {
			Standings []struct {
				Player    string
				Withdrawn bool
			}
			Pairings []struct {
				Game         *string
				South, North string
				Result       *string
			}
		}
		if code := s.ApiAs(nil, "GET", path, nil, &v); code != http.StatusOK {
			s.T.Errorf("tournament: %d", code)
			return waits
		}
		busy, last := map[string]bool{}, map[string]string{}
		for _, p := range v.Pairings {
			if p.Result == nil {
				busy[p.South], busy[p.North] = true, true
			}
			last[p.South], last[p.North] = p.North, p.South
		}
		var free []string
		for _, st := range v.Standings {
			if !st.Withdrawn && !busy[st.Player] {
				free = append(free, st.Player)
			}
		}
		possible := false
		for i, a := range free {
			for _, b := range free[i+1:] {
				possible = possible || (last[a] != b && last[b] != a)
			}
		}
		now := time.Now()
		switch {
		case !possible:
			if !since.IsZero() && now.Sub(since) > time.Second {
				waits = append(waits, now.Sub(since))
			}
			since = time.Time{}
		case since.IsZero():
			since = now
		}
		time.Sleep(100 * time.Millisecond)
	}
	return waits
}

// CheckRecount counts the arena's points again from the stored games (in
// the order they ended: 2 a win, 4 after two wins in a row, 1 a draw; a
// game over before both moved scores nobody, and ends the streak of the
// player who did not move) and compares them with the API's standings.
func (s *Site) CheckRecount(db *models.DB, path string, ps []models.TournamentGame) {
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
	if len(v.Standings) != 20 {
		s.T.Errorf("%d players in the standings", len(v.Standings))
	}
	for _, st := range v.Standings {
		id := users[st.Player]
		if st.Points != points[id] || st.Games != games[id] {
			s.T.Errorf("%s: %v points in %d games, the recount %v in %d", st.Player, st.Points, st.Games, points[id], games[id])
		}
	}
}
