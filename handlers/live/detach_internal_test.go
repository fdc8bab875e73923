package live

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
)

// TestDetachedSlowAndHangup: of the detached streams of one game, one
// whose client hangs up while idle is dropped from the hub (its end runs
// once); one whose client stops reading holds up none of the others,
// which each get every version (5, 7, 9: apart, so each is the whole
// panel, 2 MB, more than the sockets hold) while it takes none past the
// first; once its client hangs up too, it is dropped as well.
func TestDetachedSlowAndHangup(t *testing.T) {
	b := &chanBroker{ch: make(chan int, 1)}
	panel := bytes.Repeat([]byte("x"), 2<<20)
	render := func(g *game.Game, kinds []core.PanelKind) (map[core.PanelKind][]byte, error) {
		out := map[core.PanelKind][]byte{}
		for _, k := range kinds {
			out[k] = panel
		}
		return out, nil
	}
	l := newHub(b, slog.New(slog.DiscardHandler), nil, render)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()

	type stream struct {
		w      *watcher
		d      *detached
		client net.Conn
		ended  chan struct{} // closed by the stream's end
	}
	open := func() *stream {
		t.Helper()
		client, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Close() })
		server, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		_ = server.(*net.TCPConn).SetWriteBuffer(64 << 10)
		_ = client.(*net.TCPConn).SetReadBuffer(64 << 10)
		s := &stream{w: &watcher{PanelKind: core.PanelKind{Lang: "en", Seat: engine.Nobody}}, client: client, ended: make(chan struct{})}
		unwatch := l.watch("g", s.w)
		l.ready("g", s.w, engine.Nobody)
		ends := 0
		d := newDetached(server, []byte("HTTP/1.1 200 OK\r\n\r\n"), 0, func() {
			unwatch()
			if ends++; ends == 1 {
				close(s.ended)
			} else {
				t.Errorf("a stream's end ran %d times", ends)
			}
		})
		l.detached(s.w, d)
		s.d = d
		return s
	}
	watching := func(s *stream) bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		gw := l.games["g"]
		if gw == nil {
			return false
		}
		_, ok := gw.watchers[s.w]
		return ok
	}
	dropped := func(s *stream, what string) {
		t.Helper()
		select {
		case <-s.ended:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the stream did not end within 10 s", what)
		}
		if watching(s) {
			t.Fatalf("%s: the stream ended but is still watching", what)
		}
	}

	hangup, slow := open(), open()
	var fast []*stream
	got := make(chan string, 64)
	for range 3 {
		s := open()
		fast = append(fast, s)
		go func() {
			r := bufio.NewReaderSize(s.client, 64<<10)
			for {
				line, err := r.ReadSlice('\n')
				if err == bufio.ErrBufferFull {
					continue
				}
				if err != nil {
					return
				}
				if id, ok := strings.CutPrefix(string(line), "id: "); ok {
					got <- strings.TrimSpace(id)
				}
			}
		}()
	}

	hangup.client.Close()
	dropped(hangup, "the client hung up")
	for _, s := range append(fast, slow) {
		if !watching(s) {
			t.Fatal("a stream whose client did not hang up was dropped")
		}
	}

	for _, v := range []int{5, 7, 9} {
		l.mu.Lock()
		l.games["g"].fresh = &game.Game{Head: game.Head{ID: "g", Version: v}}
		l.mu.Unlock()
		b.ch <- v
		want := map[string]int{}
		for range fast {
			select {
			case id := <-got:
				want[id]++
			case <-time.After(20 * time.Second):
				t.Fatalf("version %d: the fast streams got %v within 20 s, want it 3 times", v, want)
			}
		}
		if want[strconv.Itoa(v)] != 3 {
			t.Fatalf("version %d: the fast streams got %v", v, want)
		}
	}
	if !watching(slow) {
		t.Fatal("the slow stream was dropped, its client still there")
	}
	// The slow stream's pending event is replaced after (or while) the
	// fast ones are written: wait for it.
	var stuck bool
	var pendingVersion int
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		slow.d.mu.Lock()
		stuck, pendingVersion = slow.d.slow, 0
		if slow.d.pending != nil {
			pendingVersion = slow.d.pending.version
		}
		slow.d.mu.Unlock()
		if stuck && pendingVersion == 9 || time.Now().After(end) {
			break
		}
	}
	if !stuck || pendingVersion != 9 {
		t.Fatalf("the slow stream: writing %v, pending version %d; want it still writing version 5, 9 to come", stuck, pendingVersion)
	}
	slow.client.Close()
	dropped(slow, "the slow client hung up")
	for _, s := range fast {
		if !watching(s) {
			t.Fatal("a fast stream was dropped")
		}
	}
}

// TestPingOnlyIdleStreams: the keep-alive comment goes to a stream that
// got no event since the last ping, not to one that did (while a game is
// played, its streams get the moves and no pings in between): of two
// streams pinged twice, with an event before each ping to the first, the
// second reads two pings and the first only the two events; pinged once
// more with no event since, the first reads a ping before its next event.
func TestPingOnlyIdleStreams(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	open := func() (*detached, *bufio.Reader) {
		t.Helper()
		client, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		server, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		d := newDetached(server, nil, 0, func() {})
		t.Cleanup(func() { client.Close(); d.close() })
		_ = client.SetReadDeadline(time.Now().Add(20 * time.Second)) // a busy machine
		return d, bufio.NewReader(client)
	}
	event := func(v int) *frame {
		return &frame{version: v, data: []byte("id: " + strconv.Itoa(v) + "\n\n")}
	}
	read := func(r *bufio.Reader, want string) {
		t.Helper()
		got := make([]byte, len(want))
		if _, err := io.ReadFull(r, got); err != nil || string(got) != want {
			t.Fatalf("read %q (%v), want %q", got, err, want)
		}
	}
	played, playedReads := open()
	idle, idleReads := open()
	for v := 1; v <= 2; v++ {
		played.deliver(event(v))
		played.ping()
		idle.ping()
	}
	read(idleReads, ": ping\n\n: ping\n\n")
	played.ping()
	played.deliver(event(3))
	read(playedReads, "id: 1\n\nid: 2\n\n: ping\n\nid: 3\n\n")
}
