package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/klauspost/compress/gzip"

	"oware/engine"
)

// A mover sends the moves of one player at a time over one kept-alive
// connection, written and read by hand: the request's bytes and the
// answer's buffer are reused and only the answer's status and position
// are read (no JSON decoding by reflection), so that the client costs
// about what pgbench's does and the CPU per move measures the site.
// It asks for gzip as a browser or a bot would, and reads answers with a
// Content-Length or chunked.
type mover struct {
	addr  string // host:port of the server
	host  string // its Host header
	conn  net.Conn
	r     *bufio.Reader
	req   []byte // the request being sent
	body  []byte // the answer's body as received
	plain []byte // and uncompressed
	gz    *gzip.Reader
}

// moverTimeout bounds one move request.
const moverTimeout = 10 * time.Second

// newMover returns a mover for the server at base (an http:// URL).
func newMover(base string) (*mover, error) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return nil, fmt.Errorf("moves need an http:// URL, not %q", base)
	}
	addr := u.Host
	if u.Port() == "" {
		addr += ":80"
	}
	return &mover{addr: addr, host: u.Host}, nil
}

// close closes the mover's connection.
func (m *mover) close() {
	if m.conn != nil {
		m.conn.Close()
		m.conn = nil
	}
}

// move plays pit for the player to move of t, reads the answer's status
// and position into t.state and returns how long the request took.
func (m *mover) move(ctx context.Context, t *table, p engine.Position, pit int) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	began := time.Now()
	m.req = append(m.req[:0], "POST /api/v1/games/"...)
	m.req = append(m.req, t.id...)
	m.req = append(m.req, "/moves HTTP/1.1\r\nHost: "...)
	m.req = append(m.req, m.host...)
	m.req = append(m.req, "\r\nAuthorization: Bearer "...)
	m.req = append(m.req, t.tokens[p.ToMove.String()]...)
	m.req = append(m.req, "\r\nContent-Type: application/json\r\nAccept-Encoding: gzip\r\nContent-Length: 11\r\n\r\n{\"pit\":\""...)
	m.req = append(m.req, engine.Label(pit)...)
	m.req = append(m.req, "\"}"...)
	status, body, err := m.roundTrip()
	if err != nil {
		m.close()
		return 0, fmt.Errorf("POST /api/v1/games/{id}/moves: %w", err)
	}
	if status != 200 {
		return 0, fmt.Errorf("POST /api/v1/games/{id}/moves: status %d", status)
	}
	st, ok1 := jsonString(body, `"status":"`)
	pos, ok2 := jsonString(body, `"position":"`)
	if !ok1 || !ok2 {
		return 0, fmt.Errorf("POST /api/v1/games/{id}/moves: no status or position in %.80q", body)
	}
	if string(st) != t.state.Status {
		t.state.Status = string(st)
	}
	if string(pos) != t.state.Position {
		t.state.Position = string(pos)
	}
	return time.Since(began), nil
}

// jsonString returns the string value after key (`"name":"`) in a JSON
// object written without spaces and whose value has no escapes.
func jsonString(b []byte, key string) ([]byte, bool) {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return nil, false
	}
	v := b[i+len(key):]
	j := bytes.IndexByte(v, '"')
	return v[:max(j, 0)], j >= 0
}

// roundTrip sends m.req and reads the answer: its status and its body
// (uncompressed), valid until the next round trip.
func (m *mover) roundTrip() (int, []byte, error) {
	if m.conn == nil {
		c, err := net.Dial("tcp", m.addr)
		if err != nil {
			return 0, nil, err
		}
		m.conn = c
		if m.r == nil {
			m.r = bufio.NewReaderSize(c, 16<<10)
		} else {
			m.r.Reset(c)
		}
	}
	m.conn.SetDeadline(time.Now().Add(moverTimeout))
	if _, err := m.conn.Write(m.req); err != nil {
		return 0, nil, err
	}
	line, err := m.r.ReadSlice('\n')
	if err != nil {
		return 0, nil, err
	}
	// "HTTP/1.1 200 OK"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, nil, fmt.Errorf("bad status line %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, fmt.Errorf("bad status line %q", line)
	}
	length, chunked, gzipped, closing := -1, false, false, false
	for {
		h, err := m.r.ReadSlice('\n')
		if err != nil {
			return 0, nil, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, value, _ := bytes.Cut(h, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return 0, nil, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Content-Encoding")):
			gzipped = bytes.EqualFold(value, []byte("gzip"))
		case bytes.EqualFold(name, []byte("Connection")):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	m.body = m.body[:0]
	switch {
	case chunked:
		err = m.readChunked()
	case length >= 0:
		m.body = grow(m.body, length)
		_, err = io.ReadFull(m.r, m.body)
	default:
		return 0, nil, errors.New("an answer without a length")
	}
	if err != nil {
		return 0, nil, err
	}
	if closing {
		m.close()
	}
	if !gzipped {
		return status, m.body, nil
	}
	if m.gz == nil {
		m.gz, err = gzip.NewReader(bytes.NewReader(m.body))
	} else {
		err = m.gz.Reset(bytes.NewReader(m.body))
	}
	if err != nil {
		return 0, nil, err
	}
	m.plain = m.plain[:0]
	for {
		if len(m.plain) == cap(m.plain) {
			m.plain = append(m.plain, 0)[:len(m.plain)]
		}
		n, err := m.gz.Read(m.plain[len(m.plain):cap(m.plain)])
		m.plain = m.plain[:len(m.plain)+n]
		if err == io.EOF {
			return status, m.plain, nil
		}
		if err != nil {
			return 0, nil, err
		}
	}
}

// readChunked reads a chunked body into m.body.
func (m *mover) readChunked() error {
	for {
		line, err := m.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		n, err := strconv.ParseInt(string(size), 16, 32)
		if err != nil || n < 0 {
			return fmt.Errorf("bad chunk size %q", line)
		}
		if n == 0 {
			// No trailers: the empty line ends the body.
			_, err := m.r.Discard(2)
			return err
		}
		at := len(m.body)
		m.body = grow(m.body, at+int(n))
		if _, err := io.ReadFull(m.r, m.body[at:]); err != nil {
			return err
		}
		if _, err := m.r.Discard(2); err != nil {
			return err
		}
	}
}

// grow returns b with length n, reusing its array when it is large enough.
func grow(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	return append(b[:cap(b)], make([]byte, n-cap(b))...)
}
