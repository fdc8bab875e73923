//go:build faults

package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"oware/engine"
)

// maxPlies ends a bot's game: it starts another.
const maxPlies = 200

// ack is a move the server acknowledged with 2xx: its 1-based ply and
// label.
type ack struct {
	ply   int
	label string
}

// ledger is what all bots saw: the moves acknowledged per game, the
// statuses of the answers, and the answers that must not happen.
type ledger struct {
	mu       sync.Mutex
	acked    map[string][]ack // by game id
	ackTimes []time.Time      // when each move was acknowledged
	statuses map[int]int      // answers by status; 0 for no answer (network error)
	bad      []string         // answers that break the rules of the test
}

func newLedger() *ledger {
	return &ledger{acked: map[string][]ack{}, statuses: map[int]int{}}
}

func (l *ledger) ack(game string, a ack) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acked[game] = append(l.acked[game], a)
	l.ackTimes = append(l.ackTimes, time.Now())
}

func (l *ledger) status(code int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.statuses[code]++
}

func (l *ledger) badf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.bad) < 50 {
		l.bad = append(l.bad, fmt.Sprintf(format, args...))
	}
}

// moves is the number of acknowledged moves.
func (l *ledger) moves() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.ackTimes)
}

// count returns the answers of one status.
func (l *ledger) count(code int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.statuses[code]
}

// acksAfter returns the moves acknowledged after t.
func (l *ledger) acksAfter(t time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, a := range l.ackTimes {
		if a.After(t) {
			n++
		}
	}
	return n
}

// firstAckAfter returns how long after t the first move was acknowledged
// (-1 when none was).
func (l *ledger) firstAckAfter(t time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	first := time.Duration(-1)
	for _, a := range l.ackTimes {
		if d := a.Sub(t); d > 0 && (first < 0 || d < first) {
			first = d
		}
	}
	return first
}

// longestGap returns the longest time without an acknowledged move
// between from and to (the outage the players saw).
func (l *ledger) longestGap(from, to time.Time) time.Duration {
	l.mu.Lock()
	times := slices.Clone(l.ackTimes)
	l.mu.Unlock()
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	var gap time.Duration
	prev := from
	for _, a := range times {
		if a.Before(from) {
			continue
		}
		if a.After(to) {
			break
		}
		gap = max(gap, a.Sub(prev))
		prev = a
	}
	return gap
}

// gameState is what a bot reads of a game in the API.
type gameState struct {
	ID       string   `json:"id"`
	Status   string   `json:"status"`
	Position string   `json:"position"`
	Moves    []string `json:"moves"`
}

// bot plays games against itself (both seats) through the JSON API of
// one of bases; when a request gets no answer at all (the instance died)
// it goes on with the next base.
type bot struct {
	bases  []string
	cur    int
	client *http.Client
	l      *ledger
	rules  engine.Rules
	rng    *rand.Rand
	last   atomic.Int64 // when it last had a move acknowledged, Unix ns
}

// ackedSince reports whether a move of the bot was acknowledged after t.
func (b *bot) ackedSince(t time.Time) bool { return b.last.Load() > t.UnixNano() }

func newBot(l *ledger, seed uint64, bases ...string) *bot {
	return &bot{bases: bases, client: &http.Client{Timeout: 10 * time.Second}, l: l,
		rules: mustRules("abapa"), rng: rand.New(rand.NewPCG(seed, 1))}
}

func mustRules(name string) engine.Rules {
	r, err := engine.RulesByName(name)
	if err != nil {
		panic(err)
	}
	return r
}

// call sends one API request and decodes a 2xx answer into out. It
// returns the status, 0 when no answer came; it notes in the ledger every
// answer and every one that is neither 2xx, 4xx nor 503 with Retry-After.
func (b *bot) call(ctx context.Context, method, path, token string, body, out any) int {
	var rd io.Reader = http.NoBody
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.bases[b.cur]+path, rd)
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "identity")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := b.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			b.l.status(0)
			b.cur = (b.cur + 1) % len(b.bases)
		}
		return 0
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		if ctx.Err() == nil {
			b.l.status(0)
		}
		return 0
	}
	b.l.status(res.StatusCode)
	switch {
	case res.StatusCode == http.StatusServiceUnavailable:
		if res.Header.Get("Retry-After") == "" {
			b.l.badf("%s %s: 503 without Retry-After", method, path)
		}
	case res.StatusCode >= 500:
		b.l.badf("%s %s: %d %.200s", method, path, res.StatusCode, text)
	case res.StatusCode < 300 && out != nil:
		if err := json.Unmarshal(text, out); err != nil {
			b.l.badf("%s %s: %d, not JSON: %.200s", method, path, res.StatusCode, text)
			return 0
		}
	}
	return res.StatusCode
}

// pause waits a little before trying again (bots do not wait the 3 s of
// Retry-After, to see how soon the server answers again).
func (b *bot) pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(50 * time.Millisecond):
	}
}

// run plays games until ctx is done.
func (b *bot) run(ctx context.Context) {
	for ctx.Err() == nil {
		var created struct{ ID, Token, Seat string }
		if b.call(ctx, "POST", "/api/v1/games", "", map[string]string{"rules": "abapa", "seat": "south"}, &created) != http.StatusCreated {
			b.pause(ctx)
			continue
		}
		var joined struct{ Token, Seat string }
		if b.call(ctx, "POST", "/api/v1/games/"+created.ID+"/join", "", struct{}{}, &joined) != http.StatusOK {
			// Perhaps stored without an answer: the seat's token is lost,
			// so the game is left as it is.
			b.pause(ctx)
			continue
		}
		b.play(ctx, created.ID, map[string]string{created.Seat: created.Token, joined.Seat: joined.Token})
	}
}

// play plays random legal moves of one game until it ends, maxPlies, or
// ctx is done. After any answer but 200 it reads the game again: a move
// that got no answer or 503 may have been stored or not.
func (b *bot) play(ctx context.Context, id string, tokens map[string]string) {
	st, ok := b.read(ctx, id)
	for ok && st.Status != "over" && len(st.Moves) < maxPlies {
		p, err := b.rules.ParsePosition(st.Position)
		if err != nil {
			b.l.badf("game %s: bad position %q: %v", id, st.Position, err)
			return
		}
		legal := b.rules.LegalMoves(p).Pits()
		if len(legal) == 0 {
			b.l.badf("game %s: no legal move in %q, status %s", id, st.Position, st.Status)
			return
		}
		if len(st.Moves)%10 == 5 {
			// Now and then the game's page, as a visitor sees it: pages
			// follow the same rules as the API.
			b.call(ctx, "GET", "/"+[]string{"en", "cs", "it"}[b.rng.IntN(3)]+"/games/"+id, "", nil, nil)
		}
		label := engine.Label(legal[b.rng.IntN(len(legal))])
		var next gameState
		code := b.call(ctx, "POST", "/api/v1/games/"+id+"/moves", tokens[p.ToMove.String()], map[string]string{"pit": label}, &next)
		switch {
		case code == http.StatusOK:
			n := len(st.Moves)
			if len(next.Moves) != n+1 || next.Moves[n] != label {
				b.l.badf("game %s: move %s at ply %d acknowledged, the answer has %v", id, label, n+1, next.Moves)
			}
			b.l.ack(id, ack{ply: n + 1, label: label})
			b.last.Store(time.Now().UnixNano())
			st = next
		case code == http.StatusUnprocessableEntity:
			b.l.badf("game %s: legal move %s in %q refused with 422", id, label, st.Position)
			return
		default:
			b.pause(ctx)
			st, ok = b.read(ctx, id)
		}
	}
}

// read reads a game, trying again until it gets it or ctx is done.
func (b *bot) read(ctx context.Context, id string) (gameState, bool) {
	for ctx.Err() == nil {
		var st gameState
		if b.call(ctx, "GET", "/api/v1/games/"+id, "", nil, &st) == http.StatusOK {
			return st, true
		}
		b.pause(ctx)
	}
	return gameState{}, false
}

// startBots runs n bots until the returned stop is called (which waits
// for them); bot i plays on bases[i%len(bases)] first, then on the others.
func startBots(l *ledger, n int, bases ...string) (bots []*bot, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		order := append(slices.Clone(bases[i%len(bases):]), bases[:i%len(bases)]...)
		b := newBot(l, uint64(i+1), order...)
		bots = append(bots, b)
		wg.Go(func() { b.run(ctx) })
	}
	return bots, func() { cancel(); wg.Wait() }
}

// verify checks the database against the ledger: no 5xx but 503 was
// answered, every acknowledged move is stored at its ply with its label,
// each ply of each game once and in sequence, the API shows the same
// moves, and -check-games finds every game's row equal to the replay of
// its moves.
func verify(t *testing.T, pg *postgres, l *ledger, live string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, b := range l.bad {
		t.Error(b)
	}
	for code, n := range l.statuses {
		if code >= 500 && code != http.StatusServiceUnavailable {
			t.Errorf("%d answers with status %d", n, code)
		}
	}
	ctx := t.Context()
	db := pg.conn(ctx)
	var dups int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM moves GROUP BY game_id, ply HAVING count(*) > 1) d`).Scan(&dups); err != nil {
		t.Fatal(err)
	}
	if dups != 0 {
		t.Errorf("%d plies stored more than once", dups)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	for id, acks := range l.acked {
		rows, err := db.Query(ctx, `SELECT ply, label FROM moves WHERE game_id = $1 ORDER BY ply`, id)
		if err != nil {
			t.Fatal(err)
		}
		var stored []string
		for rows.Next() {
			var ply int
			var label string
			if err := rows.Scan(&ply, &label); err != nil {
				t.Fatal(err)
			}
			if ply != len(stored)+1 {
				t.Errorf("game %s: ply %d stored after %d moves", id, ply, len(stored))
			}
			stored = append(stored, label)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for _, a := range acks {
			if seen[a.ply] {
				t.Errorf("game %s: ply %d acknowledged twice", id, a.ply)
			}
			seen[a.ply] = true
			if a.ply > len(stored) || stored[a.ply-1] != a.label {
				t.Errorf("game %s: acknowledged move %s at ply %d is not stored (stored: %v)", id, a.label, a.ply, stored)
			}
		}
		res, err := client.Get(live + "/api/v1/games/" + id)
		if err != nil {
			t.Fatal(err)
		}
		var st gameState
		json.NewDecoder(res.Body).Decode(&st)
		res.Body.Close()
		if !slices.Equal(st.Moves, stored) && !(len(st.Moves) == 0 && len(stored) == 0) {
			t.Errorf("game %s: the API shows %v, the moves table %v", id, st.Moves, stored)
		}
	}
	out, err := exec.Command(binary, "-check-games", "-database", pg.URL()).CombinedOutput()
	if err != nil {
		t.Errorf("-check-games: %v\n%s", err, out)
	}
}
