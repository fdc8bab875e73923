//go:build slow

package handlerstest

import (
	"math/rand/v2"
	"net/http"
	"time"

	"oware/engine"
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
