package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"oware/engine"
)

// The bridge (issue 35): `oware-engine bot` connects an engine program that
// speaks the UCI-like dialect of `oware-engine uci` to a site's Bot API
// (docs/api.md, docs/engine.md): it reads the bot's event stream, accepts
// or declines challenges by its filter, plays each game from the game's
// stream with an engine process of its own, and reconnects to any stream
// that drops, resuming its games.

// botConfig is what the bot command was given.
type botConfig struct {
	site        *url.URL
	token       string
	engine      string
	concurrency int           // games at once
	movetime    time.Duration // a move's time in games without a clock
	rules       []string      // rule sets accepted
	minInitial  int           // the clocks accepted, seconds (0: any)
	maxInitial  int
	untimed     bool   // accept games without a clock
	rated       string // "any", "rated" or "casual"
	from        string // "any", "bots" or "people"
	challenge   string // a bot to challenge, "" for none
	clock       string // the clock of those challenges ("60+1" or "none")
	seat        string
	arena       string        // a tournament to join, "" for none
	games       int           // stop after this many games ended (0: never)
	idle        time.Duration // a stream silent this long is dropped
	retry       time.Duration // the first wait before reconnecting
}

// botEvent is a line of the event stream.
type botEvent struct {
	Type      string        `json:"type"`
	Challenge *botChallenge `json:"challenge"`
	Game      *struct {
		ID   string `json:"id"`
		Seat string `json:"seat"`
	} `json:"game"`
}

// botChallenge is a challenge as the event stream sends it.
type botChallenge struct {
	ID         string `json:"id"`
	Rules      string `json:"rules"`
	Rated      bool   `json:"rated"`
	Challenger struct {
		Name string `json:"name"`
		Bot  bool   `json:"bot"`
	} `json:"challenger"`
	Clock *struct {
		Initial   int `json:"initial"`
		Increment int `json:"increment"`
		Days      int `json:"days"`
	} `json:"clock"`
}

// botGameState is a gameState line, or the state of a gameFull line.
type botGameState struct {
	Type   string `json:"type"`
	Moves  string `json:"moves"`
	Turn   string `json:"turn"`
	WTime  int    `json:"wtime"`
	BTime  int    `json:"btime"`
	WInc   int    `json:"winc"`
	BInc   int    `json:"binc"`
	Status string `json:"status"`
	Winner string `json:"winner"`
	// gameFull only.
	Rules string `json:"rules"`
	Clock *struct {
		Initial int `json:"initial"`
	} `json:"clock"`
	State *botGameState `json:"state"`
}

// bridge is a running bot command.
type bridge struct {
	cfg    botConfig
	client *http.Client
	log    *log.Logger

	mu       sync.Mutex
	running  map[string]bool // games being played
	engines  []*uciProcess   // idle engine processes, for the next games
	ended    int             // games ended
	sent     bool            // a challenge of ours waits for an answer
	left     bool            // we withdrew from cfg.arena (or are withdrawing)
	stopping bool
	done     chan struct{} // closed once cfg.games games ended
	wg       sync.WaitGroup
}

func bot(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	site := fs.String("url", "", "the site's address, e.g. http://localhost:8080")
	token := fs.String("token", os.Getenv("OWARE_BOT_TOKEN"), "the bot's API token (scope bot:play; default $OWARE_BOT_TOKEN)")
	command := fs.String("engine", "", "the engine's command line, e.g. \"oware-engine uci --level 5\"")
	concurrency := fs.Int("concurrency", 2, "games at once, 1 to 8")
	movetime := fs.Int("movetime", 1000, "milliseconds a move in games without a clock")
	rules := fs.String("rules", "abapa,wari,warri", "rule sets accepted, comma-separated")
	minInitial := fs.Int("min-initial", 0, "the shortest clock accepted, seconds")
	maxInitial := fs.Int("max-initial", 0, "the longest clock accepted, seconds (0: any)")
	untimed := fs.Bool("untimed", true, "accept games without a clock")
	rated := fs.String("rated", "any", "accept rated, casual or any games")
	from := fs.String("from", "any", "accept challenges of bots, people or any")
	challenge := fs.String("challenge", "", "a bot to challenge, one game after another")
	clock := fs.String("clock", "60+1", "the clock of those challenges: INITIAL+INCREMENT in seconds, or none")
	seat := fs.String("seat", "random", "our seat in those challenges: south, north or random")
	games := fs.Int("games", 0, "stop after this many games ended (0: run until interrupted)")
	arena := fs.String("arena", "", "a tournament (an arena that admits bots) to join, by its id; left once the last of --games starts, or when stopped")
	if _, err := parseAll(fs, args); err != nil {
		return err
	}
	cfg := botConfig{token: *token, engine: *command, concurrency: *concurrency, movetime: time.Duration(*movetime) * time.Millisecond,
		rules: strings.Split(*rules, ","), minInitial: *minInitial, maxInitial: *maxInitial, untimed: *untimed,
		rated: *rated, from: *from, challenge: *challenge, clock: *clock, seat: *seat, games: *games, arena: *arena,
		idle: 30 * time.Second, retry: time.Second}
	u, err := url.Parse(*site)
	switch {
	case *site == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return usageError{fmt.Errorf("--url %q: want the site's http:// or https:// address", *site)}
	case cfg.token == "":
		return usageError{errors.New("--token: the bot's API token is missing")}
	case cfg.engine == "":
		return usageError{errors.New("--engine: the engine's command line is missing")}
	case cfg.concurrency < 1 || cfg.concurrency > 8:
		return usageError{fmt.Errorf("--concurrency %d: want 1 to 8", cfg.concurrency)}
	case *movetime < 10:
		return usageError{fmt.Errorf("--movetime %d: want at least 10 ms", *movetime)}
	case !slices.Contains([]string{"any", "rated", "casual"}, cfg.rated):
		return usageError{fmt.Errorf("--rated %q: want rated, casual or any", cfg.rated)}
	case !slices.Contains([]string{"any", "bots", "people"}, cfg.from):
		return usageError{fmt.Errorf("--from %q: want bots, people or any", cfg.from)}
	case !slices.Contains([]string{"south", "north", "random"}, cfg.seat):
		return usageError{fmt.Errorf("--seat %q: want south, north or random", cfg.seat)}
	}
	for _, r := range cfg.rules {
		if _, err := engine.RulesByName(r); err != nil || r == "namnam" {
			return usageError{fmt.Errorf("--rules: %q is not abapa, wari or warri", r)}
		}
	}
	if _, err := challengeClock(cfg.clock); err != nil {
		return usageError{err}
	}
	cfg.site = u
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return newBridge(cfg, stderr).run(ctx)
}

func newBridge(cfg botConfig, stderr io.Writer) *bridge {
	return &bridge{cfg: cfg, client: &http.Client{}, log: log.New(stderr, "bot: ", log.LstdFlags),
		running: map[string]bool{}, done: make(chan struct{})}
}

// challengeClock reads "INITIAL+INCREMENT" (seconds) or "none" into the
// clock of a challenge's body.
func challengeClock(s string) (any, error) {
	if s == "none" {
		return nil, nil
	}
	var initial, inc int
	if n, err := fmt.Sscanf(s, "%d+%d", &initial, &inc); n != 2 || err != nil || fmt.Sprintf("%d+%d", initial, inc) != s {
		return nil, fmt.Errorf("--clock %q: want INITIAL+INCREMENT in seconds (60+1) or none", s)
	}
	return map[string]int{"initial": initial, "increment": inc}, nil
}

// run reads the event stream until ctx ends or cfg.games games ended,
// reconnecting whenever it drops; it then waits for the games under way.
func (b *bridge) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-b.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := b.joinArena(ctx); err != nil {
		return err
	}
	wait := b.cfg.retry
	for ctx.Err() == nil {
		b.maybeChallenge(ctx)
		err := b.stream(ctx, "/api/v1/bot/stream/events", func(line []byte) bool {
			wait = b.cfg.retry
			b.event(ctx, line)
			return true
		})
		if ctx.Err() != nil {
			break
		}
		var refused refusal
		if errors.As(err, &refused) && refused.status == http.StatusUnauthorized {
			return fmt.Errorf("the site refused the token: %s", refused.msg)
		}
		b.log.Printf("event stream: %v; reconnecting in %s", err, wait)
		sleep(ctx, wait)
		wait = min(2*wait, 30*time.Second)
	}
	b.leaveArena()
	b.wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.engines {
		p.close()
	}
	b.log.Printf("stopped after %d games", b.ended)
	return nil
}

// joinArena joins cfg.arena (POST /api/v1/tournaments/{id}/join with the
// token), trying again while the site is out of reach or busy: the
// arena's games then come as gameStart events. A refusal (the arena
// admits people only, is over, ...) ends the bridge with the site's
// reason.
func (b *bridge) joinArena(ctx context.Context) error {
	if b.cfg.arena == "" {
		return nil
	}
	wait := b.cfg.retry
	for {
		err := b.post(ctx, "/api/v1/tournaments/"+url.PathEscape(b.cfg.arena)+"/join", map[string]string{})
		var refused refusal
		switch {
		case err == nil:
			b.log.Printf("joined arena %s", b.cfg.arena)
			return nil
		case errors.As(err, &refused) && !refused.transient():
			return fmt.Errorf("the site refused to join arena %s: %s", b.cfg.arena, refused.msg)
		case ctx.Err() != nil:
			return nil
		}
		b.log.Printf("arena %s: join: %v; trying again in %s", b.cfg.arena, err, wait)
		sleep(ctx, max(wait, refused.wait))
		wait = min(2*wait, 30*time.Second)
	}
}

// leaveArena withdraws from cfg.arena once (a game in progress is played
// to its end and counts), within 10 s whatever ctx the bridge has left.
func (b *bridge) leaveArena() {
	b.mu.Lock()
	leave := b.cfg.arena != "" && !b.left
	b.left = true
	b.mu.Unlock()
	if !leave {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.post(ctx, "/api/v1/tournaments/"+url.PathEscape(b.cfg.arena)+"/withdraw", nil); err != nil {
		b.log.Printf("arena %s: withdraw: %v", b.cfg.arena, err)
		return
	}
	b.log.Printf("left arena %s", b.cfg.arena)
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// refusal is an answer of the site other than 2xx.
type refusal struct {
	status int
	msg    string
	wait   time.Duration // Retry-After, 0 for none
}

// transient reports whether r asks to send the same request again later
// (429, 503): nothing was done.
func (r refusal) transient() bool {
	return r.status == http.StatusTooManyRequests || r.status == http.StatusServiceUnavailable
}

func (r refusal) Error() string { return fmt.Sprintf("%d %s", r.status, r.msg) }

// request sends a request of the Bot API with the token and returns the
// answer, or a refusal for a status other than 2xx.
func (b *bridge) request(ctx context.Context, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		j, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = strings.NewReader(string(j))
	}
	req, err := http.NewRequestWithContext(ctx, method, b.cfg.site.JoinPath(path).String(), rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+b.cfg.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		var e struct {
			Error string `json:"error"`
		}
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		if json.Unmarshal(raw, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(raw))
		}
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return nil, refusal{resp.StatusCode, e.Error, time.Duration(wait) * time.Second}
	}
	return resp, nil
}

// post sends a POST and drops the answer's body.
func (b *bridge) post(ctx context.Context, path string, body any) error {
	resp, err := b.request(ctx, http.MethodPost, path, body)
	if err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return err
}

// errResync ends a stream to read it again from its first line.
var errResync = errors.New("read again")

// stream reads the NDJSON stream at path and hands each non-empty line to
// f, until the stream ends, fails, is silent (not even a keep-alive
// newline) for cfg.idle, or f returns false (errResync).
func (b *bridge) stream(ctx context.Context, path string, f func([]byte) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := b.request(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	lines := make(chan []byte)
	failed := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- slices.Clone(sc.Bytes()):
			case <-ctx.Done():
				return
			}
		}
		err := sc.Err()
		if err == nil {
			err = io.EOF
		}
		failed <- err
	}()
	idle := time.NewTimer(b.cfg.idle)
	defer idle.Stop()
	for {
		select {
		case line := <-lines:
			idle.Reset(b.cfg.idle)
			if len(strings.TrimSpace(string(line))) > 0 {
				if !f(line) {
					return errResync
				}
				idle.Reset(b.cfg.idle) // an engine's thinking is no silence
			}
		case err := <-failed:
			return err
		case <-idle.C:
			return fmt.Errorf("nothing for %s", b.cfg.idle)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// event handles a line of the event stream.
func (b *bridge) event(ctx context.Context, line []byte) {
	var e botEvent
	if err := json.Unmarshal(line, &e); err != nil {
		b.log.Printf("event stream: bad line %q: %v", line, err)
		return
	}
	switch {
	case e.Type == "challenge" && e.Challenge != nil:
		b.answer(ctx, e.Challenge)
	case e.Type == "gameStart" && e.Game != nil:
		b.startGame(ctx, e.Game.ID, e.Game.Seat)
	}
}

// answer accepts or declines a challenge by the filter and the games at
// once.
func (b *bridge) answer(ctx context.Context, c *botChallenge) {
	why := b.decline(c)
	if why == "" {
		b.mu.Lock()
		if len(b.running) >= b.cfg.concurrency || b.stopping {
			why = "later"
		}
		b.mu.Unlock()
	}
	if why != "" {
		b.log.Printf("challenge %s of %s: declined (%s)", c.ID, c.Challenger.Name, why)
		if err := b.post(ctx, "/api/v1/bot/challenge/"+url.PathEscape(c.ID)+"/decline", map[string]string{"reason": why}); err != nil {
			b.log.Printf("challenge %s: decline: %v", c.ID, err)
		}
		return
	}
	if err := b.post(ctx, "/api/v1/bot/challenge/"+url.PathEscape(c.ID)+"/accept", nil); err != nil {
		b.log.Printf("challenge %s of %s: accept: %v", c.ID, c.Challenger.Name, err)
		return
	}
	b.log.Printf("challenge %s of %s: accepted", c.ID, c.Challenger.Name)
}

// decline returns the reason to decline c by the filter (the Bot API's
// reasons), "" to accept it.
func (b *bridge) decline(c *botChallenge) string {
	cfg := b.cfg
	switch {
	case !slices.Contains(cfg.rules, c.Rules):
		return "variant"
	case cfg.rated == "rated" && !c.Rated:
		return "rated"
	case cfg.rated == "casual" && c.Rated:
		return "casual"
	case cfg.from == "bots" && !c.Challenger.Bot:
		return "onlyBot"
	case cfg.from == "people" && c.Challenger.Bot:
		return "noBot"
	case c.Clock == nil && !cfg.untimed, c.Clock != nil && c.Clock.Days > 0:
		return "timeControl"
	case c.Clock != nil && c.Clock.Initial < cfg.minInitial:
		return "tooFast"
	case c.Clock != nil && cfg.maxInitial > 0 && c.Clock.Initial > cfg.maxInitial:
		return "tooSlow"
	}
	return ""
}

// maybeChallenge sends the next challenge to cfg.challenge when no
// challenge of ours waits, there is room for a game and games are left to
// play.
func (b *bridge) maybeChallenge(ctx context.Context) {
	if b.cfg.challenge == "" {
		return
	}
	b.mu.Lock()
	room := !b.sent && !b.stopping && len(b.running) < b.cfg.concurrency &&
		(b.cfg.games == 0 || b.ended+len(b.running) < b.cfg.games)
	if room {
		b.sent = true
	}
	b.mu.Unlock()
	if !room {
		return
	}
	clock, _ := challengeClock(b.cfg.clock)
	body := map[string]any{"rules": b.cfg.rules[0], "clock": clock, "rated": b.cfg.rated == "rated", "seat": b.cfg.seat}
	resp, err := b.request(ctx, http.MethodPost, "/api/v1/challenge/"+url.PathEscape(b.cfg.challenge), body)
	if err != nil {
		b.log.Printf("challenge %s: %v", b.cfg.challenge, err)
		b.mu.Lock()
		b.sent = false
		b.mu.Unlock()
		go func() { // try again later
			sleep(ctx, 5*time.Second)
			b.maybeChallenge(ctx)
		}()
		return
	}
	var c struct {
		ID string `json:"id"`
	}
	json.NewDecoder(resp.Body).Decode(&c)
	resp.Body.Close()
	b.log.Printf("challenged %s: challenge %s", b.cfg.challenge, c.ID)
	// A challenge declined or left unanswered frees the way after a
	// while: the next one goes out when a game starts or after a minute.
	go func() {
		sleep(ctx, time.Minute)
		b.mu.Lock()
		stale := b.sent
		b.sent = false
		b.mu.Unlock()
		if stale {
			b.maybeChallenge(ctx)
		}
	}()
}

// startGame plays game id (our seat: "south" or "north") unless it is
// played already.
func (b *bridge) startGame(ctx context.Context, id, seat string) {
	b.mu.Lock()
	if b.running[id] {
		b.mu.Unlock()
		return
	}
	b.running[id], b.sent = true, false
	last := b.cfg.games > 0 && b.ended+len(b.running) >= b.cfg.games
	b.wg.Add(1)
	b.mu.Unlock()
	if last {
		go b.leaveArena() // the arena pairs us no more
	}
	go func() {
		defer b.wg.Done()
		b.play(ctx, id, seat)
		b.mu.Lock()
		delete(b.running, id)
		b.ended++
		if b.cfg.games > 0 && b.ended >= b.cfg.games && !b.stopping {
			b.stopping = true
			close(b.done)
		}
		b.mu.Unlock()
		b.maybeChallenge(ctx)
	}()
}

// botGame is a game the bridge plays: our seat ("south" or "north"),
// whether it has a clock, and its engine process (started at the first
// gameFull).
type botGame struct {
	id, seat string
	clocked  bool
	engine   *uciProcess
	refused  int  // moves the site refused
	failed   bool // its engine failed: not used again
}

// acquire returns an engine process for a new game of rules: an idle one
// (a new game for it: ucinewgame, which also varies its play) or a new one.
func (b *bridge) acquire(rules string) (*uciProcess, error) {
	b.mu.Lock()
	var p *uciProcess
	if n := len(b.engines); n > 0 {
		p, b.engines = b.engines[n-1], b.engines[:n-1]
	}
	b.mu.Unlock()
	if p == nil {
		var err error
		if p, err = startEngine(b.cfg.engine, rulesOf("abapa")); err != nil {
			return nil, err
		}
	}
	p.send("setoption name Rules value %s", rulesOf(rules).Name())
	p.send("ucinewgame")
	p.send("isready")
	if _, err := p.expect("readyok", 10*time.Second); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// release keeps the engine of g, once its game is over, for the next game
// (at most cfg.concurrency idle), or ends it.
func (b *bridge) release(g *botGame) {
	if g.engine == nil {
		return
	}
	b.mu.Lock()
	keep := !g.failed && len(b.engines) < b.cfg.concurrency
	if keep {
		b.engines = append(b.engines, g.engine)
	}
	b.mu.Unlock()
	if !keep {
		g.engine.close()
	}
}

// play plays game id from its stream, reconnecting when it drops, until
// the game is over or ctx ends.
func (b *bridge) play(ctx context.Context, id, seat string) {
	g := &botGame{id: id, seat: seat}
	defer func() { b.release(g) }()
	over := false
	wait := b.cfg.retry
	for !over && ctx.Err() == nil {
		resync := false
		err := b.stream(ctx, "/api/v1/bot/game/stream/"+url.PathEscape(id), func(line []byte) bool {
			wait = b.cfg.retry
			over, resync = b.gameLine(ctx, g, line)
			return !resync
		})
		if resync {
			continue // the game's state again, from gameFull
		}
		var refused refusal
		if over || ctx.Err() != nil || (errors.As(err, &refused) && refused.status/100 == 4) {
			if err != nil && !over && ctx.Err() == nil {
				b.log.Printf("game %s: %v", id, err)
			}
			return
		}
		b.log.Printf("game %s: stream: %v; reconnecting in %s", id, err, wait)
		sleep(ctx, wait)
		wait = min(2*wait, 30*time.Second)
	}
}

// gameLine handles a line of g's stream: a move when it is our turn. It
// reports whether the game is over, and whether to read the stream again
// from its start (a move was refused or its answer lost).
func (b *bridge) gameLine(ctx context.Context, g *botGame, line []byte) (over, resync bool) {
	var s botGameState
	if err := json.Unmarshal(line, &s); err != nil {
		b.log.Printf("game %s: bad line %q: %v", g.id, line, err)
		return false, false
	}
	switch s.Type {
	case "gameFull":
		g.clocked = s.Clock != nil
		if g.engine == nil {
			p, err := b.acquire(s.Rules)
			if err != nil {
				b.log.Printf("game %s: the engine: %v; resigning", g.id, err)
				b.resign(ctx, g)
				return true, false
			}
			g.engine = p
		}
		if s.State == nil {
			return false, false
		}
		s = *s.State
	case "gameState":
	default:
		return false, false
	}
	if s.Status != "started" {
		b.log.Printf("game %s: over (%s), we played %s, winner %q, %d plies", g.id, s.Status, g.seat, s.Winner, len(strings.Fields(s.Moves)))
		return true, false
	}
	if s.Turn == g.seat {
		return false, b.move(ctx, g, s)
	}
	return false, false
}

// rulesOf returns the rule set named name (abapa for an unknown one: the
// site plays only rule sets the engine package knows).
func rulesOf(name string) engine.Rules {
	r, err := engine.RulesByName(name)
	if err != nil {
		r, _ = engine.RulesByName("abapa")
	}
	return r
}

// maxRefused is how many moves of a game the site may refuse before the
// bridge resigns it (an engine that insists on illegal moves).
const maxRefused = 3

// move asks the engine for its move in state s and sends it; it reports
// whether the game's state must be read again (the move was refused, or
// its answer lost). A move answered 429 or 503 is sent again after the
// Retry-After. An engine that answers nothing in time, or fails, or whose
// moves were refused maxRefused times, resigns the game.
func (b *bridge) move(ctx context.Context, g *botGame, s botGameState) bool {
	label, err := b.think(g, s)
	if err != nil {
		g.failed = true
		b.log.Printf("game %s: the engine: %v; resigning", g.id, err)
		b.resign(ctx, g)
		return false
	}
	for try := 0; ; try++ {
		err := b.post(ctx, "/api/v1/bot/game/"+url.PathEscape(g.id)+"/move/"+url.PathEscape(label), nil)
		var refused refusal
		switch {
		case err == nil:
			return false
		case errors.As(err, &refused) && refused.transient() && try < 5:
			sleep(ctx, max(refused.wait, b.cfg.retry))
			continue
		case errors.As(err, &refused) && refused.status == http.StatusConflict:
			b.log.Printf("game %s: move %s: the game changed meanwhile; reading it again", g.id, label)
			return true
		case errors.As(err, &refused) && try > 0:
			// The answer to the first try was lost: it may have been
			// stored, and this one refused as out of turn.
			b.log.Printf("game %s: move %s sent again: %v", g.id, label, err)
			return true
		case errors.As(err, &refused):
			// Refused (an illegal or late move, another turn): the site
			// stored nothing; read the game's state again.
			b.log.Printf("game %s: move %s refused: %v", g.id, label, err)
			if g.refused++; g.refused >= maxRefused {
				b.log.Printf("game %s: %d moves refused; resigning", g.id, g.refused)
				b.resign(ctx, g)
			}
			return true
		case try == 2 || ctx.Err() != nil:
			return true
		}
		sleep(ctx, b.cfg.retry) // the site out of reach: the same move again
	}
}

// think asks g's engine for its move in state s and returns its label.
func (b *bridge) think(g *botGame, s botGameState) (string, error) {
	p := g.engine
	if s.Moves == "" {
		p.send("position startpos")
	} else {
		p.send("position startpos moves %s", s.Moves)
	}
	timeout := 2*b.cfg.movetime + 5*time.Second
	if g.clocked {
		left := s.WTime
		if g.seat == "north" {
			left = s.BTime
		}
		p.send("go wtime %d btime %d winc %d binc %d", s.WTime, s.BTime, s.WInc, s.BInc)
		timeout = time.Duration(left)*time.Millisecond + 5*time.Second
	} else {
		p.send("go movetime %d", b.cfg.movetime.Milliseconds())
	}
	line, err := p.expect("bestmove", timeout)
	if err != nil {
		return "", err
	}
	f := strings.Fields(line)
	if len(f) < 2 || f[1] == "(none)" {
		return "", fmt.Errorf("it answered %q", line)
	}
	return f[1], nil
}

// resign resigns g.
func (b *bridge) resign(ctx context.Context, g *botGame) {
	if err := b.post(ctx, "/api/v1/bot/game/"+url.PathEscape(g.id)+"/resign", nil); err != nil {
		b.log.Printf("game %s: resign: %v", g.id, err)
	}
}
