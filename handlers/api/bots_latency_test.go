//go:build slow

package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"oware/engine"
	"oware/handlers/handlerstest"
	"oware/models"
)

// TestBotEventLatency (issue 35's note): two bots play about 100 legal
// moves (the first legal pit, games without a clock, a new game when one
// ends) over the test site's HTTP server; each move's time from the start
// of its POST to the opponent's game stream line that shows it is logged
// as p50/p90/max. Every line arrives in order and its moves are those
// posted.
func TestBotEventLatency(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		_, ta := s.BotAccount("aalina")
		_, tk := s.BotAccount("kwame")
		rules, err := engine.RulesByName("abapa")
		if err != nil {
			t.Fatal(err)
		}
		var lat []time.Duration
		for len(lat) < 100 {
			id := botGame(t, s, ta, tk, nil)
			streams := [2]<-chan map[string]any{} // by side: South kwame, North aalina
			tokens := [2]string{engine.South: tk, engine.North: ta}
			for side, tok := range tokens {
				streams[side] = ndjsonStream(s, "/api/v1/bot/game/stream/"+id, tok)
				nextLine(t, streams[side], "gameFull")
			}
			g := engine.NewGame(rules, rules.Start())
			var moves []string
			for !g.Over && len(lat) < 100 {
				mover := g.Position.ToMove
				pit := g.LegalMoves().Pits()[0]
				if _, err := g.Play(pit); err != nil {
					t.Fatal(err)
				}
				moves = append(moves, engine.Label(pit))
				want := strings.Join(moves, " ")
				start := time.Now()
				if code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/move/"+engine.Label(pit), tokens[mover], nil); code != http.StatusOK {
					t.Fatalf("move %d %s: %d %v", len(moves), engine.Label(pit), code, body)
				}
				for _, side := range []engine.Side{mover.Opponent(), mover} { // the opponent's first
					if st := nextLine(t, streams[side], "gameState"); st["moves"] != want {
						t.Fatalf("side %d after move %d: %v, want moves %q", side, len(moves), st["moves"], want)
					}
					if side != mover {
						lat = append(lat, time.Since(start))
					}
				}
			}
		}
		slices.Sort(lat)
		t.Logf("%d moves, move POST start to the opponent's stream line: p50 %v p90 %v max %v",
			len(lat), lat[len(lat)/2], lat[len(lat)*9/10], lat[len(lat)-1])
	})
}
