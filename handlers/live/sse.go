package live

import (
	"bytes"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"oware/handlers/core"
)

// The server-sent event streams (a game's panel in events.go, a
// tournament's standings in tournaments.go) share their set-up here: the
// headers, a write deadline per event, the flush, the keep-alive.

// keepAlive is how often an idle event stream sends a comment, so proxies
// keep the connection open.
const keepAlive = 20 * time.Second

// serveEvents serves the request as a server-sent event stream: the
// headers, the browser's retry delay and first (nil: nothing), then, for
// each value of ch, what frame returns for it (nil: nothing), and a
// keep-alive comment every keepAlive, until the client leaves, ch is
// closed or a write fails. A stream lives longer than the server's
// timeouts: net/http lifts the read deadline once a request's body is
// read (a stream's has none), and each write gets a deadline of its own
// (WriteTimeout), so a client that stops reading is still cut off.
func serveEvents[T any](c echo.Context, first []byte, ch <-chan T, frame func(T) []byte) error {
	write := startEventStream(c)
	if first != nil && write(first) != nil {
		return nil
	}
	ctx := c.Request().Context()
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case v, ok := <-ch:
			if !ok {
				return nil
			}
			if b := frame(v); b != nil && write(b) != nil {
				return nil
			}
		case <-ping.C:
			if write(keepAliveEvent) != nil {
				return nil
			}
		}
	}
}

// sseEvent writes a server-sent event of the given name whose data is b
// (its lines each a data line).
func sseEvent(name string, b []byte) []byte {
	var out bytes.Buffer
	out.WriteString("event: " + name + "\n")
	for _, line := range bytes.Split(b, []byte("\n")) {
		out.WriteString("data: ")
		out.Write(line)
		out.WriteByte('\n')
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// startEventStream answers c with an event stream (its headers, and the
// retry delay of 2 s) and returns the function that writes and flushes
// bytes to it, each write with a deadline of its own (WriteTimeout), so
// that a client that stops reading is cut off while the stream outlives
// the server's timeouts (net/http lifts the read deadline once a request
// without a body is read). Its error means the client is gone.
func startEventStream(c echo.Context) func([]byte) error {
	resp := c.Response()
	rc := http.NewResponseController(resp)
	setEventHeaders(resp.Header())
	resp.WriteHeader(http.StatusOK)
	write := func(b []byte) error {
		_ = rc.SetWriteDeadline(time.Now().Add(core.WriteTimeout))
		if _, err := resp.Write(b); err != nil {
			return err
		}
		resp.Flush()
		return nil
	}
	_ = write([]byte("retry: 2000\n\n"))
	return write
}
