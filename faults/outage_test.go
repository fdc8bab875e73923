//go:build faults

package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"oware/engine"
)

// TestOutageChargesNobody: games on 10 s clocks (+1 s a move), half of
// them rated between accounts, are played by bots that think 1 s a move,
// so the player to move has about 10 s at any time. PostgreSQL is
// stopped for 8 s, then, once play goes on, the server is stopped for 8 s
// and started again. The site's outages are charged to nobody (issue 19,
// item 1: before, every player to move lost on time): no game ends on
// time or is aborted, no rating moves, and every move acknowledged is
// stored once.
func TestOutageChargesNobody(t *testing.T) {
	pg := startPostgres(t)
	in := startInstance(t, "oware", pg.URL())
	l := newLedger()
	games := make([]clockGame, 0, 10)
	for i := range 5 { // 10 registrations: the limit of one address
		games = append(games, ratedGame(t, in.base, i))
	}
	for range 5 {
		games = append(games, casualGame(t, in.base))
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var moves atomic.Int64
	for i, g := range games {
		b := newBot(l, uint64(100+i), in.base)
		wg.Go(func() { b.playClocked(ctx, g, &moves) })
	}
	stop := func() { cancel(); wg.Wait() }
	defer stop()
	// Past the first moves (untimed), with the clocks running.
	if _, ok := waitFor(30*time.Second, func() bool { return moves.Load() >= 4*int64(len(games)) }); !ok {
		in.fail("the bots did not get past the first moves")
	}

	outage := func(what string, cut, back func()) {
		before, at := moves.Load(), time.Now()
		cut()
		time.Sleep(8 * time.Second)
		back()
		if _, ok := waitFor(30*time.Second, in.ready); !ok {
			in.fail("not ready 30 s after the %s", what)
		}
		resumed := moves.Load()
		if _, ok := waitFor(30*time.Second, func() bool { return moves.Load() >= resumed+2*int64(len(games)) }); !ok {
			flagged, aborted, changes := outcome(t, pg)
			in.fail("play did not go on after the %s: players flagged %d, games aborted %d, rating changes %d", what, flagged, aborted, changes)
		}
		flagged, aborted, changes := outcome(t, pg)
		t.Logf("%s: away %v; %d games, %d moves acknowledged before it, %d in all; players flagged %d, games aborted %d, rating changes %d",
			what, time.Since(at).Round(100*time.Millisecond), len(games), before, moves.Load(), flagged, aborted, changes)
	}
	outage("database cut (PostgreSQL stopped 8 s)", func() { pg.ctl("stop", "-m", "fast") }, func() { pg.ctl("start") })
	outage("server restart (stopped 8 s)", in.stop, in.start)
	time.Sleep(3 * time.Second) // the clocks run on as usual
	flagged, aborted, changes := outcome(t, pg)
	stop()
	var rated int
	if err := pg.conn(t.Context()).QueryRow(t.Context(), `SELECT count(*) FROM games WHERE rated`).Scan(&rated); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games (%d rated), %d moves acknowledged, answers by status %v; players flagged %d, games aborted %d, rating changes %d",
		len(games), rated, moves.Load(), l.statuses, flagged, aborted, changes)
	if rated != 5 {
		t.Errorf("%d rated games, want 5", rated)
	}
	if flagged != 0 || aborted != 0 {
		t.Errorf("%d players lost on time and %d games were aborted by the site's outages, want none", flagged, aborted)
	}
	if changes != 0 {
		t.Errorf("%d rating changes, want none", changes)
	}
	var over int
	if err := pg.conn(t.Context()).QueryRow(t.Context(), `SELECT count(*) FROM games WHERE status = 'over'`).Scan(&over); err != nil {
		t.Fatal(err)
	}
	if over != 0 {
		t.Errorf("%d games ended during the test, want none (they all go on)", over)
	}
	verify(t, pg, l, in.base)
}

// outcome counts the games lost on time and aborted, and the rating
// changes stored.
func outcome(t *testing.T, pg *postgres) (flagged, aborted, changes int) {
	t.Helper()
	ctx := t.Context()
	db := pg.conn(ctx)
	err := db.QueryRow(ctx, `SELECT count(*) FILTER (WHERE reason = 'timeout'), count(*) FILTER (WHERE reason = 'aborted') FROM games`).
		Scan(&flagged, &aborted)
	if err == nil {
		err = db.QueryRow(ctx, `SELECT count(*) FROM rating_history`).Scan(&changes)
	}
	if err != nil {
		t.Fatal(err)
	}
	return flagged, aborted, changes
}

// clockGame is a game in play and the bearer tokens of its seats.
type clockGame struct {
	id     string
	tokens map[string]string // by seat
}

// clock10 is the time control of the test's games: 10 s, 1 s a move.
var clock10 = map[string]int{"initial": 10, "increment": 1}

// casualGame creates a guest game on the 10 s clock and joins it.
func casualGame(t *testing.T, base string) clockGame {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	var created struct{ ID, Token, Seat string }
	apiCall(t, c, base, "POST", "/api/v1/games", map[string]any{"rules": "abapa", "seat": "south", "clock": clock10}, http.StatusCreated, &created)
	var joined struct{ Token, Seat string }
	apiCall(t, c, base, "POST", "/api/v1/games/"+created.ID+"/join", struct{}{}, http.StatusOK, &joined)
	return clockGame{id: created.ID, tokens: map[string]string{created.Seat: created.Token, joined.Seat: joined.Token}}
}

// ratedGame registers two accounts and starts a rated game between them
// on the 10 s clock through the lobby's API.
func ratedGame(t *testing.T, base string, i int) clockGame {
	t.Helper()
	a, b := account(t, base, fmt.Sprintf("south%d", i)), account(t, base, fmt.Sprintf("north%d", i))
	var ch struct{ ID, Token string }
	apiCall(t, a, base, "POST", "/api/v1/challenges", map[string]any{"rules": "abapa", "seat": "south", "clock": clock10, "rated": true},
		http.StatusCreated, &ch)
	var acc struct{ Game, Token, Seat string }
	apiCall(t, b, base, "POST", "/api/v1/challenges/"+ch.ID+"/accept", struct{}{}, http.StatusOK, &acc)
	return clockGame{id: acc.Game, tokens: map[string]string{"south": ch.Token, acc.Seat: acc.Token}}
}

// csrfField finds the CSRF token of a form.
var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// account registers name through the form and returns its logged-in
// client.
func account(t *testing.T, base, name string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Timeout: 10 * time.Second, Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(base + "/en/register")
	if err != nil {
		t.Fatal(err)
	}
	m := csrfField.FindStringSubmatch(readAll(res))
	if m == nil {
		t.Fatalf("no CSRF token on the registration page")
	}
	res, err = c.PostForm(base+"/en/register", url.Values{"_csrf": {m[1]}, "username": {name}, "password": {"a long enough password"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("register %s: %d", name, res.StatusCode)
	}
	return c
}

// playClocked plays g's random legal moves, thinking 1 s before each,
// until ctx is done or the game ends; after any answer but 200 it reads
// the game again (a move answered 503, or not at all, may be stored).
func (b *bot) playClocked(ctx context.Context, g clockGame, moves *atomic.Int64) {
	st, ok := b.read(ctx, g.id)
	for ok && st.Status == "playing" {
		p, err := b.rules.ParsePosition(st.Position)
		if err != nil {
			b.l.badf("game %s: bad position %q: %v", g.id, st.Position, err)
			return
		}
		legal := b.rules.LegalMoves(p).Pits()
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		label := engine.Label(legal[b.rng.IntN(len(legal))])
		var next gameState
		switch b.call(ctx, "POST", "/api/v1/games/"+g.id+"/moves", g.tokens[p.ToMove.String()], map[string]string{"pit": label}, &next) {
		case http.StatusOK:
			b.l.ack(g.id, ack{ply: len(st.Moves) + 1, label: label})
			moves.Add(1)
			st = next
		default:
			b.pause(ctx)
			st, ok = b.read(ctx, g.id)
		}
	}
	if ok && ctx.Err() == nil {
		b.l.badf("game %s ended during the test: %s", g.id, st.Status)
	}
}

// apiCall sends a JSON request with client c and decodes the answer into
// out; any status but want fails the test.
func apiCall(t *testing.T, c *http.Client, base, method, path string, body any, want int, out any) {
	t.Helper()
	j, _ := json.Marshal(body)
	req, err := http.NewRequest(method, base+path, bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	text := readAll(res)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d %.300s, want %d", method, path, res.StatusCode, text, want)
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		t.Fatalf("%s %s: %v in %.300s", method, path, err, text)
	}
}

// readAll reads and closes an answer's body.
func readAll(res *http.Response) string {
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}
