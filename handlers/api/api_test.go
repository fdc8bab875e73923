package api_test

import (
	"strings"
	"sync"
	"testing"

	"oware/engine"
	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

func TestAPIWholeGame(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		id, south, north := s.NewAPIGame("abapa")
		r, _ := engine.RulesByName("abapa")

		// Two plies checked by hand (RULES.md: sow counterclockwise).
		// C: pit 2's 4 seeds go to pits 3, 4, 5, 6.
		code, g := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"})
		if code != 200 || g["position"] != "4-4-0-5-5-5-5-4-4-4-4-4-0-0-N" {
			t.Fatalf("after C: %d %v", code, g)
		}
		// f: pit 11's 4 seeds go round to pits 0, 1, 2, 3.
		code, g = s.Api("POST", "/api/v1/games/"+id+"/moves", north, map[string]string{"pit": "f"})
		if code != 200 || g["position"] != "5-5-1-6-5-5-5-4-4-4-4-0-0-0-S" || g["status"] != "playing" || g["result"] != nil {
			t.Fatalf("after f: %d %v", code, g)
		}
		// Then the greedy player on both sides until the game ends.
		for ply := 3; g["status"] == "playing"; ply++ {
			if ply > 2000 {
				t.Fatal("game does not end")
			}
			p, err := r.ParsePosition(g["position"].(string))
			if err != nil {
				t.Fatal(err)
			}
			tok := south
			if p.ToMove == engine.North {
				tok = north
			}
			code, g = s.Api("POST", "/api/v1/games/"+id+"/moves", tok, map[string]string{"pit": handlerstest.Greedy(t, r, p)})
			if code != 200 {
				t.Fatalf("ply %d: %d %v", ply, code, g)
			}
		}
		code, got := s.Api("GET", "/api/v1/games/"+id, "", nil)
		if code != 200 || got["status"] != "over" {
			t.Fatalf("final GET: %d %v", code, got)
		}
		// The engine's own replay of the stored moves agrees.
		var pits []int
		for _, l := range got["moves"].([]any) {
			pit, err := engine.ParseLabel(l.(string))
			if err != nil {
				t.Fatal(err)
			}
			pits = append(pits, pit)
		}
		eg, err := engine.ReplayGame(r, r.Start(), pits)
		if err != nil || !eg.Over {
			t.Fatalf("replay: over=%v err=%v", eg != nil && eg.Over, err)
		}
		if got["position"] != r.FormatPosition(eg.Position) || got["result"] != eg.Result.String() || got["reason"] != string(eg.Reason) {
			t.Fatalf("API %v, engine %s %s %s", got, r.FormatPosition(eg.Position), eg.Result, eg.Reason)
		}
		// And by hand: 48 seeds in all; the winner has more, or 25+.
		p, _ := r.ParsePosition(got["position"].(string))
		cs, cn := int(p.Captured[engine.South]), int(p.Captured[engine.North])
		if cs+cn+p.BoardSeeds() != 48 {
			t.Fatalf("seeds do not add up: %v", got)
		}
		want := "draw"
		if cs > cn {
			want = "south"
		} else if cn > cs {
			want = "north"
		}
		if got["result"] != want {
			t.Fatalf("result %v, captures %d-%d", got["result"], cs, cn)
		}
		if got["reason"] == "25-seeds" && cs < 25 && cn < 25 {
			t.Fatalf("25-seeds with %d-%d", cs, cn)
		}
		t.Logf("%d plies, %v by %v, %d-%d", len(pits), got["result"], got["reason"], cs, cn)
		// Over: no more moves.
		if code, e := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "A"}); code != 409 || e["error"] == "" {
			t.Fatalf("move after the end: %d %v", code, e)
		}
	})
}

func TestAPIRefusals(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		code, g := s.Api("POST", "/api/v1/games", "", map[string]string{"rules": "wari", "seat": "north"})
		if code != 201 || g["seat"] != "north" {
			t.Fatalf("create: %d %v", code, g)
		}
		id, north := g["id"].(string), g["token"].(string)
		if code, e := s.Api("POST", "/api/v1/games/"+id+"/moves", north, map[string]string{"pit": "a"}); code != 409 {
			t.Fatalf("move before the opponent joined: %d %v", code, e)
		}
		code, j := s.Api("POST", "/api/v1/games/"+id+"/join", "", nil)
		if code != 200 || j["seat"] != "south" {
			t.Fatalf("join: %d %v", code, j)
		}
		south := j["token"].(string)
		if code, e := s.Api("POST", "/api/v1/games/"+id+"/join", "", nil); code != 409 || e["error"] == "" {
			t.Fatalf("third join: %d %v", code, e)
		}
		movesBefore, versionBefore := handlerstest.Stored(t, db, id)
		for _, c := range []struct {
			name, token, pit string
			code             int
		}{
			{"no token", "", "C", 401},
			{"wrong token", "not-a-token", "C", 403},
			{"out of turn", north, "a", 409},
			{"not own pit", south, "a", 422},
			{"bad label", south, "Z", 422},
			{"empty label", south, "", 422},
		} {
			code, e := s.Api("POST", "/api/v1/games/"+id+"/moves", c.token, map[string]string{"pit": c.pit})
			if code != c.code || e["error"] == "" {
				t.Errorf("%s: %d %v, want %d", c.name, code, e, c.code)
			}
		}
		// An empty pit: play C, then North d... then South C again.
		if code, _ := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != 200 {
			t.Fatal(code)
		}
		if code, _ := s.Api("POST", "/api/v1/games/"+id+"/moves", north, map[string]string{"pit": "d"}); code != 200 {
			t.Fatal(code)
		}
		movesBefore, versionBefore = handlerstest.Stored(t, db, id)
		if code, e := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != 422 || !strings.Contains(e["error"].(string), "empty") {
			t.Fatalf("empty pit: %d %v", code, e)
		}
		if code, _ := s.Api("POST", "/api/v1/games/nosuchgame00/moves", south, map[string]string{"pit": "A"}); code != 404 {
			t.Fatalf("unknown game: %d", code)
		}
		if code, _ := s.Api("GET", "/api/v1/games/nosuchgame00", "", nil); code != 404 {
			t.Fatalf("unknown game: %d", code)
		}
		if code, _ := s.Api("POST", "/api/v1/games", "", map[string]string{"rules": "chess", "seat": "south"}); code != 422 {
			t.Fatalf("bad rules: %d", code)
		}
		if m, v := handlerstest.Stored(t, db, id); m != movesBefore || v != versionBefore {
			t.Fatalf("refused moves changed the game: %d moves v%d, want %d v%d", m, v, movesBefore, versionBefore)
		}
		// Resign: North resigns, South wins.
		if code, _ := s.Api("POST", "/api/v1/games/"+id+"/resign", "", nil); code != 401 {
			t.Fatalf("resign without token: %d", code)
		}
		code, g = s.Api("POST", "/api/v1/games/"+id+"/resign", north, nil)
		if code != 200 || g["status"] != "over" || g["result"] != "south" || g["reason"] != "resignation" || g["rules"] != "wari" {
			t.Fatalf("resign: %d %v", code, g)
		}
		if code, _ := s.Api("POST", "/api/v1/games/"+id+"/resign", south, nil); code != 409 {
			t.Fatalf("resign after the end: %d", code)
		}
	})
}

func TestAPIConcurrentMoves(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		for round := 0; round < 5; round++ {
			id, south, _ := s.NewAPIGame("abapa")
			codes := make([]int, 6)
			var wg sync.WaitGroup
			for i, pit := range []string{"A", "B", "C", "D", "E", "F"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					codes[i], _ = s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": pit})
				}()
			}
			wg.Wait()
			ok := 0
			for _, c := range codes {
				switch c {
				case 200:
					ok++
				case 409:
				default:
					t.Fatalf("status %d (codes %v)", c, codes)
				}
			}
			if n, _ := handlerstest.Stored(t, db, id); ok != 1 || n != 1 {
				t.Fatalf("%d accepted, %d stored; want 1 and 1 (codes %v)", ok, n, codes)
			}
		}
	})
}

func TestRestartKeepsGame(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			db := modelstest.Open(t, d)
			s := handlerstest.NewSite(t, db)
			id, south, north := s.NewAPIGame("warri")
			s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "F"})
			s.Api("POST", "/api/v1/games/"+id+"/moves", north, map[string]string{"pit": "a"})
			s.Srv.Close()
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			s2 := handlerstest.NewSite(t, modelstest.Reopen(t, db))
			code, g := s2.Api("GET", "/api/v1/games/"+id, "", nil)
			if code != 200 || len(g["moves"].([]any)) != 2 || g["rules"] != "warri" || g["status"] != "playing" {
				t.Fatalf("after restart: %d %v", code, g)
			}
			if code, g := s2.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "A"}); code != 200 || len(g["moves"].([]any)) != 3 {
				t.Fatalf("move after restart: %d %v", code, g)
			}
		})
	}
}

// TestMissingNamesWhat: a 404 of the game service says what is missing (a
// game, a challenge), in the API's English and on a page in its language.
func TestMissingNamesWhat(t *testing.T) {
	db := modelstest.Open(t, "sqlite")
	s := handlerstest.NewSite(t, db)
	for path, want := range map[string]string{
		"/api/v1/games/AAAAAAAAAAAA":      "There is no such game.",
		"/api/v1/challenges/AAAAAAAAAAAA": "There is no such challenge: it may have been taken or cancelled.",
	} {
		if code, e := s.Api("GET", path, "", nil); code != 404 || e["error"] != want {
			t.Errorf("GET %s: %d %v, want 404 %q", path, code, e, want)
		}
	}
	if code, _, body := s.Get(nil, "/cs/games/AAAAAAAAAAAA"); code != 404 || !strings.Contains(body, "Taková hra neexistuje.") {
		t.Errorf("a missing game's page in Czech: %d, no \"Taková hra neexistuje.\"", code)
	}
}
