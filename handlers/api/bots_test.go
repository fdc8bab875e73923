package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/models"
)

// botToken creates an account token with the scopes through the API with
// the account's session (client c) and returns its secret.
func botToken(s *handlerstest.Site, c *http.Client, scopes ...string) string {
	s.T.Helper()
	return s.AccountToken(c, scopes...)
}

// ndjsonStream reads the NDJSON stream at path with token: its lines
// (keep-alive empty lines left out) arrive on the channel, closed when
// the stream ends; the stream ends with the test.
func ndjsonStream(s *handlerstest.Site, path, token string) <-chan map[string]any {
	s.T.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s.T.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.Srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.T.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/x-ndjson" {
		s.T.Fatalf("%s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
	}
	lines := make(chan map[string]any, 64)
	go func() {
		defer res.Body.Close()
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				m = map[string]any{"bad line": sc.Text()}
			}
			lines <- m
		}
	}()
	return lines
}

// nextLine waits (at most 15 s) for the next line of a stream of the type
// typ, skipping others, and returns it.
func nextLine(t *testing.T, lines <-chan map[string]any, typ string) map[string]any {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case m, ok := <-lines:
			if !ok {
				t.Fatalf("the stream ended before a %s line", typ)
			}
			if m["type"] == typ {
				return m
			}
		case <-deadline:
			t.Fatalf("no %s line within 15 s", typ)
		}
	}
}

// TestBotAPI: tokens made, listed and revoked with the session; two
// accounts become bots; one challenges the other by name, which sees the
// challenge on its event stream and accepts it; both read the game's
// stream (gameFull, then a gameState after each move); moves out of turn
// or illegal are refused with 400 and store nothing; the end reaches both
// streams.
func TestBotAPI(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		aalina, kwame, ama := s.Account("aalina"), s.Account("kwame"), s.Account("ama")
		if code, _ := s.Api("POST", "/api/v1/account/tokens", "", map[string]any{"name": "x", "scopes": []string{"bot:play"}}); code != http.StatusUnauthorized {
			t.Errorf("a token without a session: %d, want 401", code)
		}
		ta, tk := botToken(s, aalina, "bot:play"), botToken(s, kwame, "bot:play")
		tama := botToken(s, ama, "challenge:write")
		code, _, list := s.Do(aalina, http.MethodGet, "/api/v1/account/tokens", nil, nil)
		if code != http.StatusOK || !strings.Contains(list, `"scopes":["bot:play"]`) || strings.Contains(list, ta) {
			t.Errorf("tokens: %d %s", code, list)
		}
		// Before the upgrade the Bot API refuses the account.
		if code, body := s.Api("POST", "/api/v1/bot/challenge/aaaaaaaaaaaa/accept", ta, nil); code != http.StatusForbidden {
			t.Errorf("accept before the upgrade: %d %v, want 403", code, body)
		}
		if code, _ := s.Api("POST", "/api/v1/bot/account/upgrade", tama, nil); code != http.StatusForbidden {
			t.Errorf("upgrade without bot:play: %d, want 403", code)
		}
		for _, tok := range []string{ta, tk} {
			if code, body := s.Api("POST", "/api/v1/bot/account/upgrade", tok, nil); code != http.StatusOK || body["bot"] != true {
				t.Fatalf("upgrade: %d %v", code, body)
			}
		}
		// People challenge bots casually; a bot challenges bots only.
		clock := map[string]int{"initial": 60, "increment": 1}
		if code, body := s.Api("POST", "/api/v1/challenge/aalina", tama, map[string]any{"rules": "abapa", "clock": clock, "rated": true}); code != http.StatusUnprocessableEntity {
			t.Errorf("a person's rated challenge to a bot: %d %v, want 422", code, body)
		}
		if code, body := s.Api("POST", "/api/v1/challenge/ama", tk, map[string]any{"rules": "abapa"}); code != http.StatusForbidden {
			t.Errorf("a bot challenging a person: %d %v, want 403", code, body)
		}
		if code, body := s.Api("POST", "/api/v1/challenge/nobody", tk, map[string]any{"rules": "abapa"}); code != http.StatusNotFound {
			t.Errorf("a challenge to nobody: %d %v, want 404", code, body)
		}
		events := ndjsonStream(s, "/api/v1/bot/stream/events", ta)
		code, ch := s.Api("POST", "/api/v1/challenge/aalina", tk, map[string]any{"rules": "abapa", "clock": clock, "rated": false, "seat": "south"})
		if code != http.StatusCreated {
			t.Fatalf("challenge: %d %v", code, ch)
		}
		e := nextLine(t, events, "challenge")["challenge"].(map[string]any)
		if e["id"] != ch["id"] || e["rules"] != "abapa" || e["rated"] != false || e["challenger"].(map[string]any)["name"] != "kwame" ||
			e["challenger"].(map[string]any)["bot"] != true || e["clock"].(map[string]any)["initial"] != 60.0 {
			t.Errorf("challenge event: %v", e)
		}
		if code, body := s.Api("POST", "/api/v1/bot/challenge/"+ch["id"].(string)+"/decline", ta, map[string]string{"reason": "because"}); code != http.StatusBadRequest {
			t.Errorf("an unknown reason: %d %v, want 400", code, body)
		}
		if code, body := s.Api("POST", "/api/v1/bot/challenge/"+ch["id"].(string)+"/accept", ta, nil); code != http.StatusOK || body["ok"] != true {
			t.Fatalf("accept: %d %v", code, body)
		}
		start := nextLine(t, events, "gameStart")["game"].(map[string]any)
		id := start["id"].(string)
		if start["seat"] != "north" || start["opponent"].(map[string]any)["name"] != "kwame" {
			t.Errorf("gameStart: %v", start)
		}
		north, south := ndjsonStream(s, "/api/v1/bot/game/stream/"+id, ta), ndjsonStream(s, "/api/v1/bot/game/stream/"+id, tk)
		full := nextLine(t, south, "gameFull")
		state := full["state"].(map[string]any)
		if full["id"] != id || full["south"].(map[string]any)["name"] != "kwame" || full["north"].(map[string]any)["bot"] != true ||
			full["clock"].(map[string]any)["increment"] != 1.0 || state["moves"] != "" || state["turn"] != "south" ||
			state["status"] != "started" || state["wtime"] != 60000.0 || state["winc"] != 1000.0 {
			t.Errorf("gameFull: %v", full)
		}
		nextLine(t, north, "gameFull")
		// Out of turn, illegal, not a pit: 400 with the reason, nothing stored.
		for _, c := range []struct{ token, label, want string }{
			{ta, "a", "It is not your turn."},
			{tk, "a", "That pit is not yours."},
			{tk, "Q", "There is no such pit."},
		} {
			code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/move/"+c.label, c.token, nil)
			if code != http.StatusBadRequest || body["error"] != c.want {
				t.Errorf("move %s: %d %v, want 400 %q", c.label, code, body, c.want)
			}
		}
		if n, _ := handlerstest.Stored(t, db, id); n != 0 {
			t.Errorf("%d moves stored after the refusals", n)
		}
		if code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/move/C", tk, nil); code != http.StatusOK {
			t.Fatalf("move C: %d %v", code, body)
		}
		if st := nextLine(t, north, "gameState"); st["moves"] != "C" || st["turn"] != "north" || st["status"] != "started" {
			t.Errorf("North's stream after C: %v", st)
		}
		if code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/move/d", ta, nil); code != http.StatusOK {
			t.Fatalf("move d: %d %v", code, body)
		}
		if st := nextLine(t, south, "gameState"); st["moves"] != "C" {
			// South's stream had C first, then C d.
			if st["moves"] != "C d" {
				t.Errorf("South's stream: %v", st)
			}
		}
		if code, _ := s.Api("POST", "/api/v1/bot/game/"+id+"/chat", ta, map[string]string{"text": "hello"}); code != http.StatusOK {
			t.Errorf("chat: %d", code)
		}
		if code, _ := s.Api("POST", "/api/v1/bot/game/"+id+"/chat", ta, map[string]string{"text": "you will lose"}); code != http.StatusBadRequest {
			t.Errorf("a chat message that is no preset: %d, want 400", code)
		}
		if code, _ := s.Api("POST", "/api/v1/bot/game/"+id+"/move/C", tama, nil); code != http.StatusForbidden {
			t.Errorf("a person's token on the Bot API: %d, want 403", code)
		}
		if code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/resign", ta, nil); code != http.StatusOK {
			t.Fatalf("resign: %d %v", code, body)
		}
		for _, stream := range []<-chan map[string]any{north, south} {
			for {
				st := nextLine(t, stream, "gameState")
				if st["status"] == "started" {
					continue
				}
				if st["status"] != "resignation" || st["winner"] != "south" {
					t.Errorf("the end: %v", st)
				}
				break
			}
		}
		if fin := nextLine(t, events, "gameFinish")["game"].(map[string]any); fin["id"] != id {
			t.Errorf("gameFinish: %v", fin)
		}
		// Revoked, the token is refused.
		var tokens []struct{ ID uint }
		_, _, list = s.Do(aalina, http.MethodGet, "/api/v1/account/tokens", nil, nil)
		json.Unmarshal([]byte(list), &tokens)
		if code, _, _ := s.Do(aalina, http.MethodDelete, "/api/v1/account/tokens/"+strconv.FormatUint(uint64(tokens[0].ID), 10), nil, nil); code != http.StatusNoContent {
			t.Fatalf("revoke: %d", code)
		}
		if code, _ := s.Api("POST", "/api/v1/bot/game/"+id+"/resign", ta, nil); code != http.StatusUnauthorized {
			t.Errorf("a revoked token: %d, want 401", code)
		}
		// Ama played no game yet: her account could become a bot, but
		// once seated in a game it cannot.
		code, body := s.Api("POST", "/api/v1/challenge/kwame", tama, map[string]any{"rules": "abapa"})
		if code != http.StatusCreated {
			t.Fatalf("Ama's challenge: %d %v", code, body)
		}
		if code, body := s.Api("POST", "/api/v1/bot/challenge/"+body["id"].(string)+"/accept", tk, nil); code != http.StatusOK {
			t.Fatalf("accept Ama's: %d %v", code, body)
		}
		tamaBot := botToken(s, ama, "bot:play")
		if code, body := s.Api("POST", "/api/v1/bot/account/upgrade", tamaBot, nil); code != http.StatusConflict {
			t.Errorf("upgrade after a game: %d %v, want 409", code, body)
		}
	})
}

// TestBotChallengeDeclined (issue 35): a bot's challenge declined with a
// reason reaches its challenger's event stream as challengeDeclined with
// that reason; the challenged bot's stream says challengeCanceled of none.
func TestBotChallengeDeclined(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		_, ta := s.BotAccount("aalina")
		_, tk := s.BotAccount("kwame")
		events := ndjsonStream(s, "/api/v1/bot/stream/events", ta)
		code, ch := s.Api("POST", "/api/v1/challenge/kwame", ta, map[string]any{"rules": "abapa", "seat": "south"})
		if code != http.StatusCreated {
			t.Fatalf("challenge: %d %v", code, ch)
		}
		// The challenge is open on both sides before it is declined.
		theirs := ndjsonStream(s, "/api/v1/bot/stream/events", tk)
		if e := nextLine(t, theirs, "challenge")["challenge"].(map[string]any); e["id"] != ch["id"] {
			t.Fatalf("kwame's challenge event: %v", e)
		}
		if code, body := s.Api("POST", "/api/v1/bot/challenge/"+ch["id"].(string)+"/decline", tk, map[string]string{"reason": "timeControl"}); code != http.StatusOK {
			t.Fatalf("decline: %d %v", code, body)
		}
		e := nextLine(t, events, "challengeDeclined")
		if e["reason"] != "timeControl" || e["challenge"].(map[string]any)["id"] != ch["id"] {
			t.Errorf("challengeDeclined: %v", e)
		}
		if e := nextLine(t, theirs, "challengeCanceled"); e["challenge"].(map[string]any)["id"] != ch["id"] {
			t.Errorf("kwame's challengeCanceled: %v", e)
		}
	})
}

// botGame starts a game of South (tk, kwame) against North (ta, aalina)
// with the clock (nil: none) and returns its id.
func botGame(t *testing.T, s *handlerstest.Site, ta, tk string, clock map[string]int) string {
	t.Helper()
	events := ndjsonStream(s, "/api/v1/bot/stream/events", ta)
	code, ch := s.Api("POST", "/api/v1/challenge/aalina", tk, map[string]any{"rules": "abapa", "clock": clock, "seat": "south"})
	if code != http.StatusCreated {
		t.Fatalf("challenge: %d %v", code, ch)
	}
	if code, body := s.Api("POST", "/api/v1/bot/challenge/"+ch["id"].(string)+"/accept", ta, nil); code != http.StatusOK {
		t.Fatalf("accept: %d %v", code, body)
	}
	return nextLine(t, events, "gameStart")["game"].(map[string]any)["id"].(string)
}

// TestBotLateMove (issue 35): a move through the Bot API after the game
// is over (the opponent resigned), or after the mover's time ran out, is
// refused with 400 and the reason; nothing is stored.
func TestBotLateMove(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		_, ta := s.BotAccount("aalina")
		_, tk := s.BotAccount("kwame")
		play := func(id, token, label string) {
			if code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/move/"+label, token, nil); code != http.StatusOK {
				t.Fatalf("move %s: %d %v", label, code, body)
			}
		}
		id := botGame(t, s, ta, tk, nil)
		play(id, tk, "C")
		play(id, ta, "d")
		if code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/resign", ta, nil); code != http.StatusOK {
			t.Fatalf("resign: %d %v", code, body)
		}
		// South to move after C d: C is legal, but the game is over.
		if code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/move/C", tk, nil); code != http.StatusBadRequest || body["error"] != "The game is over." {
			t.Errorf("a move after the resignation: %d %v, want 400 %q", code, body, "The game is over.")
		}
		if n, _ := handlerstest.Stored(t, db, id); n != 2 {
			t.Errorf("%d moves stored after the late move, want 2 (C d)", n)
		}

		// A 10 s clock (game.MinInitial), which runs after each side's
		// first move: after C d South waits until its time ran out as its
		// stream's gameState tells it, then moves.
		id = botGame(t, s, ta, tk, map[string]int{"initial": 10, "increment": 0})
		stream := ndjsonStream(s, "/api/v1/bot/game/stream/"+id, tk)
		play(id, tk, "C")
		play(id, ta, "d")
		st := nextLine(t, stream, "gameState")
		for st["moves"] != "C d" {
			st = nextLine(t, stream, "gameState")
		}
		for end := time.Now().Add(time.Duration(st["wtime"].(float64)) * time.Millisecond); time.Now().Before(end); {
			time.Sleep(time.Until(end) + 10*time.Millisecond)
		}
		code, body := s.Api("POST", "/api/v1/bot/game/"+id+"/move/C", tk, nil)
		// The time ran out; the game is over when a sweep came first.
		if code != http.StatusBadRequest || (body["error"] != "Your time ran out before the move arrived." && body["error"] != "The game is over.") {
			t.Errorf("a move after the time ran out: %d %v, want 400 and the time ran out", code, body)
		}
		t.Logf("late on the clock: %v", body["error"])
		if n, _ := handlerstest.Stored(t, db, id); n != 2 {
			t.Errorf("%d moves stored after the late move, want 2 (C d)", n)
		}
	})
}
