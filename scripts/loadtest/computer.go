package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"oware/engine"
)

// runComputer is the computer mode: -workers players each play -games
// games against the computer at -level through the API (random legal
// moves, South), for at most -duration, and it prints the time from each
// move's answer until the computer's reply shows: the reply time a player
// sees, without the minimum thinking time unless -think; the replies per
// second; and the players' own requests per second (their load on the
// site beside the replies'). With -wait stream (the default) a player
// waits as a browser does, on the game's event stream (the one its game
// page connects to), and reads the game once when a new version comes;
// with -wait poll it asks GET /api/v1/games/{id} every -poll, as a
// program without a stream would.
func runComputer(ctx context.Context, o options) error {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	a := &api{client: &http.Client{Timeout: 30 * time.Second}, base: o.base}
	var mu sync.Mutex
	var replies []time.Duration
	var requests atomic.Int64
	var wg sync.WaitGroup
	var firstErr error
	began := time.Now()
	for range o.workers {
		wg.Go(func() {
			p := &computerPlayer{a: a, o: o, requests: &requests}
			for range o.games {
				got, err := p.play(ctx)
				if ctx.Err() != nil {
					err = nil // the run is over
				}
				mu.Lock()
				replies = append(replies, got...)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				if err != nil || ctx.Err() != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	slices.Sort(replies)
	took := time.Since(began).Seconds()
	wait := "the game's event stream"
	if o.wait == "poll" {
		wait = fmt.Sprintf("a poll every %v", o.poll)
	}
	fmt.Printf("%s, level %d, rules %s, %d players x %d games, %.0fs, minimum thinking time %v, waiting on %s\n",
		o.base, o.level, o.rules.Name(), o.workers, o.games, took, o.think, wait)
	fmt.Printf("computer replies: %d (%.2f/s), p50 %v, p99 %v, max %v; the players' requests %.0f/s\n", len(replies), float64(len(replies))/took,
		percentile(replies, 0.50), percentile(replies, 0.99), percentile(replies, 1), float64(requests.Load())/took)
	return firstErr
}

// computerPlayer is one player of the computer mode.
type computerPlayer struct {
	a        *api
	o        options
	requests *atomic.Int64 // requests sent, streams opened and pages read included
}

// call is a.call, counted.
func (p *computerPlayer) call(ctx context.Context, method, path, token string, body, out any, want int) error {
	p.requests.Add(1)
	return p.a.call(ctx, method, path, token, body, out, want)
}

// play plays one game against the computer and returns its reply times.
func (p *computerPlayer) play(ctx context.Context) ([]time.Duration, error) {
	o := p.o
	var created struct{ ID, Token string }
	body := map[string]any{"rules": o.rules.Name(), "seat": "south",
		"opponent": map[string]any{"computer": o.level, "instant": !o.think}}
	if err := p.call(ctx, "POST", "/api/v1/games", "", body, &created, http.StatusCreated); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // closes the stream
	var s *versions
	if o.wait != "poll" {
		// A browser opens the game's page, then its event stream.
		p.requests.Add(2)
		events, err := watchURL(ctx, p.a, created.ID)
		if err != nil {
			return nil, err
		}
		if s, err = followVersions(ctx, events); err != nil {
			return nil, err
		}
	}
	var out []time.Duration
	path := "/api/v1/games/" + created.ID
	var g struct {
		Status, Position string
		Version          int
	}
	if err := p.call(ctx, "GET", path, "", nil, &g, http.StatusOK); err != nil {
		return out, err
	}
	for range maxPlies {
		if g.Status == "over" {
			return out, nil
		}
		pos, err := o.rules.ParsePosition(g.Position)
		if err != nil {
			return out, err
		}
		if pos.ToMove == engine.South {
			legal := o.rules.LegalMoves(pos).Pits()
			if err := p.call(ctx, "POST", path+"/moves", created.Token, map[string]string{"pit": engine.Label(legal[rand.IntN(len(legal))])},
				&g, http.StatusOK); err != nil {
				return out, err
			}
			q, err := o.rules.ParsePosition(g.Position)
			if err != nil {
				return out, err
			}
			if g.Status == "over" || q.ToMove == engine.South {
				continue // over, or the player moves again (warri)
			}
		}
		// The computer's turn: it opens, or it replies to the move whose
		// answer just came.
		sent, after := time.Now(), g.Version
		if s != nil {
			at, err := s.after(ctx, after)
			if err != nil {
				return out, err
			}
			out = append(out, max(0, at.Sub(sent)))
			if err := p.call(ctx, "GET", path, "", nil, &g, http.StatusOK); err != nil {
				return out, err
			}
			continue
		}
		for {
			if err := p.call(ctx, "GET", path, "", nil, &g, http.StatusOK); err != nil {
				return out, err
			}
			if g.Version > after {
				out = append(out, time.Since(sent))
				break
			}
			// 10 ms by default: 20 players asking every 2 ms kept the
			// server busy with 10,000 requests a second of their own.
			time.Sleep(o.poll)
		}
	}
	return out, nil
}

// versions follows a game's event stream: the last version it sent and
// when it came.
type versions struct {
	mu     sync.Mutex
	last   int
	at     time.Time
	err    error         // the stream's end
	signal chan struct{} // a version came or the stream ended (1 buffered)
}

// followVersions opens the event stream at rawURL and follows its
// versions (its events' ids) until ctx is done.
func followVersions(ctx context.Context, rawURL string) (*versions, error) {
	stream, err := openStream(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	s := &versions{signal: make(chan struct{}, 1)}
	go func() {
		defer stream.conn.Close()
		r := bufio.NewReaderSize(stream.body, 4<<10)
		for {
			line, err := r.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				continue // a long data line
			}
			if err != nil {
				s.mu.Lock()
				s.err = fmt.Errorf("event stream: %w", err)
				s.mu.Unlock()
				s.kick()
				return
			}
			if id, ok := bytes.CutPrefix(line, []byte("id: ")); ok {
				v, _ := strconv.Atoi(string(bytes.TrimSpace(id)))
				now := time.Now()
				s.mu.Lock()
				if v > s.last {
					s.last, s.at = v, now
				}
				s.mu.Unlock()
				s.kick()
			}
		}
	}()
	return s, nil
}

func (s *versions) kick() {
	select {
	case s.signal <- struct{}{}:
	default:
	}
}

// after waits for a version above v and returns when the stream got it.
func (s *versions) after(ctx context.Context, v int) (time.Time, error) {
	timeout := time.NewTimer(30 * time.Second)
	defer timeout.Stop()
	for {
		s.mu.Lock()
		last, at, err := s.last, s.at, s.err
		s.mu.Unlock()
		if last > v {
			return at, nil
		}
		if err != nil {
			return time.Time{}, err
		}
		select {
		case <-s.signal:
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-timeout.C:
			return time.Time{}, fmt.Errorf("no version after %d on the event stream within 30 s", v)
		}
	}
}
