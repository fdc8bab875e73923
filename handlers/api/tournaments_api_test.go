package api_test

import (
	"net/http"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestTournamentAPI: refusals of bad settings and of a visitor without an
// account; an arena created and joined by two players through the API
// pairs them at once; after the first moves, a resignation through the
// moves API with the token of /me scores 2 points, and the two (the only
// players) meet again.
func TestTournamentAPI(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice, bob := s.Account("alice"), s.Account("bob")
		arena := map[string]any{"kind": "arena", "name": "Friday arena", "rules": "abapa",
			"clock": map[string]int{"initial": 60, "increment": 0}, "minutes": 30, "starts_in": 0, "rated": false}
		var refusal struct{ Error string }
		if code := s.ApiAs(nil, "POST", "/api/v1/tournaments", arena, &refusal); code != http.StatusUnauthorized || refusal.Error == "" {
			t.Errorf("without an account: %d %q", code, refusal.Error)
		}
		for field, bad := range map[string]any{"kind": "knockout", "name": "", "minutes": 2, "starts_in": -5,
			"clock": map[string]int{"days": 3}, "rules": "chess"} {
			set := map[string]any{}
			for k, v := range arena {
				set[k] = v
			}
			set[field] = bad
			if code := s.ApiAs(alice, "POST", "/api/v1/tournaments", set, &refusal); code != http.StatusUnprocessableEntity || refusal.Error == "" {
				t.Errorf("bad %s: %d %q", field, code, refusal.Error)
			}
		}
		var created struct{ ID string }
		if code := s.ApiAs(alice, "POST", "/api/v1/tournaments", arena, &created); code != http.StatusCreated || len(created.ID) != 12 {
			t.Fatalf("create: %d %+v", code, created)
		}
		var list []map[string]any
		if code := s.ApiAs(nil, "GET", "/api/v1/tournaments", nil, &list); code != http.StatusOK || len(list) != 1 ||
			list[0]["id"] != created.ID || list[0]["kind"] != "arena" || list[0]["name"] != "Friday arena" || list[0]["rules"] != "abapa" {
			t.Fatalf("list: %d %v", code, list)
		}
		path := "/api/v1/tournaments/" + created.ID
		if code := s.ApiAs(nil, "POST", path+"/join", nil, nil); code != http.StatusUnauthorized {
			t.Errorf("join without an account: %d", code)
		}
		for _, c := range []*http.Client{alice, bob} {
			if code := s.ApiAs(c, "POST", path+"/join", nil, nil); code != http.StatusOK {
				t.Fatalf("join: %d", code)
			}
		}
		a, b := s.WaitGame(alice, created.ID), s.WaitGame(bob, created.ID)
		if a.Game.ID != b.Game.ID || a.Game.Seat == b.Game.Seat || a.Game.Token == "" {
			t.Fatalf("games: %+v and %+v", a.Game, b.Game)
		}
		// Alice resigns her game through the moves API with her seat's token.
		s.FirstMoves(a, b)
		if code, g := s.Api("POST", "/api/v1/games/"+a.Game.ID+"/resign", a.Game.Token, nil); code != http.StatusOK || g["status"] != "over" {
			t.Fatalf("resign: %d %v", code, g)
		}
		var next handlerstest.Me
		deadline := time.Now().Add(10 * time.Second)
		for next = s.WaitGame(bob, created.ID); next.Game.ID == a.Game.ID; next = s.WaitGame(bob, created.ID) {
			if time.Now().After(deadline) {
				t.Fatal("not paired again")
			}
			time.Sleep(20 * time.Millisecond)
		}
		if next.Points != 2 || next.Rank == nil || *next.Rank != 1 {
			t.Errorf("bob after his win: %+v", next)
		}
		var view struct {
			ID, Kind, Status string
			Round            int
			Standings        []struct {
				Player    string
				Points    float64
				Games     int
				Tiebreaks map[string]float64
			}
			Pairings []struct {
				Round        int
				Game         *string
				South, North string
			}
		}
		if code := s.ApiAs(nil, "GET", path, nil, &view); code != http.StatusOK {
			t.Fatalf("tournament: %d", code)
		}
		if view.Status != "running" || view.Round != 0 || len(view.Pairings) != 2 || len(view.Standings) != 2 ||
			view.Standings[0].Player != "bob" || view.Standings[0].Points != 2 || view.Standings[1].Points != 0 ||
			view.Standings[0].Games != 1 || *view.Pairings[0].Game != a.Game.ID {
			t.Errorf("tournament: %+v", view)
		}
		if code := s.ApiAs(alice, "POST", path+"/withdraw", nil, nil); code != http.StatusOK {
			t.Errorf("withdraw: %d", code)
		}
		var gone handlerstest.Me
		if s.ApiAs(alice, "GET", path+"/me", nil, &gone); gone.Joined {
			t.Errorf("after withdrawing: %+v", gone)
		}
		if code := s.ApiAs(nil, "GET", "/api/v1/tournaments/aaaaaaaaaaaa", nil, &refusal); code != http.StatusNotFound {
			t.Errorf("missing: %d", code)
		}
	})
}
