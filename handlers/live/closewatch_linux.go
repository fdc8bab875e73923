//go:build linux

package live

import (
	"log/slog"
	"sync"

	"golang.org/x/sys/unix"
)

// One epoll poller sees the client of every detached stream leave, in
// place of a goroutine per stream blocked in a read (with 10,000 idle
// streams their stacks took 35.8 MB, issue 37). Each stream's socket is
// in the poller's epoll set, one-shot and level-triggered, for its hang-up
// (EPOLLRDHUP: the client closed or shut its side; EPOLLHUP, EPOLLERR:
// the connection is gone) and nothing else: what a client sends on an
// event stream is never read. The socket is in the runtime's own poller
// too, which the writes use; a socket in two epoll sets gets its events
// in both.

// closeEvents is what the poller waits for on a stream's socket.
const closeEvents = unix.EPOLLRDHUP | unix.EPOLLHUP | unix.EPOLLERR | unix.EPOLLONESHOT

// closePoller is the epoll set of the detached streams and their tokens
// (the epoll data of a socket: a number never reused while the process
// lives, rather than its descriptor, which a closed connection's
// successor can get).
type closePoller struct {
	epfd    int
	mu      sync.Mutex
	streams map[uint64]*detached // by token
	next    uint64               // the last token given
	broken  bool                 // epoll_wait failed: the streams read again
}

var (
	pollerOnce sync.Once
	poller     *closePoller // nil when epoll is not to be had
)

// thePoller returns the close poller, starting it on the first call; nil
// when the epoll set cannot be made.
func thePoller() *closePoller {
	pollerOnce.Do(func() {
		fd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
		if err != nil {
			slog.Warn("live: no epoll set, a goroutine per detached stream", "err", err)
			return
		}
		poller = &closePoller{epfd: fd, streams: map[uint64]*detached{}}
		go poller.run()
	})
	return poller
}

// watchClose has d's hang-up seen (d.gone): by the poller, or by a
// goroutine reading d (a connection without a descriptor, no epoll).
func watchClose(d *detached) {
	if d.raw == nil || !thePoller().add(d) {
		go d.readUntilClosed()
	}
}

// add puts d's socket in the epoll set and reports whether it is there.
func (p *closePoller) add(d *detached) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	if p.broken {
		p.mu.Unlock()
		return false
	}
	p.next++
	tok := p.next
	d.token = tok
	p.streams[tok] = d
	p.mu.Unlock()
	ev := unix.EpollEvent{Events: closeEvents, Fd: int32(uint32(tok)), Pad: int32(uint32(tok >> 32))}
	var cerr error
	err := d.raw.Control(func(fd uintptr) { cerr = unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, int(fd), &ev) })
	if err == nil && cerr == nil {
		return true
	}
	p.mu.Lock()
	delete(p.streams, tok)
	d.token = 0
	p.mu.Unlock()
	return false
}

// unwatchClose takes d out of the poller, before its connection closes.
func unwatchClose(d *detached) {
	if d.raw == nil {
		return // never in the poller
	}
	p := thePoller()
	if p == nil {
		return
	}
	p.mu.Lock()
	tok := d.token
	d.token = 0
	delete(p.streams, tok)
	p.mu.Unlock()
	if tok != 0 {
		// (closing the socket would take it out of the set too)
		_ = d.raw.Control(func(fd uintptr) { _ = unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, int(fd), nil) })
	}
}

// run waits for hang-ups and ends their streams, one after the other.
func (p *closePoller) run() {
	events := make([]unix.EpollEvent, 256)
	for {
		n, err := unix.EpollWait(p.epfd, events, -1)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			p.fail(err)
			return
		}
		for _, ev := range events[:n] {
			tok := uint64(uint32(ev.Fd)) | uint64(uint32(ev.Pad))<<32
			p.mu.Lock()
			d := p.streams[tok]
			p.mu.Unlock()
			if d != nil {
				d.gone() // (takes it out of streams)
			}
		}
	}
}

// fail hands the streams over to goroutines that read them, and the
// streams to come too, when epoll_wait failed (it does not, but for a
// bug).
func (p *closePoller) fail(err error) {
	slog.Error("live: epoll_wait, a goroutine per detached stream from now on", "err", err)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.broken = true
	for tok, d := range p.streams {
		delete(p.streams, tok)
		d.token = 0
		go d.readUntilClosed()
	}
}
