package api_test

import (
	"net/http"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestArenaAdmits (issue 35): an arena admits people only unless its
// creator says otherwise; a bot (its bot:play token) cannot join a
// people's arena, a person cannot join a bots' arena, each with the
// reason; a bad choice is refused; in an arena that admits both, a bot
// and a person are paired, casually although the arena is rated, and the
// game reaches the bot as gameStart on its event stream.
func TestArenaAdmits(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		ama := s.Account("ama")
		_, aalina := s.BotAccount("aalina")
		create := func(admits string) (int, string, string) {
			set := map[string]any{"kind": "arena", "name": "Arena " + admits, "rules": "abapa",
				"clock": map[string]int{"initial": 60, "increment": 0}, "minutes": 30, "starts_in": 0, "rated": true}
			if admits != "" {
				set["admits"] = admits
			}
			var out struct{ ID, Error string }
			code := s.ApiAs(ama, "POST", "/api/v1/tournaments", set, &out)
			return code, out.ID, out.Error
		}
		admitsOf := func(id string) any {
			var tr map[string]any
			s.ApiAs(nil, "GET", "/api/v1/tournaments/"+id, nil, &tr)
			return tr["admits"]
		}
		if code, _, msg := create("robots"); code != http.StatusUnprocessableEntity ||
			msg != "Choose who may play: people only, bots only, or bots and people." {
			t.Errorf("admits robots: %d %q", code, msg)
		}
		_, people, _ := create("")
		_, bots, _ := create("bots")
		_, both, _ := create("both")
		for id, want := range map[string]string{people: "people", bots: "bots", both: "both"} {
			if got := admitsOf(id); got != want {
				t.Errorf("tournament %s admits %v, want %s", id, got, want)
			}
		}
		join := func(id string, c *http.Client, token string) (int, any) {
			if token != "" {
				code, out := s.Api("POST", "/api/v1/tournaments/"+id+"/join", token, nil)
				return code, out["error"]
			}
			var out struct{ Error string }
			return s.ApiAs(c, "POST", "/api/v1/tournaments/"+id+"/join", nil, &out), out.Error
		}
		if code, msg := join(people, nil, aalina); code != http.StatusForbidden ||
			msg != "Only people play in this tournament. A bot may join a tournament that admits bots." {
			t.Errorf("a bot joining a people's arena: %d %v", code, msg)
		}
		if code, msg := join(bots, ama, ""); code != http.StatusForbidden ||
			msg != "Only bots play in this tournament. A bot joins it through the API with its bot:play token." {
			t.Errorf("a person joining a bots' arena: %d %v", code, msg)
		}
		if code, _ := join(bots, nil, aalina); code != http.StatusOK {
			t.Errorf("a bot joining a bots' arena: %d", code)
		}
		if code, _ := join(people, ama, ""); code != http.StatusOK {
			t.Errorf("a person joining a people's arena: %d", code)
		}
		// Ama leaves the people's arena and the bot the bots' one, so
		// that neither is paired there (nobody else plays in them anyway).
		s.ApiAs(ama, "POST", "/api/v1/tournaments/"+people+"/withdraw", nil, nil)
		if code, _ := s.Api("POST", "/api/v1/tournaments/"+bots+"/withdraw", aalina, nil); code != http.StatusOK {
			t.Errorf("the bot withdrawing: %d", code)
		}
		events := ndjsonStream(s, "/api/v1/bot/stream/events", aalina)
		for _, p := range []struct {
			c     *http.Client
			token string
		}{{ama, ""}, {nil, aalina}} {
			if code, msg := join(both, p.c, p.token); code != http.StatusOK {
				t.Fatalf("joining the arena of both: %d %v", code, msg)
			}
		}
		me := s.WaitGame(ama, both)
		start := nextLine(t, events, "gameStart")
		g, _ := start["game"].(map[string]any)
		if g["id"] != me.Game.ID || g["rated"] != false || g["opponent"].(map[string]any)["name"] != "ama" {
			t.Errorf("gameStart %v, want Ama's casual game %s", start, me.Game.ID)
		}
	})
}
