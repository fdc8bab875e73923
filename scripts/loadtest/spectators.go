package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
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
	version, err := strconv.Atoi(regexp.MustCompile(`[?&]v=(\d+)`).FindStringSubmatch(events)[1])
	if err != nil {
		return err
	}
	before := rss(o.server)
	w := newWatchers(version, o.moves)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := w.open(ctx, events, o.spectators); err != nil {
		return err
	}
	time.Sleep(2 * time.Second) // idle
	after := rss(o.server)
	fmt.Printf("%s: %d spectators of one game\n", o.base, o.spectators)
	if o.server != 0 {
		fmt.Printf("server memory: %.1f MB before, %.1f MB with the idle streams: %.1f KB per stream\n",
			float64(before)/1e6, float64(after)/1e6, float64(after-before)/1e3/float64(o.spectators))
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
	if o.server != 0 {
		// The streams are still open: what the moves' frames and writes
		// left behind counts too.
		moved := rss(o.server)
		fmt.Printf("server memory after the moves: %.1f MB: %.1f KB per stream\n",
			float64(moved)/1e6, float64(moved-before)/1e3/float64(o.spectators))
	}
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
// size of its events. The readers only add to atomic counters (no lock
// that 10,000 of them would queue on at each move): per version, how
// many got it and the first and last arrival; per reader, the sizes of
// its events.
type watchers struct {
	start   time.Time  // arrivals are kept as nanoseconds since
	base    int        // the version of arrived[0]
	arrived []arrivals // by version - base; later versions are not timed
	failed  atomic.Int32
	deltas  atomic.Int64 // events "move" (only what changed)
	mu      sync.Mutex   // guards readers (appended to once per reader)
	readers []*reader
}

// arrivals are the arrivals of one version.
type arrivals struct {
	n           atomic.Int32
	first, last atomic.Int64 // ns since watchers.start; first 0: none yet
}

// reader is what one stream's reader records: the bytes of each event
// with an id, as sent (its own lock, which only eventSizes shares).
type reader struct {
	mu    sync.Mutex
	sizes []int
}

// newWatchers returns the record of moves versions after version.
func newWatchers(version, moves int) *watchers {
	return &watchers{start: time.Now(), base: version, arrived: make([]arrivals, moves+2)}
}

// note records that a reader got version v now.
func (w *watchers) note(v int) {
	i := v - w.base
	if i < 0 || i >= len(w.arrived) {
		return
	}
	a := &w.arrived[i]
	t := max(1, int64(time.Since(w.start)))
	for f := a.first.Load(); f == 0 || t < f; f = a.first.Load() {
		if a.first.CompareAndSwap(f, t) {
			break
		}
	}
	for l := a.last.Load(); t > l; l = a.last.Load() {
		if a.last.CompareAndSwap(l, t) {
			break
		}
	}
	a.n.Add(1)
}

// open opens n event streams of rawURL, each over a connection of its
// own, and reads them until ctx is done: with epoll where there is one
// (spectators_linux.go: the goroutines of the cores each wait for the
// streams of their own epoll set, and read each stream that has bytes
// once), else with a goroutine per stream; so that the readers cost the
// shared cores little beside the server. A goroutine per stream, as
// before, cost about as much CPU a move as the server (two reads an
// event, the second one only to find the socket empty, and the
// scheduling of 10,000 goroutines); whichever way they are read, a
// stream notes an event's id as soon as the read that brought it returns.
func (w *watchers) open(ctx context.Context, rawURL string, n int) error {
	poll, err := newPoller(ctx, w)
	if err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	var opening sync.WaitGroup
	for range n {
		opening.Go(func() {
			s, err := openStream(ctx, rawURL)
			if err != nil {
				w.failed.Add(1)
				return
			}
			p := &parser{rd: w.newReader()}
			if poll != nil && s.raw {
				if err := poll.add(s, p); err != nil {
					w.failed.Add(1)
				}
				return
			}
			go w.follow(s, p)
		})
	}
	opening.Wait()
	if f := w.failed.Load(); f > 0 {
		return fmt.Errorf("%d of %d streams failed to open", f, n)
	}
	return nil
}

// newReader returns a new stream's record of its events' sizes.
func (w *watchers) newReader() *reader {
	rd := &reader{}
	w.mu.Lock()
	w.readers = append(w.readers, rd)
	w.mu.Unlock()
	return rd
}

// follow reads stream s with a goroutine of its own and a 4 KB buffer
// until it ends (or ctx, which closes its connection, is done).
func (w *watchers) follow(s *stream, p *parser) {
	defer s.conn.Close()
	buf := make([]byte, 4<<10)
	for {
		n, err := s.body.Read(buf)
		p.feed(w, buf[:n])
		if err != nil {
			return
		}
	}
}

// parser reads a stream's events from its bytes, in whatever pieces they
// come: it notes the id of each event at once and its size once it ends.
type parser struct {
	rd             *reader
	size           int  // the bytes of the event so far
	delta, counted bool // it is an event "move"; it has an id
	head           [16]byte
	n              int // the bytes of the current line so far (its first 16 in head)
}

// feed reads b, the next bytes of the stream.
func (p *parser) feed(w *watchers, b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		part := b
		if i >= 0 {
			part = b[:i]
		}
		if p.n < len(p.head) {
			copy(p.head[p.n:], part)
		}
		p.n += len(part)
		p.size += len(part)
		if i < 0 {
			return
		}
		p.size++ // the newline
		b = b[i+1:]
		p.line(w)
		p.n = 0
	}
}

// line reads the line that just ended: an event's id, its name, or the
// blank line that ends it.
func (p *parser) line(w *watchers) {
	line := p.head[:min(p.n, len(p.head))]
	switch {
	case p.n == 0:
		if p.counted {
			p.rd.mu.Lock()
			p.rd.sizes = append(p.rd.sizes, p.size)
			p.rd.mu.Unlock()
			if p.delta {
				w.deltas.Add(1)
			}
		}
		p.size, p.delta, p.counted = 0, false, false
	case p.n <= len(p.head) && bytes.HasPrefix(line, []byte("id: ")):
		v := 0
		for _, c := range line[len("id: "):] {
			v = v*10 + int(c-'0')
		}
		w.note(v)
		p.counted = true
	case string(line) == "event: move":
		p.delta = true
	}
}

// stream is an event stream's connection once its answer's head is read:
// body reads what follows, raw tells that this is the connection's bytes
// as they come (a body to the connection's end, not chunked), buffered in
// body.
type stream struct {
	conn net.Conn
	body io.Reader
	buf  *bufio.Reader
	raw  bool
}

// openStream sends GET rawURL on a connection of its own and returns the
// stream of its 200 answer; the connection closes when ctx is done.
func openStream(ctx context.Context, rawURL string) (*stream, error) {
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
	raw := resp.ContentLength < 0 && len(resp.TransferEncoding) == 0
	if raw {
		return &stream{conn: conn, body: br, buf: br, raw: true}, nil
	}
	return &stream{conn: conn, body: resp.Body, buf: br}, nil
}

// eventSizes returns the median and the largest size of the events with
// an id the spectators got, in bytes, how many there were and how many of
// them held only what changed (event "move").
func (w *watchers) eventSizes() (p50, largest, n, deltas int) {
	w.mu.Lock()
	var s []int
	for _, rd := range w.readers {
		rd.mu.Lock()
		s = append(s, rd.sizes...)
		rd.mu.Unlock()
	}
	w.mu.Unlock()
	if len(s) == 0 {
		return 0, 0, 0, 0
	}
	slices.Sort(s)
	return s[len(s)/2], s[len(s)-1], len(s), int(w.deltas.Load())
}

// wait waits until n spectators got version (or the timeout) and returns
// the first and the last arrival and how many got it.
func (w *watchers) wait(version, n int, timeout time.Duration) (first, last time.Time, got int) {
	i := version - w.base
	if i < 0 || i >= len(w.arrived) {
		return first, last, 0
	}
	a := &w.arrived[i]
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if got = int(a.n.Load()); got >= n {
			at := func(ns int64) time.Time { return w.start.Add(time.Duration(ns)) }
			return at(a.first.Load()), at(a.last.Load()), got
		}
		time.Sleep(time.Millisecond)
	}
	return first, last, got
}
