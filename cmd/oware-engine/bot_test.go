package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/engine"
)

// fakeSite is a Bot API for one bot, "aalina", in memory: it offers the
// challenges it was given on the event stream, starts a game when one is
// accepted (the bot South, with a clock or without), plays North's first
// legal move itself and refuses illegal moves and moves out of turn as the
// site does (400, 409). cutAfter > 0 drops the game's stream once after
// that many moves.
type fakeSite struct {
	t          *testing.T
	challenges []string // event lines
	clock      bool
	cutAfter   int
	throttle   int // moves answered 429 before any is taken

	mu       sync.Mutex
	changed  chan struct{} // closed at each change
	game     *engine.Game
	id       string
	declined map[string]string // challenge id: reason
	accepted []string
	refused  []string // moves refused
	streams  int      // game streams opened
	cut      bool
}

func newFakeSite(t *testing.T, challenges ...string) *fakeSite {
	return &fakeSite{t: t, challenges: challenges, changed: make(chan struct{}), declined: map[string]string{}}
}

// challengeLine is the event of challenge id.
func challengeLine(id, rules string, rated, bot bool) string {
	return fmt.Sprintf(`{"type":"challenge","challenge":{"id":%q,"rules":%q,"rated":%v,"challenger":{"name":"kofi","bot":%v},"clock":{"initial":60,"increment":1}}}`,
		id, rules, rated, bot)
}

func (f *fakeSite) change() {
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *fakeSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer secret" {
		http.Error(w, `{"error":"no such token"}`, http.StatusUnauthorized)
		return
	}
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/v1/bot/"), "/")
	switch {
	case r.URL.Path == "/api/v1/bot/stream/events":
		f.events(w, r)
	case len(parts) == 3 && parts[0] == "challenge" && parts[2] == "accept":
		f.mu.Lock()
		f.accepted = append(f.accepted, parts[1])
		if f.game == nil {
			r, _ := engine.RulesByName("abapa")
			f.game, f.id = engine.NewGame(r, r.Start()), "game"+parts[1]
			f.change()
		}
		f.mu.Unlock()
	case len(parts) == 3 && parts[0] == "challenge" && parts[2] == "decline":
		var body struct{ Reason string }
		json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.declined[parts[1]] = body.Reason
		f.mu.Unlock()
	case len(parts) == 3 && parts[0] == "game" && parts[1] == "stream":
		f.gameStream(w, r)
	case len(parts) == 4 && parts[0] == "game" && parts[2] == "move":
		f.move(w, parts[3])
	default:
		http.NotFound(w, r)
	}
}

// events sends the challenges, then gameStart once the game exists, with
// keep-alive newlines.
func (f *fakeSite) events(w http.ResponseWriter, r *http.Request) {
	for _, c := range f.challenges {
		fmt.Fprintln(w, c)
	}
	w.(http.Flusher).Flush()
	started := false
	for {
		f.mu.Lock()
		ch, id := f.changed, f.id
		f.mu.Unlock()
		if id != "" && !started {
			fmt.Fprintf(w, `{"type":"gameStart","game":{"id":%q,"seat":"south"}}`+"\n", id)
			started = true
		}
		fmt.Fprintln(w)
		w.(http.Flusher).Flush()
		select {
		case <-ch:
		case <-time.After(200 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
}

// state is the game's gameState line.
func (f *fakeSite) state() string {
	g := f.game
	status, turn, winner := "started", "south", ""
	if g.Position.ToMove == engine.North {
		turn = "north"
	}
	if g.Over {
		status = string(g.Reason)
		if g.Result != engine.Draw {
			winner = g.Result.String()
		}
	}
	clock := `"wtime":0,"btime":0,"winc":0,"binc":0`
	if f.clock {
		clock = `"wtime":58000,"btime":59000,"winc":1000,"binc":1000`
	}
	return fmt.Sprintf(`{"type":"gameState","moves":%q,"turn":%q,%s,"status":%q,"winner":%q}`, labels(g.Moves), turn, clock, status, winner)
}

// gameStream sends gameFull, then gameState at each change, North's
// moves played first.
func (f *fakeSite) gameStream(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.streams++
	clock := "null"
	if f.clock {
		clock = `{"initial":60,"increment":1}`
	}
	fmt.Fprintf(w, `{"type":"gameFull","id":%q,"rules":"abapa","clock":%s,"south":{"name":"aalina"},"north":{"name":"kofi"},"state":%s}`+"\n",
		f.id, clock, f.state())
	sent := len(f.game.Moves)
	f.mu.Unlock()
	w.(http.Flusher).Flush()
	for {
		f.mu.Lock()
		g, ch := f.game, f.changed
		if g.Position.ToMove == engine.North && !g.Over {
			g.Play(g.LegalMoves().Pits()[0])
			f.change()
			ch = f.changed
		}
		if len(g.Moves) != sent || g.Over {
			fmt.Fprintln(w, f.state())
			sent = len(g.Moves)
		}
		cut := f.cutAfter > 0 && !f.cut && len(g.Moves) >= f.cutAfter
		if cut {
			f.cut = true
		}
		over := g.Over
		f.mu.Unlock()
		w.(http.Flusher).Flush()
		if over || cut {
			return
		}
		select {
		case <-ch:
		case <-time.After(time.Second):
			fmt.Fprintln(w)
		case <-r.Context().Done():
			return
		}
	}
}

func (f *fakeSite) move(w http.ResponseWriter, label string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.game
	if f.throttle > 0 {
		f.throttle--
		w.Header().Set("Retry-After", "1")
		http.Error(w, `{"error":"too many requests"}`, http.StatusTooManyRequests)
		return
	}
	if g.Position.ToMove != engine.South {
		f.refused = append(f.refused, label)
		http.Error(w, `{"error":"not your turn"}`, http.StatusConflict)
		return
	}
	pit, err := engine.ParseLabel(label)
	if err == nil {
		_, err = g.Play(pit)
	}
	if err != nil {
		f.refused = append(f.refused, label)
		http.Error(w, fmt.Sprintf(`{"error":%q}`, err.Error()), http.StatusBadRequest)
		return
	}
	f.change()
	fmt.Fprintln(w, `{"ok":true}`)
}

// TestBotBridge: the bridge declines the challenges its filter refuses
// with the Bot API's reasons, accepts the one it takes, plays the whole
// game with legal moves from its engine (go wtime/btime/winc/binc of the
// clock) and stops after --games 1.
func TestBotBridge(t *testing.T) {
	site := newFakeSite(t,
		challengeLine("c1", "namnam", false, false),
		challengeLine("c2", "abapa", true, false),
		challengeLine("c3", "abapa", false, true),
		challengeLine("c4", "abapa", false, false))
	site.clock = true
	srv := httptest.NewServer(site)
	defer srv.Close()
	logFile := filepath.Join(t.TempDir(), "engine.log")
	t.Setenv("OWARE_TEST_ENGINE_LOG", logFile)
	code, _, errOut := runCmd("bot", "--url", srv.URL, "--token", "secret", "--engine", engineCommand(t, "log", "--level", "1"),
		"--rated", "casual", "--from", "people", "--games", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	want := map[string]string{"c1": "variant", "c2": "casual", "c3": "noBot"}
	if fmt.Sprint(site.declined) != fmt.Sprint(want) || !slices.Equal(site.accepted, []string{"c4"}) {
		t.Errorf("declined %v, accepted %v; want %v and [c4]", site.declined, site.accepted, want)
	}
	if !site.game.Over || len(site.refused) != 0 {
		t.Errorf("game over %v after %d plies, refused moves %v", site.game.Over, len(site.game.Moves), site.refused)
	}
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := string(b)
	if !strings.Contains(lines, "position startpos\ngo wtime 58000 btime 59000 winc 1000 binc 1000\n") ||
		!strings.Contains(lines, "ucinewgame\n") {
		t.Errorf("the engine was told:\n%s", lines)
	}
	if !strings.Contains(errOut, "stopped after 1 games") {
		t.Errorf("log:\n%s", errOut)
	}
}

// TestBotBridgeResumes: the first move is answered 429 (sent again after
// its Retry-After); the game's stream drops after 4 plies; the bridge
// reads it again and finishes the game, in movetime without a clock.
func TestBotBridgeResumes(t *testing.T) {
	site := newFakeSite(t, challengeLine("c1", "abapa", false, false))
	site.cutAfter, site.throttle = 4, 1
	srv := httptest.NewServer(site)
	defer srv.Close()
	logFile := filepath.Join(t.TempDir(), "engine.log")
	t.Setenv("OWARE_TEST_ENGINE_LOG", logFile)
	code, _, errOut := runCmd("bot", "--url", srv.URL, "--token", "secret", "--engine", engineCommand(t, "log", "--level", "1"),
		"--movetime", "20", "--games", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	if !site.game.Over || len(site.refused) != 0 || site.streams != 2 {
		t.Errorf("game over %v after %d plies, refused moves %v, %d streams; want over, none refused, 2 streams\n%s",
			site.game.Over, len(site.game.Moves), site.refused, site.streams, errOut)
	}
	if b, _ := os.ReadFile(logFile); !strings.Contains(string(b), "go movetime 20\n") {
		t.Errorf("the engine was told:\n%s", b)
	}
}

// TestBotRefusedToken: a token the site refuses ends the bridge with the
// site's reason; bad flags are usage errors.
func TestBotRefusedToken(t *testing.T) {
	srv := httptest.NewServer(newFakeSite(t))
	defer srv.Close()
	code, _, errOut := runCmd("bot", "--url", srv.URL, "--token", "wrong", "--engine", "x")
	if code != 2 || !strings.Contains(errOut, "refused the token: no such token") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	for _, args := range [][]string{
		{"--url", "ftp://x", "--token", "t", "--engine", "x"},
		{"--url", srv.URL, "--engine", "x"},
		{"--url", srv.URL, "--token", "t"},
		{"--url", srv.URL, "--token", "t", "--engine", "x", "--rules", "namnam"},
		{"--url", srv.URL, "--token", "t", "--engine", "x", "--clock", "1+"},
		{"--url", srv.URL, "--token", "t", "--engine", "x", "--concurrency", "9"},
	} {
		t.Setenv("OWARE_BOT_TOKEN", "")
		if code, _, errOut := runCmd(append([]string{"bot"}, args...)...); code != 2 || !strings.Contains(errOut, "for usage") {
			t.Errorf("%q: exit %d, want 2 and the usage: %s", args, code, errOut)
		}
	}
}
