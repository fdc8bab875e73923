package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/models"
	"oware/tournament"
)

// TestBotArena (issue 35): in a rated arena that admits bots only, two
// bridges (`oware-engine uci --level 1` and `--level 2`, 10 s clocks) join
// with --arena and --games 3, play their arena games from the gameStart
// events of their event streams, leave when their last game starts, and
// stop: three games, all finished and rated (the per-pair limit allows
// three a day), the two bots' ratings moved in the bots' pool, and the
// standings equal a recount of the stored games (2 a win, 4 on a streak,
// 1 a draw).
func TestBotArena(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewTournamentSite(t, db, nil)

		ama := s.Account("ama")
		var created struct{ ID string }
		set := map[string]any{"kind": "arena", "name": "Bots", "rules": "abapa", "admits": "bots",
			"clock": map[string]int{"initial": 10, "increment": 0}, "minutes": 30, "starts_in": 0, "rated": true}
		if code := s.ApiAs(ama, "POST", "/api/v1/tournaments", set, &created); code != http.StatusCreated {
			t.Fatalf("create: %d", code)
		}
		start := time.Now()
		type ended struct {
			code     int
			log, who string
		}
		done := make(chan ended, 2)
		ids := map[string]uint{}
		for i, name := range []string{"aalina", "kwame"} {
			_, token := s.BotAccount(name)
			u, err := db.UserByName(t.Context(), name)
			if err != nil {
				t.Fatal(err)
			}
			ids[name] = u.ID
			level := fmt.Sprint(i + 1)
			go func() {
				code, _, errOut := runCmd("bot", "--url", s.Srv.URL, "--token", token, "--engine", engineCommand(t, "uci", "--level", level),
					"--arena", created.ID, "--games", "3")
				done <- ended{code, errOut, name}
			}()
		}
		for range 2 {
			select {
			case e := <-done:
				if e.code != 0 || !strings.Contains(e.log, "joined arena "+created.ID) || !strings.Contains(e.log, "left arena "+created.ID) ||
					!strings.Contains(e.log, "stopped after 3 games") || strings.Contains(e.log, "refused") {
					t.Errorf("%s: exit %d:\n%s", e.who, e.code, e.log)
				}
			case <-time.After(4 * time.Minute):
				t.Fatal("the bridges did not stop within 4 minutes")
			}
		}
		played := time.Since(start)
		pairings, err := db.TournamentGames(t.Context(), created.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(pairings) != 3 {
			t.Fatalf("%d games, want 3: %+v", len(pairings), pairings)
		}
		var results []string
		for _, p := range pairings {
			g, err := db.LoadGame(t.Context(), *p.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != "over" || !g.Rated || len(g.Moves) < 2 {
				t.Errorf("game %s: %s, rated %v, %d plies; want over, rated, played", g.ID, g.Status, g.Rated, len(g.Moves))
			}
			results = append(results, fmt.Sprintf("%s %s (%s, %d plies)", g.ID, g.Result, g.Reason, len(g.Moves)))
		}
		handlerstest.WaitFor(t, "both bots rated after 3 games", func() bool {
			rs, err := db.Ratings(t.Context(), tournament.Category(&models.Tournament{Rules: "abapa"}), []uint{ids["aalina"], ids["kwame"]})
			return err == nil && rs[ids["aalina"]].Games == 3 && rs[ids["kwame"]].Games == 3 &&
				rs[ids["aalina"]].Rating != 1500 && rs[ids["kwame"]].Rating != 1500
		})
		s.CheckRecount(db, "/api/v1/tournaments/"+created.ID, pairings, 2)
		t.Logf("3 arena games in %s: %v", played.Round(time.Millisecond), results)
	})
}
