package main

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
)

// poller reads the spectators' streams with epoll: one epoll set and one
// goroutine per core, each reading the streams of its set as their bytes
// come, one read a stream each time (a level-triggered set tells again
// of what a read left), into a buffer the goroutine reuses. The streams'
// sockets are taken from Go's poller (a descriptor of each, dup'ed, the
// net.Conn closed), which would otherwise also wake for every event.
type poller struct {
	w       *watchers
	sets    []int // the epoll descriptors
	next    atomic.Uint32
	mu      sync.Mutex
	streams map[int32]*parser // by descriptor
	loops   sync.WaitGroup
}

// newPoller returns the poller of w's streams, reading until ctx is done,
// then closing them.
func newPoller(ctx context.Context, w *watchers) (*poller, error) {
	p := &poller{w: w, streams: map[int32]*parser{}}
	for range runtime.GOMAXPROCS(0) {
		set, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			p.closeAll()
			return nil, err
		}
		p.sets = append(p.sets, set)
	}
	for _, set := range p.sets {
		p.loops.Go(func() { p.run(ctx, set) })
	}
	context.AfterFunc(ctx, func() {
		p.loops.Wait()
		p.closeAll()
	})
	return p, nil
}

// add reads stream s (raw) from now on with p, what it buffered first.
func (p *poller) add(s *stream, ps *parser) error {
	if n := s.buf.Buffered(); n > 0 {
		b, _ := s.buf.Peek(n)
		ps.feed(p.w, b)
	}
	sc, err := s.conn.(syscall.Conn).SyscallConn()
	if err != nil {
		return err
	}
	fd, derr := -1, error(nil)
	if err := sc.Control(func(f uintptr) { fd, derr = syscall.Dup(int(f)) }); err != nil {
		return err
	}
	s.conn.Close() // the dup keeps the socket, non-blocking as it was
	if derr != nil {
		return derr
	}
	p.mu.Lock()
	p.streams[int32(fd)] = ps
	p.mu.Unlock()
	set := p.sets[int(p.next.Add(1))%len(p.sets)]
	return syscall.EpollCtl(set, syscall.EPOLL_CTL_ADD, fd, &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(fd)})
}

// run reads the streams of set as they get bytes until ctx is done
// (within 100 ms).
func (p *poller) run(ctx context.Context, set int) {
	events := make([]syscall.EpollEvent, 256)
	buf := make([]byte, 16<<10)
	for ctx.Err() == nil {
		n, err := syscall.EpollWait(set, events, 100)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		for _, ev := range events[:n] {
			p.mu.Lock()
			ps := p.streams[ev.Fd]
			p.mu.Unlock()
			m, err := syscall.Read(int(ev.Fd), buf)
			if m > 0 {
				ps.feed(p.w, buf[:m])
				continue
			}
			if err == syscall.EAGAIN || err == syscall.EINTR {
				continue
			}
			// The stream ended (or failed): its descriptor goes.
			_ = syscall.EpollCtl(set, syscall.EPOLL_CTL_DEL, int(ev.Fd), nil)
			p.mu.Lock()
			delete(p.streams, ev.Fd)
			p.mu.Unlock()
			syscall.Close(int(ev.Fd))
		}
	}
}

// closeAll closes the streams and the epoll sets (no loop runs).
func (p *poller) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for fd := range p.streams {
		syscall.Close(int(fd))
	}
	clear(p.streams)
	for _, set := range p.sets {
		syscall.Close(set)
	}
}
