//go:build slow

package api_test

import (
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

	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
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
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewTournamentSite(t, db, func(c *handlers.Config) {
			c.BehindProxy = true // each bot registers from an address of its own (X-Forwarded-For)
		})

		bots := make([]*http.Client, 20)
		for i := range bots {
			bots[i] = s.Browser()
			_, _, page := s.Get(bots[i], "/en/register")
			form := url.Values{"_csrf": {s.Csrf(page)}, "username": {"bot" + strconv.Itoa(i)}, "password": {handlerstest.TestPassword}}
			if code, _, _ := s.Post(bots[i], "/en/register", form, map[string]string{"X-Forwarded-For": "198.51.100." + strconv.Itoa(i+1)}); code != http.StatusSeeOther {
				t.Fatalf("register bot %d: %d", i, code)
			}
		}
		var created struct{ ID string }
		set := map[string]any{"kind": "arena", "name": "Bots", "rules": "abapa",
			"clock": map[string]int{"initial": 60, "increment": 0}, "minutes": 30, "starts_in": 0, "rated": true}
		if code := s.ApiAs(bots[0], "POST", "/api/v1/tournaments", set, &created); code != http.StatusCreated {
			t.Fatalf("create: %d", code)
		}
		path := "/api/v1/tournaments/" + created.ID
		deadline := time.Now().Add(arenaSeconds())
		var wg sync.WaitGroup
		for i, c := range bots {
			wg.Go(func() { s.Bot(c, path, deadline, rand.New(rand.NewPCG(uint64(i), 7))) })
		}
		waits := s.SampleFree(path, deadline)
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
		s.CheckRecount(db, path, pairings, len(bots))
	})
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
