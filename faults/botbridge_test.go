//go:build faults

package faults

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/engine"
	"oware/models"
)

// TestBotBridges (issue 35): on each database two bridges of oware-engine
// bot, running `oware-engine uci --level 2` and `--level 5` on bot
// accounts, play 10 games through a running server, the level-5 bot
// challenging (60+1, rated); the level-2 bridge reaches the site through a
// proxy that cuts every connection twice mid-game. Every game finishes,
// no move is refused (the server's engine checks each), the stored games
// replay to their cached state (-check-games), the bots' ratings moved,
// and level 5 wins most. Then the test plays three games itself through
// the Bot API and measures the event latency: from sending a move to the
// opponent's game stream showing it.
func TestBotBridges(t *testing.T) {
	engineBin := filepath.Join(filepath.Dir(binary), "oware-engine")
	if _, err := os.Stat(engineBin); err != nil {
		build := exec.Command("go", "build", "-o", engineBin, "oware/cmd/oware-engine")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			t.Fatal(err)
		}
	}
	pg := startPostgres(t)
	for _, db := range []struct{ name, dsn string }{
		{"sqlite", filepath.Join(t.TempDir(), "oware.db")},
		{"postgres", pg.URL()},
	} {
		t.Run(db.name, func(t *testing.T) { botBridges(t, engineBin, db.dsn) })
	}
}

func botBridges(t *testing.T, engineBin, dsn string) {
	start := time.Now()
	in := startInstance(t, "site", dsn)
	tokens := map[string]string{}
	for _, name := range []string{"aalina", "kwame"} {
		c := account(t, in.base, name)
		var tok struct{ Token string }
		apiCall(t, c, in.base, "POST", "/api/v1/account/tokens", map[string]any{"name": "bridge", "scopes": []string{"bot:play"}}, http.StatusCreated, &tok)
		tokens[name] = tok.Token
		var up struct{ Bot bool }
		bearerCall(t, in.base, tok.Token, "POST", "/api/v1/bot/account/upgrade", nil, http.StatusOK, &up)
		if !up.Bot {
			t.Fatalf("%s: upgrade answered bot=false", name)
		}
	}
	proxy := startProxy(t, in.addr)
	weak := startBridge(t, engineBin, fmt.Sprintf("http://127.0.0.1:%d", proxy.port()), tokens["aalina"], "--level 2", "--games", "10", "--from", "bots")
	strong := startBridge(t, engineBin, in.base, tokens["kwame"], "--level 5", "--games", "10",
		"--challenge", "aalina", "--clock", "60+1", "--rated", "rated")
	// Cut the weak bridge's connections twice while games are played.
	for range 2 {
		if _, ok := waitFor(60*time.Second, func() bool { return strings.Count(weak.log(), "accepted") >= 2 }); !ok {
			t.Fatalf("the weak bridge took no games:\n%s", weak.log())
		}
		time.Sleep(time.Second)
		proxy.setCut(true) // every connection closed: the bridge reconnects
		proxy.setCut(false)
	}
	for _, b := range []*bridgeProc{weak, strong} {
		if err := b.wait(4 * time.Minute); err != nil {
			t.Fatalf("%s: %v\n%s", b.name, err, b.log())
		}
	}
	played := time.Since(start)
	results := finished(t, strong.log())
	if len(results) != 10 || len(finished(t, weak.log())) != 10 {
		t.Fatalf("games finished: %d by the strong bridge, %d by the weak one\n%s\n%s", len(results), len(finished(t, weak.log())), strong.log(), weak.log())
	}
	wins := 0
	for _, r := range results {
		if r.winner == r.seat {
			wins++
		}
	}
	for _, b := range []*bridgeProc{weak, strong} {
		if strings.Contains(b.log(), " refused: ") || strings.Contains(b.log(), "resigning") {
			t.Errorf("%s: a move was refused or the engine failed:\n%s", b.name, b.log())
		}
	}
	if !strings.Contains(weak.log(), "reconnecting") {
		t.Errorf("the weak bridge never reconnected after the cuts:\n%s", weak.log())
	}
	if wins <= 5 {
		t.Errorf("level 5 won %d of 10 games against level 2, want most", wins)
	}
	t.Logf("10 games in %s, level 5 won %d: %v", played.Round(time.Second), wins, results)
	latencies := measureLatency(t, in.base, tokens["kwame"], tokens["aalina"])
	slices.Sort(latencies)
	t.Logf("event latency over %d moves: p50 %s, p90 %s, max %s", len(latencies),
		latencies[len(latencies)/2], latencies[len(latencies)*9/10], latencies[len(latencies)-1])
	in.stop()
	checkStored(t, dsn)
}

// result is a game as a bridge's log says it ended.
type result struct{ id, seat, winner, status string }

var finishedLine = regexp.MustCompile(`game (\w+): over \(([\w-]+)\), we played (\w+), winner "(\w*)"`)

func finished(t *testing.T, log string) []result {
	var out []result
	for _, m := range finishedLine.FindAllStringSubmatch(log, -1) {
		out = append(out, result{id: m[1], status: m[2], seat: m[3], winner: m[4]})
	}
	return out
}

// checkStored runs -check-games on the database and checks that both bots
// have rated games in their pool.
func checkStored(t *testing.T, dsn string) {
	out, err := exec.Command(binary, "-database", dsn, "-check-games").CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte(" 0 whose cache differs")) {
		t.Errorf("-check-games: %v: %s", err, out)
	}
	db, err := models.Open(context.Background(), dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range []string{"aalina", "kwame"} {
		u, err := db.UserByName(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := db.UserRatings(context.Background(), u.ID)
		if err != nil || len(rs) == 0 || rs[0].Games == 0 || rs[0].Rating == 1500 {
			t.Errorf("%s's ratings: %+v %v", name, rs, err)
		}
		t.Logf("%s (bot %v): %+v", name, u.Bot, rs)
	}
}

// bearerCall is apiCall with an account token.
func bearerCall(t *testing.T, base, token, method, path string, body any, want int, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	text := readAll(res)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, res.StatusCode, text, want)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, text)
		}
	}
}

// bridgeProc is a running oware-engine bot.
type bridgeProc struct {
	name string
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan error
}

func startBridge(t *testing.T, engineBin, url, token, level string, args ...string) *bridgeProc {
	t.Helper()
	b := &bridgeProc{name: "bridge" + level, out: &syncBuffer{}, done: make(chan error, 1)}
	b.cmd = exec.Command(engineBin, append([]string{"bot", "--url", url, "--token", token,
		"--engine", engineBin + " uci " + level}, args...)...)
	b.cmd.Stdout, b.cmd.Stderr = b.out, b.out
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { b.done <- b.cmd.Wait() }()
	t.Cleanup(func() {
		b.cmd.Process.Kill()
	})
	return b
}

func (b *bridgeProc) log() string { return b.out.String() }

func (b *bridgeProc) wait(d time.Duration) error {
	select {
	case err := <-b.done:
		return err
	case <-time.After(d):
		return fmt.Errorf("still running after %s", d)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// measureLatency plays three games between the two bots through the Bot
// API (first legal move each turn, 30 ms apart, the challenger South) and
// returns, for
// each move, the time from sending it until the opponent's game stream
// showed it.
func measureLatency(t *testing.T, base, south, north string) []time.Duration {
	var out []time.Duration
	r, _ := engine.RulesByName("abapa")
	for range 3 {
		var ch struct{ ID string }
		bearerCall(t, base, south, "POST", "/api/v1/challenge/aalina", map[string]any{"rules": "abapa", "seat": "south"}, http.StatusCreated, &ch)
		bearerCall(t, base, north, "POST", "/api/v1/bot/challenge/"+ch.ID+"/accept", nil, http.StatusOK, nil)
		id := gameOf(t, base, north)
		streams := [2]<-chan string{gameStream(t, base, south, id), gameStream(t, base, north, id)}
		g := engine.NewGame(r, r.Start())
		for !g.Over && len(g.Moves) < 200 {
			side := g.Position.ToMove
			pit := g.LegalMoves().Pits()[0]
			g.Play(pit)
			want := labels(g)
			time.Sleep(30 * time.Millisecond) // within the token's rate: one request every 20 ms
			sent := time.Now()
			bearerCall(t, base, [2]string{south, north}[side], "POST", "/api/v1/bot/game/"+id+"/move/"+engine.Label(pit), nil, http.StatusOK, nil)
			for m := range streams[side.Opponent()] {
				if m == want {
					break
				}
			}
			out = append(out, time.Since(sent))
		}
		if !g.Over {
			bearerCall(t, base, south, "POST", "/api/v1/bot/game/"+id+"/resign", nil, http.StatusOK, nil)
		}
	}
	return out
}

func labels(g *engine.Game) string {
	s := make([]string, len(g.Moves))
	for i, p := range g.Moves {
		s[i] = engine.Label(p)
	}
	return strings.Join(s, " ")
}

// gameOf waits for the gameStart of the bot of token on its event stream
// and returns the game's id.
func gameOf(t *testing.T, base, token string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for line := range ndjsonLines(t, ctx, base, token, "/api/v1/bot/stream/events") {
		var e struct {
			Type string
			Game struct{ ID string }
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Type == "gameStart" {
			return e.Game.ID
		}
	}
	t.Fatal("no gameStart within 15 s")
	return ""
}

// gameStream returns the moves of each line of game id's stream.
func gameStream(t *testing.T, base, token, id string) <-chan string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	out := make(chan string, 256)
	go func() {
		defer close(out)
		for line := range ndjsonLines(t, ctx, base, token, "/api/v1/bot/game/stream/"+id) {
			var s struct {
				Moves string
				State *struct{ Moves string }
			}
			if json.Unmarshal([]byte(line), &s) == nil {
				if s.State != nil {
					s.Moves = s.State.Moves
				}
				out <- s.Moves
			}
		}
	}()
	return out
}

// ndjsonLines returns the non-empty lines of an NDJSON stream until ctx
// ends.
func ndjsonLines(t *testing.T, ctx context.Context, base, token, path string) <-chan string {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("%s: %v %v", path, err, res)
		ch := make(chan string)
		close(ch)
		return ch
	}
	out := make(chan string, 256)
	go func() {
		defer close(out)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) != "" {
				out <- sc.Text()
			}
		}
	}()
	return out
}
