package web_test

import (
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"oware/engine"
	"oware/handlers/handlerstest"
	"oware/models"
)

// TestNamNamAPI: a Nam-nam match created through the API plays the
// engine's moves across the end of the first round; after every move the
// position of the answer and of GET equals the engine's, and the round
// that follows starts where engine.ReplayGame says.
func TestNamNamAPI(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		for _, fours := range []string{"", "owner"} {
			id, _, _ := s.NewNamNamAPIGame(fours)
			code, g := s.Api("GET", "/api/v1/games/"+id, "", nil)
			want := "owner"
			if fours == "" {
				want = "last"
			}
			if code != http.StatusOK || g["rules"] != "namnam" || g["fours"] != want ||
				g["position"] != "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0" {
				t.Fatalf("fours %q: GET %d %v", fours, code, g)
			}
		}
		// A fours setting for Oware, or an unknown one, is refused.
		for _, body := range []map[string]string{{"rules": "abapa", "fours": "owner"}, {"rules": "namnam", "fours": "all"}} {
			if code, j := s.Api("POST", "/api/v1/games", "", body); code != http.StatusUnprocessableEntity {
				t.Errorf("create %v: %d %v", body, code, j)
			}
		}

		id, south, north := s.NewNamNamAPIGame("")
		r, _ := engine.NewRules("namnam", "last")
		eg := engine.NewGame(r, r.Start())
		var moves []int
		var end engine.Move
		for len(moves) < 200 {
			pit := handlerstest.GreedyMove(r, eg.Position)
			token := south
			if eg.Position.ToMove == engine.North {
				token = north
			}
			code, j := s.Api("POST", "/api/v1/games/"+id+"/moves", token, map[string]string{"pit": engine.Label(pit)})
			mv, err := eg.Play(pit)
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, pit)
			if code != http.StatusOK || j["position"] != r.FormatPosition(eg.Position) {
				t.Fatalf("move %d %s: %d %v, want position %s", len(moves), engine.Label(pit), code, j, r.FormatPosition(eg.Position))
			}
			if len(moves)%6 == 1 { // and after the round, below
				if _, g := s.Api("GET", "/api/v1/games/"+id, "", nil); g["position"] != r.FormatPosition(eg.Position) {
					t.Fatalf("move %d: GET position %v, want %s", len(moves), g["position"], r.FormatPosition(eg.Position))
				}
			}
			if mv.RoundOver {
				end = mv
				break
			}
		}
		if !end.RoundOver || end.Next == nil {
			t.Fatalf("no round ended in %d moves", len(moves))
		}
		replayed, err := engine.ReplayGame(r, r.Start(), moves)
		if err != nil {
			t.Fatal(err)
		}
		_, g := s.Api("GET", "/api/v1/games/"+id, "", nil)
		if replayed.Round != 2 || replayed.RoundMoves != 0 || g["position"] != r.FormatPosition(replayed.Position) ||
			g["position"] != r.FormatPosition(*end.Next) || g["status"] != "playing" {
			t.Fatalf("after the round: round %d, GET %v; want round 2 at %s", replayed.Round, g, r.FormatPosition(*end.Next))
		}
		// The next round goes on with the engine's moves.
		pit := handlerstest.GreedyMove(r, replayed.Position)
		token := south
		if replayed.Position.ToMove == engine.North {
			token = north
		}
		if _, err := replayed.Play(pit); err != nil {
			t.Fatal(err)
		}
		code, j := s.Api("POST", "/api/v1/games/"+id+"/moves", token, map[string]string{"pit": engine.Label(pit)})
		if code != http.StatusOK || j["position"] != r.FormatPosition(replayed.Position) {
			t.Fatalf("first move of round 2: %d %v", code, j)
		}
	})
}

// endlessStart holds a sowing that never ends: pit A (engine/namnam_test.go).
const endlessStart = "2-0-1-0-1-0-1-0-1-0-2-1-19-20-S-SSSSSSNNNNNN-0-0"

// refillStart is the next round of RULES.md's refill example (South 30,
// North 18): North owns d..a (6-9), South A..F and f (11), nobody e (10);
// both stores hold 2; North starts.
const refillStart = "4-4-4-4-4-4-4-4-4-4-0-4-0-0-N-SSSSSSNNNNxS-2-2"

// gameID returns the id of a game page's path.
func gameID(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// setStart makes the game of page path start (before any move) from the
// Nam-nam position start. Call it before anybody views the game in play:
// the game service then keeps its start (game.keptSettings).
func setStart(t *testing.T, db *models.DB, path, start string) {
	t.Helper()
	g, err := db.LoadGame(t.Context(), gameID(path))
	if err != nil {
		t.Fatal(err)
	}
	g.StartPosition, g.Position = start, start
	if err := db.UpdateGame(t.Context(), g, nil); err != nil {
		t.Fatal(err)
	}
}

// buttons returns the labels of the playable pits of a page.
func buttons(page string) string {
	var b strings.Builder
	for pit := range engine.NumPits {
		if strings.Contains(page, `name="pit" value="`+engine.Label(pit)+`"`) {
			b.WriteString(engine.Label(pit))
		}
	}
	return b.String()
}

// TestNamNamRefusals: a pit of the opponent's and an endless sowing are
// refused with 422 and nothing is stored; the board's buttons are the
// engine's legal moves (not the endless pit).
func TestNamNamRefusals(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		id, south, north := s.NewNamNamAPIGame("")
		n, v := handlerstest.Stored(t, db, id)
		for _, m := range []struct {
			token, pit string
			code       int
			msg        string
		}{
			{south, "a", http.StatusUnprocessableEntity, "That pit is not yours"},
			{north, "a", http.StatusConflict, "It is not your turn"},
		} {
			code, j := s.Api("POST", "/api/v1/games/"+id+"/moves", m.token, map[string]string{"pit": m.pit})
			if code != m.code || !strings.Contains(j["error"].(string), m.msg) {
				t.Errorf("%s: %d %v", m.pit, code, j)
			}
		}
		if n2, v2 := handlerstest.Stored(t, db, id); n2 != n || v2 != v {
			t.Error("a refused move changed the game")
		}

		sp, np := s.FormNamNam("en", "last")
		setStart(t, db, sp.Game, endlessStart)
		n, v = handlerstest.Stored(t, db, gameID(sp.Game))
		_, _, page := s.Get(sp.C, sp.Game)
		r, _ := engine.NewRules("namnam", "last")
		p, _ := r.ParsePosition(endlessStart)
		var legal strings.Builder
		for pit := range engine.NumPits {
			if r.LegalMoves(p).Has(pit) {
				legal.WriteString(engine.Label(pit))
			}
		}
		if got := buttons(page); got != legal.String() || strings.Contains(got, "A") {
			t.Errorf("buttons %q, want the legal moves %q (A is endless)", got, legal.String())
		}
		code, _, part := s.Move(sp, "A", map[string]string{"HX-Request": "true"})
		if code != http.StatusUnprocessableEntity || !strings.Contains(part, "This sowing would never end.") {
			t.Fatalf("endless sowing (htmx): %d %s", code, part)
		}
		code, _, part = s.Move(np, "A", map[string]string{"HX-Request": "true"})
		if code != http.StatusConflict {
			t.Fatalf("North sows out of turn: %d %s", code, part)
		}
		if n2, v2 := handlerstest.Stored(t, db, gameID(sp.Game)); n2 != n || v2 != v {
			t.Error("a refused endless sowing changed the game")
		}
	})
}

// TestNamNamBoard: the board shows the owner of every pit (class and
// marker, and in the accessible name), a pit owned by nobody, both stores,
// the round and the match score; the playable pits are the mover's legal
// ones, also on the opponent's row.
func TestNamNamBoard(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		sp, np := s.FormNamNam("en", "last")
		_, _, page := s.Get(sp.C, sp.Game)
		for _, want := range []string{"pit A, 4 seeds, South&#39;s", "pit a, 4 seeds, North&#39;s", "Round 1",
			"Match score: South 24, North 24", "store: 0 seeds", "pit own-s", "pit own-n", "●", "◆",
			"Nam-nam (captures in fours)", "Last seed&#39;s four (standard)", "Propose to end the round"} {
			if !strings.Contains(page, want) {
				t.Errorf("South's page lacks %q", want)
			}
		}
		if got := buttons(page); got != "ABCDEF" {
			t.Errorf("South's buttons %q", got)
		}
		// A second game, set up before anybody views it in play: the
		// instance keeps a game's start once it has read it in play.
		sp, np = s.FormNamNam("en", "last")
		setStart(t, db, sp.Game, refillStart)
		_, _, page = s.Get(np.C, np.Game)
		for _, want := range []string{"pit e, 0 seeds, nobody&#39;s", "pit f, 4 seeds, South&#39;s", "pit d, 4 seeds, North&#39;s",
			"pit empty own-x", "✕", "store: 2 seeds", "Match score: South 30, North 18", "owned by nobody"} {
			if !strings.Contains(page, want) {
				t.Errorf("North's page lacks %q", want)
			}
		}
		if got := buttons(page); got != "abcd" {
			t.Errorf("North's buttons %q, want abcd", got)
		}
		if _, _, page = s.Get(sp.C, sp.Game); buttons(page) != "" {
			t.Errorf("South may play out of turn: %q", buttons(page))
		}
		// Czech and Italian accessible names.
		for lang, want := range map[string]string{"cs": "jamka e, 0 semínek, nepatří nikomu", "it": "buca f, 4 semi, di Sud"} {
			if _, _, page := s.Get(np.C, "/"+lang+"/games/"+gameID(np.Game)); !strings.Contains(page, want) {
				t.Errorf("%s: no %q", lang, want)
			}
		}
	})
}

// TestNamNamMatchWithoutJavaScript: through the forms, a round is played to
// its end; both players see its summary until they start the next round;
// a round is ended by agreement; between rounds the match is ended by
// agreement, the larger total winning.
func TestNamNamMatchWithoutJavaScript(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		south, north := s.FormNamNam("en", "last")
		r, _ := engine.NewRules("namnam", "last")
		eg := engine.NewGame(r, r.Start())
		end := s.PlayRound(eg, south, north)
		if eg.Round != 2 {
			t.Fatalf("round %d", eg.Round)
		}
		starter := map[engine.Side]string{engine.South: "South", engine.North: "North"}[eg.Position.ToMove]
		summary := []string{"Round 1 is over (South " + itoa(end.Totals[0]) + ", North " + itoa(end.Totals[1]) + "); " + starter + " starts round 2.",
			"The player to move had no legal move.", "Round 2",
			starter + " starts round 2.", "Start round 2", "Propose to end the match",
			"Round 1: South " + itoa(end.Totals[0]) + ", North " + itoa(end.Totals[1])}
		for _, p := range []handlerstest.Seated{south, north} {
			_, _, page := s.Get(p.C, p.Game)
			for _, want := range summary {
				if !strings.Contains(html.UnescapeString(page), want) {
					t.Errorf("page lacks %q", want)
				}
			}
			if buttons(page) != "" {
				t.Error("the board is playable under the summary")
			}
		}
		// Each player starts the next round for themselves (POST, 303).
		mover, other := south, north
		if eg.Position.ToMove == engine.North {
			mover, other = north, south
		}
		_, _, page := s.Get(mover.C, mover.Game)
		code, hdr, _ := s.Post(mover.C, mover.Game+"/round/next", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusSeeOther || hdr.Get("Location") != mover.Game {
			t.Fatalf("start round: %d %q", code, hdr.Get("Location"))
		}
		_, _, page = s.Get(mover.C, mover.Game)
		if strings.Contains(page, "Round 1 is over") || buttons(page) == "" {
			t.Fatal("the summary stays after starting the round")
		}
		if _, _, opage := s.Get(other.C, other.Game); !strings.Contains(opage, "Round 1 is over") {
			t.Fatal("the other player's summary went too")
		}
		// A move in round 2; the other player still sees the summary until
		// they start the round.
		pit := handlerstest.GreedyMove(r, eg.Position)
		if _, err := eg.Play(pit); err != nil {
			t.Fatal(err)
		}
		s.Move(mover, engine.Label(pit), nil)
		_, _, page = s.Get(other.C, other.Game)
		if !strings.Contains(page, "Round 1 is over") || !strings.Contains(page, "Propose to end the round") {
			t.Fatal("the other player's view after the first move of round 2")
		}
		s.Post(other.C, other.Game+"/round/next", url.Values{"_csrf": {s.Csrf(page)}}, nil)

		// Ending round 2 by agreement: the other proposes, the mover accepts.
		_, _, page = s.Get(other.C, other.Game)
		s.Post(other.C, other.Game+"/end/offer", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		_, _, page = s.Get(mover.C, mover.Game)
		if !strings.Contains(page, "Your opponent proposes to end the round") {
			t.Fatal("no proposal to end the round")
		}
		s.Post(mover.C, mover.Game+"/end/accept", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		agreed, err := eg.Agree()
		if err != nil || !agreed.RoundOver || eg.Round != 3 {
			t.Fatalf("engine: %v %+v", err, agreed)
		}
		g, err := db.LoadGame(t.Context(), gameID(south.Game))
		if err != nil {
			t.Fatal(err)
		}
		if g.Position != r.FormatPosition(eg.Position) || g.Status != "playing" || g.Agreements != itoa(len(g.Moves)) {
			t.Fatalf("after the agreement: %s %s %q, want %s", g.Position, g.Status, g.Agreements, r.FormatPosition(eg.Position))
		}
		_, _, page = s.Get(south.C, south.Game)
		for _, want := range []string{"Round 2 is over", "The players agreed to end the round.", "Round 3", "Propose to end the match"} {
			if !strings.Contains(page, want) {
				t.Errorf("after the agreement, South's page lacks %q", want)
			}
		}
		// The move list goes round by round: 36 moves, 1 move, none yet.
		if n := strings.Count(page, `class="round-moves"`); n != 3 || !strings.Contains(page, "18. F a</li></ol>") {
			t.Errorf("%d rounds in the move list", n)
		}
		// Between rounds: ending the match by agreement.
		s.Post(south.C, south.Game+"/end/offer", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		_, _, page = s.Get(north.C, north.Game)
		if !strings.Contains(page, "Your opponent proposes to end the match") {
			t.Fatal("no proposal to end the match")
		}
		s.Post(north.C, north.Game+"/end/accept", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		over, err := eg.Agree()
		if err != nil || !over.Over {
			t.Fatalf("engine: %v %+v", err, over)
		}
		// North's page: the result in words, the reason under it.
		result := map[engine.Result]string{engine.SouthWins: "You lost by ", engine.NorthWins: "You won by ", engine.Draw: "Draw by agreement"}[over.Result]
		_, _, page = s.Get(north.C, north.Game)
		if !strings.Contains(page, `">`+result) || (over.Result != engine.Draw && !strings.Contains(page, `<span class="why">ended by agreement</span>`)) {
			t.Errorf("no %q (ended by agreement)", result)
		}
		if g, _ = db.LoadGame(t.Context(), gameID(south.Game)); g.Status != "over" || g.Result != over.Result.String() || g.Reason != "agreement" {
			t.Errorf("stored end: %s %s %s", g.Status, g.Result, g.Reason)
		}
		// The stored moves and agreements rebuild the same match.
		_, j := s.Api("GET", "/api/v1/games/"+g.ID, "", nil)
		if j["status"] != "over" || j["result"] != over.Result.String() {
			t.Errorf("API: %v", j)
		}
	})
}

// TestNamNamFormSettings: the new-game form offers Nam-nam with its fours
// settings, explained; the setting is stored and shown to both players and
// on the invitation page; a rematch keeps it.
func TestNamNamFormSettings(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		for lang, want := range map[string][]string{
			"en": {"Nam-nam (captures in fours)", "Every four to the pit&#39;s owner", `name="fours" value="last" checked`},
			"cs": {"Nam-nam (zajímání po čtyřech)", "Každá čtveřice patří majiteli jamky"},
			"it": {"Nam-nam (catture a quattro)", "Ogni quaterna al padrone della buca"},
		} {
			_, _, page := s.Get(nil, "/"+lang+"/games/new")
			for _, w := range want {
				if !strings.Contains(page, w) {
					t.Errorf("%s form lacks %q", lang, w)
				}
			}
		}
		south, north := s.FormNamNam("it", "owner")
		g, err := db.LoadGame(t.Context(), gameID(south.Game))
		if err != nil || g.Rules != "namnam" || g.Fours != "owner" {
			t.Fatalf("stored: %v %+v", err, g)
		}
		_, _, page := s.Get(north.C, north.Game)
		if !strings.Contains(page, "Ogni quaterna al padrone della buca") || !strings.Contains(page, "Manche 1") {
			t.Error("the Italian game page does not show the setting and the round")
		}
		// An Oware table ignores the fours field of the form.
		c := s.Browser()
		_, _, page = s.Get(c, "/en/games/new")
		code, hdr, _ := s.Post(c, "/en/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {"wari"}, "fours": {"last"}}, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("create wari: %d", code)
		}
		if g, _ := db.LoadGame(t.Context(), gameID(hdr.Get("Location"))); g.Rules != "wari" || g.Fours != "" {
			t.Errorf("wari stored as %q %q", g.Rules, g.Fours)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestNamNamMatchEnd: a move that ends a round in which a player is left
// with fewer than 4 seeds ends the match (cannot-fill); the spectator sees
// the result; a rematch keeps the rule set and its fours setting.
func TestNamNamMatchEnd(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		south, north := s.FormNamNam("en", "owner")
		// South sows F into a's 3 seeds: a four, and no seed is left.
		setStart(t, db, south.Game, "0-0-0-0-0-1-3-0-0-0-0-0-44-0-S-SSSSSSNNNNNN-0-0")
		if code, _, _ := s.Move(south, "F", nil); code != http.StatusSeeOther {
			t.Fatalf("move: %d", code)
		}
		g, err := db.LoadGame(t.Context(), gameID(south.Game))
		if err != nil || g.Status != "over" || g.Result != "south" || g.Reason != "cannot-fill" {
			t.Fatalf("stored: %v %s %s %s", err, g.Status, g.Result, g.Reason)
		}
		for _, lang := range []string{"en", "cs", "it"} {
			_, _, page := s.Get(nil, "/"+lang+"/watch/"+g.SpectatorKey)
			want := map[string][]string{
				"en": {`<span class="state won">South won by `, `<span class="why">the other player could not fill a single pit</span>`},
				"cs": {`<span class="state won">Jih vyhrál `, `<span class="why">soupeř nemohl naplnit ani jednu jamku</span>`},
				"it": {`<span class="state won">Sud vince `, `<span class="why">l&#39;avversario non poteva riempire nemmeno una buca</span>`},
			}[lang]
			for _, w := range want {
				if !strings.Contains(page, w) {
					t.Errorf("%s spectator page lacks %q", lang, w)
				}
			}
		}
		_, _, page := s.Get(north.C, north.Game)
		for _, want := range []string{"Round 1: South 48, North 0 (fewer than 4 seeds were left)", "Rematch"} {
			if !strings.Contains(page, want) {
				t.Errorf("North's page lacks %q", want)
			}
		}
		if strings.Contains(page, "round/next") || strings.Contains(page, `name="pit"`) {
			t.Error("the finished match offers a round or a move")
		}
		// Rematch: both ask; the new match keeps namnam with fours=owner.
		s.Post(north.C, north.Game+"/rematch", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		_, _, page = s.Get(south.C, south.Game)
		code, hdr, _ := s.Post(south.C, south.Game+"/rematch", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("rematch: %d", code)
		}
		ng, err := db.LoadGame(t.Context(), gameID(hdr.Get("Location")))
		if err != nil || ng.Rules != "namnam" || ng.Fours != "owner" || ng.Position != "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0" {
			t.Fatalf("rematch: %v %+v", err, ng)
		}
	})
}

// TestNamNamSpectator: between rounds a spectator sees the summary of the
// round, without the button that starts the next one.
func TestNamNamSpectator(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		south, north := s.FormNamNam("en", "last")
		r, _ := engine.NewRules("namnam", "last")
		s.PlayRound(engine.NewGame(r, r.Start()), south, north)
		g, _ := db.LoadGame(t.Context(), gameID(south.Game))
		_, _, page := s.Get(nil, "/en/watch/"+g.SpectatorKey)
		if !strings.Contains(page, "Round 1 is over") || strings.Contains(page, "round/next") || !strings.Contains(page, "Watching a Nam-nam match") {
			t.Errorf("spectator page between rounds:\n%s", page)
		}
	})
}

// TestNamNamFormPreset: /games/new?rules=namnam (the variant page's button)
// opens the form with Nam-nam chosen, and only it.
func TestNamNamFormPreset(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	_, _, page := s.Get(nil, "/en/games/new?rules=namnam")
	if !strings.Contains(page, `value="namnam" checked`) || strings.Contains(page, `value="abapa" checked`) {
		t.Errorf("the form is not set for Nam-nam:\n%s", page)
	}
}
