package live

import (
	"bytes"
	"net"
	"net/http"
	"runtime"
	"sync"
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
// watcher). What remains per stream is the connection, its watcher and
// one goroutine blocked in a read, which sees the client leave.

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
	d := &detached{conn: conn, last: last}
	if sc, ok := conn.(syscall.Conn); ok {
		d.raw, _ = sc.SyscallConn()
	}
	go func() {
		var b [1]byte
		for {
			if _, err := conn.Read(b[:]); err != nil {
				break
			}
		}
		conn.Close()
		end()
	}()
	d.mu.Lock()
	d.write(head.Bytes())
	d.mu.Unlock()
	return d
}

// deliver writes what f is for the stream (frame.next), at once when the
// socket takes it, else from a goroutine of its own.
func (d *detached) deliver(f frame) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.slow {
		d.pending = &f
		return
	}
	if b := f.next(d.last); b != nil {
		d.last = max(d.last, f.version)
		d.write(b)
	}
}

// ping writes the keep-alive comment, unless a write is under way.
func (d *detached) ping() {
	d.mu.Lock()
	defer d.mu.Unlock()
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
		d.conn.Close()
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
			d.conn.Close()
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
	f frame
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
