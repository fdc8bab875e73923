package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// runSpectators is the spectators mode: many event streams watch a game
// while a player moves; each move is timed from its answer to the last
// spectator that got it.
func runSpectators(ctx context.Context, o options) error {
	a := &api{client: &http.Client{Timeout: 10 * time.Second}, base: o.base}
	mv, err := newMover(o.base)
	if err != nil {
		return err
	}
	defer mv.close()
	t, err := a.newTable(ctx, o.rules)
	if err != nil {
		return err
	}
	events, err := watchURL(ctx, a, t.id)
	if err != nil {
		return err
	}
	before := rss(o.server)
	w := &watchers{arrived: map[int][]time.Time{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var connected sync.WaitGroup
	for range o.spectators {
		connected.Add(1)
		go w.follow(ctx, events, &connected)
	}
	connected.Wait()
	if n := w.failed.Load(); n > 0 {
		return fmt.Errorf("%d of %d streams failed to open", n, o.spectators)
	}
	time.Sleep(2 * time.Second) // idle
	after := rss(o.server)
	fmt.Printf("%s: %d spectators of one game\n", o.base, o.spectators)
	if o.server != 0 {
		fmt.Printf("server memory: %.1f MB before, %.1f MB with the idle streams: %.1f KB per stream\n",
			float64(before)/1e6, float64(after)/1e6, float64(after-before)/1e3/float64(o.spectators))
	}

	version, err := strconv.Atoi(regexp.MustCompile(`[?&]v=(\d+)`).FindStringSubmatch(events)[1])
	if err != nil {
		return err
	}
	keep := newKeeper(o.rules, false)
	var firsts, lasts []time.Duration
	for range o.moves {
		p, err := o.rules.ParsePosition(t.state.Position)
		if err != nil {
			return err
		}
		pit, ok := keep.choose(p)
		if !ok || t.state.Status == "over" {
			break
		}
		version++
		if _, err := mv.move(ctx, t, p, pit); err != nil {
			return err
		}
		acked := time.Now()
		first, last, got := w.wait(version, o.spectators, 10*time.Second)
		if got < o.spectators {
			return fmt.Errorf("version %d reached %d of %d spectators within 10 s", version, got, o.spectators)
		}
		firsts, lasts = append(firsts, max(0, first.Sub(acked))), append(lasts, max(0, last.Sub(acked)))
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Printf("after the move's answer, %d moves: first spectator p50 %v; last spectator p50 %v, p90 %v, max %v\n",
		len(lasts), median(firsts), median(lasts), percentile(lasts, 0.9), percentile(lasts, 1))
	p50, largest, n, deltas := w.eventSizes()
	fmt.Printf("event bytes per move and spectator: p50 %d, max %d (%d events, %d of them only what changed)\n", p50, largest, n, deltas)
	return nil
}

// watchURL returns the URL of the spectators' event stream of game id, read
// from the game page a visitor without a seat gets.
func watchURL(ctx context.Context, a *api, id string) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", a.base+"/en/games/"+id, nil)
	resp, err := a.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`sse-connect="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		return "", fmt.Errorf("the game page has no event stream")
	}
	return a.base + strings.ReplaceAll(string(m[1]), "&amp;", "&"), nil
}

// watchers records when each version reached the spectators, and the
// size of its event.
type watchers struct {
	mu      sync.Mutex
	arrived map[int][]time.Time // arrival times by version
	sizes   []int               // bytes of each event with an id, as sent
	deltas  int                 // how many of them were "move" (what changed)
	failed  atomic.Int32
}

// follow reads one event stream until ctx is done: over a connection of
// its own, with a 4 KB buffer and no goroutine but its own, so that the
// readers cost the shared cores little beside the server.
func (w *watchers) follow(ctx context.Context, rawURL string, connected *sync.WaitGroup) {
	body, err := openStream(ctx, rawURL)
	if err != nil {
		w.failed.Add(1)
		connected.Done()
		return
	}
	defer body.Close()
	connected.Done()
	r := bufio.NewReaderSize(body, 4<<10)
	size, delta, counted := 0, false, false
	for {
		line, err := r.ReadSlice('\n')
		size += len(line)
		if err == bufio.ErrBufferFull {
			continue // a long data line: only its size counts
		}
		if err != nil {
			return
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		if id, ok := bytes.CutPrefix(line, []byte("id: ")); ok {
			now := time.Now()
			v, _ := strconv.Atoi(string(id))
			w.mu.Lock()
			w.arrived[v] = append(w.arrived[v], now)
			w.mu.Unlock()
			counted = true
		}
		delta = delta || string(line) == "event: move"
		if len(line) == 0 {
			if counted {
				w.mu.Lock()
				w.sizes = append(w.sizes, size)
				if delta {
					w.deltas++
				}
				w.mu.Unlock()
			}
			size, delta, counted = 0, false, false
		}
	}
}

// openStream sends GET rawURL on a connection of its own and returns the
// body of its 200 answer (chunked or to the connection's end), which
// closes the connection; the connection closes when ctx is done.
func openStream(ctx context.Context, rawURL string) (io.ReadCloser, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	context.AfterFunc(ctx, func() { conn.Close() })
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", u.RequestURI(), u.Host)
	br := bufio.NewReaderSize(conn, 4<<10)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		conn.Close()
		return nil, fmt.Errorf("stream: %v %v", resp, err)
	}
	return resp.Body, nil
}

// eventSizes returns the median and the largest size of the events with
// an id the spectators got, in bytes, how many there were and how many of
// them held only what changed (event "move").
func (w *watchers) eventSizes() (p50, largest, n, deltas int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.sizes) == 0 {
		return 0, 0, 0, 0
	}
	s := slices.Clone(w.sizes)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)-1], len(s), w.deltas
}

// wait waits until n spectators got version (or the timeout) and returns
// the first and the last arrival and how many got it.
func (w *watchers) wait(version, n int, timeout time.Duration) (first, last time.Time, got int) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		got = len(w.arrived[version])
		if got >= n {
			times := w.arrived[version]
			first, last = times[0], times[0]
			for _, t := range times {
				first, last = minTime(first, t), maxTime(last, t)
			}
			w.mu.Unlock()
			return first, last, got
		}
		w.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	return first, last, got
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
