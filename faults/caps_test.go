//go:build faults

package faults

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
)

// TestCapsAtOnce: one account asks for 8 tournaments at once, 4 through
// each of two instances on one PostgreSQL: exactly 3 are made (the cap of
// tournaments not finished), the others answer 409 (issue 30: 5 made,
// the count and the insert apart); 8 challenges at once the same way open
// 3 (game.MaxOpenChallenges), the others answer 429.
func TestCapsAtOnce(t *testing.T) {
	pg := startPostgres(t)
	a := startInstance(t, "a", pg.URL())
	b := startInstance(t, "b", pg.URL())
	c := account(t, a.base, "capped") // its cookie goes to both (one host, one session secret)
	atOnce := func(path string, body any) map[int]int {
		j, _ := json.Marshal(body)
		var mu sync.Mutex
		codes := map[int]int{}
		var wg sync.WaitGroup
		for i := range 8 {
			base := []string{a.base, b.base}[i%2]
			wg.Go(func() {
				req, _ := http.NewRequest("POST", base+path, bytes.NewReader(j))
				req.Header.Set("Content-Type", "application/json")
				code := 0
				if res, err := c.Do(req); err == nil {
					code = res.StatusCode
					res.Body.Close()
				}
				mu.Lock()
				codes[code]++
				mu.Unlock()
			})
		}
		wg.Wait()
		return codes
	}
	codes := atOnce("/api/v1/tournaments", map[string]any{"kind": "arena", "name": "Capped", "rules": "abapa",
		"clock": map[string]int{"initial": 60}, "minutes": 30, "starts_in": 600})
	var open int
	if err := pg.conn(t.Context()).QueryRow(t.Context(), `SELECT count(*) FROM tournaments WHERE status <> 'finished'`).Scan(&open); err != nil {
		t.Fatal(err)
	}
	t.Logf("8 tournaments at once through two instances: answers %v, %d not finished", codes, open)
	if codes[http.StatusCreated] != 3 || codes[http.StatusConflict] != 5 || open != 3 {
		t.Errorf("answers %v, %d tournaments open; want 3 made (201) and 5 refused (409)", codes, open)
	}
	codes = atOnce("/api/v1/challenges", map[string]any{"rules": "abapa", "clock": map[string]int{"initial": 300, "increment": 3}})
	var challenges int
	if err := pg.conn(t.Context()).QueryRow(t.Context(), `SELECT count(*) FROM challenges WHERE status = 'open'`).Scan(&challenges); err != nil {
		t.Fatal(err)
	}
	t.Logf("8 challenges at once through two instances: answers %v, %d open", codes, challenges)
	if codes[http.StatusCreated] != 3 || codes[http.StatusTooManyRequests] != 5 || challenges != 3 {
		t.Errorf("answers %v, %d challenges open; want 3 opened (201) and 5 refused (429)", codes, challenges)
	}
}
