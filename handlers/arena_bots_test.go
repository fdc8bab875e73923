//go:build slow

package handlers_test

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/handlers"
	"oware/models"
	"oware/tournament"
)

// arenaSeconds is how long the bots play (OWARE_ARENA_SECONDS, default
// 60).
func arenaSeconds() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("OWARE_ARENA_SECONDS")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 60 * time.Second
}

// TestArenaBots: 20 bots join an arena through the API and play random
// legal moves with the seat tokens of /me for arenaSeconds, then leave.
// Checked: a free player who has a possible opponent (not their last one)
// is paired within a second (sampled every 100 ms from the API); no
// player is ever in two games at once (the stored pairings); the
// standings of the API equal a recount from the stored games. It logs
// the pairing latency: from the moment both players of a pairing were
// free (the later end of their previous games) to the pairing.
func TestArenaBots(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		log := slog.New(slog.DiscardHandler)
		games := game.New(db, log)
		ts := tournament.New(db, games, log)
		s := newSiteWith(t, db, func(c *handlers.Config) {
			c.Games, c.Tournaments = games, ts
			c.BehindProxy = true // each bot registers from an address of its own (X-Forwarded-For)
		})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go games.RunSweeper(ctx, time.Second)
		go ts.Run(ctx, time.Second)

		bots := make([]*http.Client, 20)
		for i := range bots {
			bots[i] = s.browser()
			_, _, page := s.get(bots[i], "/en/register")
			form := url.Values{"_csrf": {s.csrf(page)}, "username": {"bot" + strconv.Itoa(i)}, "password": {testPassword}}
			if code, _, _ := s.post(bots[i], "/en/register", form, map[string]string{"X-Forwarded-For": "198.51.100." + strconv.Itoa(i+1)}); code != http.StatusSeeOther {
				t.Fatalf("register bot %d: %d", i, code)
			}
		}
		var created struct{ ID string }
		set := map[string]any{"kind": "arena", "name": "Bots", "rules": "abapa",
			"clock": map[string]int{"initial": 60, "increment": 0}, "minutes": 30, "starts_in": 0, "rated": true}
		if code := s.apiAs(bots[0], "POST", "/api/v1/tournaments", set, &created); code != http.StatusCreated {
			t.Fatalf("create: %d", code)
		}
		path := "/api/v1/tournaments/" + created.ID
		deadline := time.Now().Add(arenaSeconds())
		var wg sync.WaitGroup
		for i, c := range bots {
			wg.Go(func() { s.bot(c, path, deadline, rand.New(rand.NewPCG(uint64(i), 7))) })
		}
		waits := s.sampleFree(path, deadline)
		wg.Wait()

		pairings, err := db.TournamentGames(t.Context(), created.ID)
		if err != nil {
			t.Fatal(err)
		}
		checkNoOverlap(t, pairings)
		lat := pairingLatencies(pairings)
		if len(waits) > 0 {
			t.Errorf("free players with a possible opponent waited over 1 s %d times: %v", len(waits), waits)
		}
		t.Logf("%d games; pairing latency over %d pairings: p50 %v, p90 %v, p99 %v, max %v",
			len(pairings), len(lat), pct(lat, 50), pct(lat, 90), pct(lat, 99), pct(lat, 100))
		if p := pct(lat, 99); p > time.Second {
			t.Errorf("pairing latency p99 %v, want at most 1 s", p)
		}
		s.checkRecount(db, path, pairings)
	})
}

// bot joins the arena and plays its games until deadline, then withdraws
// and plays out the game it may still have.
func (s *site) bot(c *http.Client, path string, deadline time.Time, rnd *rand.Rand) {
	if code := s.apiAs(c, "POST", path+"/join", nil, nil); code != http.StatusOK {
		s.t.Errorf("join: %d", code)
		return
	}
	var withdrawn time.Time
	for {
		if withdrawn.IsZero() && time.Now().After(deadline) {
			if code := s.apiAs(c, "POST", path+"/withdraw", nil, nil); code != http.StatusOK {
				s.t.Errorf("withdraw: %d", code)
			}
			withdrawn = time.Now()
		}
		var m me
		if code := s.apiAs(c, "GET", path+"/me", nil, &m); code != http.StatusOK {
			s.t.Errorf("me: %d", code)
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
func (s *site) play(id, token, seat string, rnd *rand.Rand) {
	r, _ := engine.RulesByName("abapa")
	for {
		code, g := s.api("GET", "/api/v1/games/"+id, token, nil)
		if code != http.StatusOK {
			s.t.Errorf("game: %d", code)
			return
		}
		if g["status"] == "over" {
			return
		}
		pos, err := r.ParsePosition(g["position"].(string))
		if err != nil {
			s.t.Error(err)
			return
		}
		if pos.ToMove.String() != seat {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		pits := r.LegalMoves(pos).Pits()
		if code, _ := s.api("POST", "/api/v1/games/"+id+"/moves", token, map[string]string{"pit": engine.Label(pits[rnd.IntN(len(pits))])}); code != http.StatusOK && code != http.StatusConflict {
			s.t.Errorf("move: %d", code)
			return
		}
	}
}

// sampleFree reads the arena every 100 ms until deadline and returns how
// long (over 1 s) players who could have been paired stayed free.
func (s *site) sampleFree(path string, deadline time.Time) []time.Duration {
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
		if code := s.apiAs(nil, "GET", path, nil, &v); code != http.StatusOK {
			s.t.Errorf("tournament: %d", code)
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

// checkNoOverlap checks that no player's games overlap in time.
func checkNoOverlap(t *testing.T, ps []models.TournamentGame) {
	t.Helper()
	type span struct{ from, to time.Time }
	by := map[uint][]span{}
	for _, p := range ps {
		if p.Game.GameUpdated == nil || p.Game.Status != "over" {
			t.Errorf("game %v not over: %+v", p.GameID, p.Game)
			continue
		}
		sp := span{p.CreatedAt, *p.Game.GameUpdated}
		by[p.SouthID] = append(by[p.SouthID], sp)
		by[*p.NorthID] = append(by[*p.NorthID], sp)
	}
	for id, spans := range by {
		sort.Slice(spans, func(i, j int) bool { return spans[i].from.Before(spans[j].from) })
		for i := 1; i < len(spans); i++ {
			// A pairing's time is in whole milliseconds (the clocks'
			// unit), a game's end in microseconds.
			if spans[i].from.Add(time.Millisecond).Before(spans[i-1].to) {
				t.Errorf("player %d: a game from %v while another lasts until %v", id, spans[i].from, spans[i-1].to)
			}
		}
	}
}

// pairingLatencies returns, for each pairing after both players' first,
// the time from the later end of their previous games to the pairing.
func pairingLatencies(ps []models.TournamentGame) []time.Duration {
	ended := map[uint]time.Time{}
	var out []time.Duration
	for _, p := range ps { // in the order they were made
		s, n := p.SouthID, *p.NorthID
		if a, b := ended[s], ended[n]; !a.IsZero() && !b.IsZero() {
			free := a
			if b.After(a) {
				free = b
			}
			out = append(out, p.CreatedAt.Sub(free))
		}
		if p.Game.GameUpdated != nil {
			ended[s], ended[n] = *p.Game.GameUpdated, *p.Game.GameUpdated
		}
	}
	return out
}

// pct returns the p-th percentile of ds (100: the largest).
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// checkRecount counts the arena's points again from the stored games (in
// the order they ended: 2 a win, 4 after two wins in a row, 1 a draw; a
// player who made no first move loses) and compares them with the API's
// standings.
func (s *site) checkRecount(db *models.DB, path string, ps []models.TournamentGame) {
	type end struct {
		at           time.Time
		seq          uint
		south, north uint
		result       string
	}
	var ends []end
	for _, p := range ps {
		g, err := db.LoadGame(s.t.Context(), *p.GameID)
		if err != nil {
			s.t.Fatal(err)
		}
		e := end{g.UpdatedAt, p.ID, p.SouthID, *p.NorthID, g.Result}
		if g.Reason == "aborted" {
			e.result = map[bool]string{true: "north", false: "south"}[len(g.Moves) == 0]
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
		score(e.south, e.result == "south", e.result == "draw")
		score(e.north, e.result == "north", e.result == "draw")
	}
	users := map[string]uint{}
	for id := range games {
		u, err := db.UserByID(s.t.Context(), id)
		if err != nil {
			s.t.Fatal(err)
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
	s.apiAs(nil, "GET", path, nil, &v)
	if len(v.Standings) != 20 {
		s.t.Errorf("%d players in the standings", len(v.Standings))
	}
	for _, st := range v.Standings {
		id := users[st.Player]
		if st.Points != points[id] || st.Games != games[id] {
			s.t.Errorf("%s: %v points in %d games, the recount %v in %d", st.Player, st.Points, st.Games, points[id], games[id])
		}
	}
}
