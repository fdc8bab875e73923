package handlerstest

import (
	"net/http"
	"net/url"

	"oware/engine"
)

// GreedyMove is the engine-chosen move of the tests: the legal move that
// leaves the fewest seeds on the board, so that a round ends soon (the first
// round of the `last` setting ends after 36 moves, no legal move left).
func GreedyMove(r engine.Rules, p engine.Position) int {
	legal := r.LegalMoves(p)
	best, fewest := -1, engine.TotalSeeds+1
	for pit := range engine.NumPits {
		if !legal.Has(pit) {
			continue
		}
		if next, _, err := r.Play(p, pit); err == nil && next.BoardSeeds() < fewest {
			best, fewest = pit, next.BoardSeeds()
		}
	}
	return best
}

// NewNamNamAPIGame creates a Nam-nam match through the API (creator South)
// and joins it.
func (s *Site) NewNamNamAPIGame(fours string) (id, south, north string) {
	s.T.Helper()
	body := map[string]string{"rules": "namnam", "seat": "south"}
	if fours != "" {
		body["fours"] = fours
	}
	code, g := s.Api("POST", "/api/v1/games", "", body)
	if code != http.StatusCreated {
		s.T.Fatalf("create: %d %v", code, g)
	}
	id, south = g["id"].(string), g["token"].(string)
	code, j := s.Api("POST", "/api/v1/games/"+id+"/join", "", nil)
	if code != http.StatusOK {
		s.T.Fatalf("join: %d %v", code, j)
	}
	return id, south, j["token"].(string)
}

// FormNamNam creates a Nam-nam match through the forms in lang (creator
// South, the fours setting given) and lets a second browser join it.
func (s *Site) FormNamNam(lang, fours string) (south, north Seated) {
	s.T.Helper()
	south.C, north.C = s.Browser(), s.Browser()
	_, _, page := s.Get(south.C, "/"+lang+"/games/new")
	form := url.Values{"_csrf": {s.Csrf(page)}, "rules": {"namnam"}, "fours": {fours}, "seat": {"south"}}
	code, hdr, _ := s.Post(south.C, "/"+lang+"/games/new", form, nil)
	if code != http.StatusSeeOther {
		s.T.Fatalf("create: %d", code)
	}
	south.Game, north.Game = hdr.Get("Location"), hdr.Get("Location")
	_, _, page = s.Get(north.C, north.Game+"/join")
	code, hdr, _ = s.Post(north.C, north.Game+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	if code != http.StatusSeeOther || hdr.Get("Location") != north.Game {
		s.T.Fatalf("join: %d %q", code, hdr.Get("Location"))
	}
	return south, north
}

// PlayRound plays the engine's moves through the forms (without
// JavaScript) until the round ends, and returns the engine's game.
func (s *Site) PlayRound(eg *engine.Game, south, north Seated) engine.Move {
	s.T.Helper()
	for range 300 {
		pit := GreedyMove(eg.Rules, eg.Position)
		p := south
		if eg.Position.ToMove == engine.North {
			p = north
		}
		mv, err := eg.Play(pit)
		if err != nil {
			s.T.Fatal(err)
		}
		if code, _, _ := s.Move(p, engine.Label(pit), nil); code != http.StatusSeeOther {
			s.T.Fatalf("move %s: %d", engine.Label(pit), code)
		}
		if mv.RoundOver {
			return mv
		}
	}
	s.T.Fatal("the round does not end")
	return engine.Move{}
}
