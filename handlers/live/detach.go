package live

import (
	"bytes"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"

	"oware/handlers/core"
)

// A game's event stream over HTTP/1 is detached from net/http once its
// first event is written (http.Hijacker): live then writes the frames to
// the connection itself, from the game's goroutine, so that an idle
// stream holds no handler goroutine, no request, no echo context and no
// net/http buffers (issue 37: 10,000 spectators of one game, memory per
// watcher). What remains per stream is the connection and its watcher:
// on Linux one epoll poller sees every detached stream's client leave
// (closewatch_linux.go); elsewhere each stream has a goroutine blocked in
// a read (closewatch_other.go).

// detached is a stream's connection taken from net/http.
type detached struct {
	conn net.Conn
	raw  syscall.RawConn // nil: every write goes through finish's goroutine
	mu   sync.Mutex
	last int // the last version written
	// slow is set while a goroutine (finish) writes what the socket did
	// not take at once; pending is the latest frame that came meanwhile
	// (a slow stream skips the frames it missed rather than queue them).
	slow    bool
	pending *frame
	sent    bool // an event was written since the last ping
	// end runs once the connection is closed (detach); shut tells that
	// it was, once.
	end  func()
	shut atomic.Bool
	// token names the stream in the close poller (closewatch_linux.go),
	// 0 when it has none; the poller's lock guards it.
	token uint64
}

// keepAliveEvent is the comment an idle stream sends every keepAlive.
var keepAliveEvent = []byte(": ping\n\n")

// setEventHeaders sets the headers of an event stream on h.
func setEventHeaders(h http.Header) {
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("X-Accel-Buffering", "no")
}

// detach takes c's connection from net/http and writes the stream's head
// (status, c's headers, the retry delay, first) to it; its body ends with
// the connection (Connection: close). It returns nil, having written
// nothing, when the connection cannot be taken (HTTP/2, a test
// recorder). end runs once the connection is closed, by either side.
func detach(c echo.Context, first []byte, last int, end func()) *detached {
	if c.Request().ProtoMajor != 1 {
		return nil
	}
	hdr := c.Response().Header()
	setEventHeaders(hdr)
	hdr.Set(echo.HeaderConnection, "close")
	conn, _, err := http.NewResponseController(c.Response()).Hijack()
	if err != nil {
		return nil
	}
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\n")
	_ = hdr.Write(&head)
	head.WriteString("\r\nretry: 2000\n\n")
	head.Write(first)
	return newDetached(conn, head.Bytes(), last, end)
}

// newDetached returns the detached stream over conn, which has sent
// version last, having written head to it; end runs once conn is closed,
// by either side.
func newDetached(conn net.Conn, head []byte, last int, end func()) *detached {
	d := &detached{conn: conn, last: last, end: end}
	if sc, ok := conn.(syscall.Conn); ok {
		d.raw, _ = sc.SyscallConn()
	}
	watchClose(d)
	d.mu.Lock()
	d.write(head)
	d.mu.Unlock()
	return d
}

// readUntilClosed sees d's client leave with a read (the goroutine of
// the streams the close poller does not watch): it reads what the client
// sends until the connection ends.
func (d *detached) readUntilClosed() {
	var b [1]byte
	for {
		if _, err := d.conn.Read(b[:]); err != nil {
			break
		}
	}
	d.gone()
}

// gone closes the connection, whose client left, and runs end, once (the
// caller holds no lock of live's).
func (d *detached) gone() {
	if d.shut.CompareAndSwap(false, true) {
		unwatchClose(d)
		d.conn.Close()
		d.end()
	}
}

// close closes the connection from the server's side (a write failed,
// the game is no longer followed) and runs end once, in a goroutine of
// its own: the caller may hold live's locks, which end takes.
func (d *detached) close() {
	if d.shut.CompareAndSwap(false, true) {
		unwatchClose(d)
		d.conn.Close()
		go d.end()
	}
}

// deliver writes what f is for the stream (frame.next), at once when the
// socket takes it, else from a goroutine of its own.
// f is shared by the streams of a kind and never changed.
func (d *detached) deliver(f *frame) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.slow {
		d.pending = f
		return
	}
	if b := f.next(d.last); b != nil {
		d.last = max(d.last, f.version)
		d.sent = true
		d.write(b)
	}
}

// ping writes the keep-alive comment to an idle stream, one that got no
// event since the last ping (the game's goroutine pings every keepAlive,
// so a stream is silent less than twice keepAlive), unless a write is
// under way: while a game is played its streams get no pings, which
// would be as many writes as an event's, each in the way of the next
// move's.
func (d *detached) ping() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sent {
		d.sent = false
		return
	}
	if !d.slow {
		d.write(keepAliveEvent)
	}
}

// write writes b without waiting (d.mu held): what the socket does not
// take at once is written by finish. An error closes the connection.
func (d *detached) write(b []byte) {
	n := 0
	var err error
	if d.raw != nil {
		n, err = writeNow(d.raw, b)
	}
	if err != nil {
		d.close()
		return
	}
	if n < len(b) {
		d.slow = true
		go d.finish(b[n:])
	}
}

// finish writes rest within core.WriteTimeout (a client that stops
// reading is cut off), then the frame that came meanwhile, if any.
func (d *detached) finish(rest []byte) {
	for rest != nil {
		_ = d.conn.SetWriteDeadline(time.Now().Add(core.WriteTimeout))
		if _, err := d.conn.Write(rest); err != nil {
			d.close()
			return // slow stays set: nothing more is written
		}
		_ = d.conn.SetWriteDeadline(time.Time{})
		d.mu.Lock()
		rest = nil
		if f := d.pending; f != nil {
			d.pending = nil
			if rest = f.next(d.last); rest != nil {
				d.last = max(d.last, f.version)
			}
		}
		d.slow = rest != nil
		d.mu.Unlock()
	}
}

// delivery is a frame for a detached stream.
type delivery struct {
	d *detached
	f *frame
}

// deliverAll delivers each frame of out, in parallel over the cores when
// there are many.
func deliverAll(out []delivery) {
	n := min(runtime.GOMAXPROCS(0), len(out)/256)
	if n <= 1 {
		for _, o := range out {
			o.d.deliver(o.f)
		}
		return
	}
	var wg sync.WaitGroup
	for i := range n {
		part := out[i*len(out)/n : (i+1)*len(out)/n]
		wg.Go(func() {
			for _, o := range part {
				o.d.deliver(o.f)
			}
		})
	}
	wg.Wait()
}
