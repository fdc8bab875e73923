package handlerstest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"time"
)

// ApiAs calls the JSON API in client c (its session cookie) and decodes
// the answer into out (when not nil).
func (s *Site) ApiAs(c *http.Client, method, path string, body any, out any) int {
	s.T.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	code, _, text := s.Do(c, method, path, r, map[string]string{"Content-Type": "application/json"})
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			s.T.Fatalf("%s %s: %d, not JSON: %q", method, path, code, text)
		}
	}
	return code
}

// Me is GET /api/v1/tournaments/{id}/me.
type Me struct {
	Game *struct {
		ID, Token, Seat string
	}
	Points float64
	Rank   *int
	Joined bool
}

// WaitGame waits until player c has a game in tournament id and returns
// it.
func (s *Site) WaitGame(c *http.Client, id string) Me {
	s.T.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var m Me
		if code := s.ApiAs(c, "GET", "/api/v1/tournaments/"+id+"/me", nil, &m); code != http.StatusOK {
			s.T.Fatalf("me: %d", code)
		}
		if m.Game != nil {
			return m
		}
		if time.Now().After(deadline) {
			s.T.Fatalf("no game in tournament %s", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// FirstMoves plays the first move of each side (South A, North a) in the
// tournament game of a and b, so that it counts (a game over before both
// moved scores nobody).
func (s *Site) FirstMoves(a, b Me) {
	s.T.Helper()
	south, north := a, b
	if a.Game.Seat != "south" {
		south, north = b, a
	}
	for _, m := range []struct{ token, pit string }{{south.Game.Token, "A"}, {north.Game.Token, "a"}} {
		if code, g := s.Api("POST", "/api/v1/games/"+a.Game.ID+"/moves", m.token, map[string]any{"pit": m.pit}); code != http.StatusOK {
			s.T.Fatalf("move %s: %d %v", m.pit, code, g)
		}
	}
}
