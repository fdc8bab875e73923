//go:build faults

package faults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// proxy is a TCP proxy on 127.0.0.1 in front of another address, which a
// test cuts (every connection closed, new ones closed at once) and
// restores.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]bool
}

// startProxy listens on a free port of 127.0.0.1 and forwards to target
// until the test ends.
func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	t.Cleanup(func() { ln.Close(); p.setCut(true) })
	go p.serve()
	return p
}

// port is the proxy's port.
func (p *proxy) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

func (p *proxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.pipe(in)
	}
}

// pipe forwards in to the target both ways, unless the proxy is cut.
func (p *proxy) pipe(in net.Conn) {
	out, err := net.Dial("tcp", p.target)
	if err != nil {
		in.Close()
		return
	}
	p.mu.Lock()
	if p.cut {
		p.mu.Unlock()
		in.Close()
		out.Close()
		return
	}
	p.conns[in], p.conns[out] = true, true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { io.Copy(out, in); done <- struct{}{} }()
	go func() { io.Copy(in, out); done <- struct{}{} }()
	<-done
	in.Close()
	out.Close()
	p.mu.Lock()
	delete(p.conns, in)
	delete(p.conns, out)
	p.mu.Unlock()
}

// setCut cuts the proxy (closing every connection) or restores it.
func (p *proxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for c := range p.conns {
			c.Close()
		}
	}
}

// TestCutInstanceChargesNobody: two instances on one PostgreSQL, the
// second through a TCP proxy. A game on a 60 s clock (no increment) is
// played through the second instance; with South to move, the proxy is
// cut for 8.5 s (every request to that instance answers 503, the first
// instance keeps the site's heartbeat: no outage). South, who kept
// asking for the game during the cut, moves once the instance is ready
// again and keeps their time: at most 2 s less than before the cut
// (issue 30: 10.9 s fell to 0.53 s over an 8.5 s cut).
func TestCutInstanceChargesNobody(t *testing.T) {
	pg := startPostgres(t)
	a := startInstance(t, "a", pg.URL())
	px := startProxy(t, fmt.Sprintf("127.0.0.1:%d", pg.port))
	b := startInstance(t, "b", fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", px.port()))
	c := &http.Client{Timeout: 5 * time.Second}
	var created struct{ ID, Token, Seat string }
	apiCall(t, c, b.base, "POST", "/api/v1/games", map[string]any{"rules": "abapa", "seat": "south", "clock": map[string]int{"initial": 60}},
		http.StatusCreated, &created)
	var joined struct{ Token, Seat string }
	apiCall(t, c, b.base, "POST", "/api/v1/games/"+created.ID+"/join", struct{}{}, http.StatusOK, &joined)
	var st struct {
		Status string
		Clock  struct {
			SouthMS int64 `json:"south_ms"`
		}
	}
	game := "/api/v1/games/" + created.ID
	for _, m := range []struct{ token, pit string }{{created.Token, "A"}, {joined.Token, "a"}} {
		if code := asSeat(c, b.base, "POST", game+"/moves", m.token, map[string]string{"pit": m.pit}, &st); code != http.StatusOK {
			t.Fatalf("move %s: %d", m.pit, code)
		}
	}
	time.Sleep(time.Second) // South's clock runs
	before := time.Now()
	if code := asSeat(c, b.base, "GET", game, created.Token, nil, &st); code != http.StatusOK {
		t.Fatalf("read: %d", code)
	}
	left := time.Duration(st.Clock.SouthMS) * time.Millisecond
	px.setCut(true)
	refused := 0
	for cutAt := time.Now(); time.Since(cutAt) < 8500*time.Millisecond; time.Sleep(500 * time.Millisecond) {
		if asSeat(c, b.base, "GET", game, created.Token, nil, nil) == http.StatusServiceUnavailable {
			refused++
		}
	}
	px.setCut(false)
	if _, ok := waitFor(30*time.Second, b.ready); !ok {
		b.fail("not ready 30 s after the cut")
	}
	if code := asSeat(c, b.base, "POST", game+"/moves", created.Token, map[string]string{"pit": "B"}, &st); code != http.StatusOK {
		t.Fatalf("South's move after the cut: %d", code)
	}
	after := time.Duration(st.Clock.SouthMS) * time.Millisecond
	t.Logf("South: %.2f s before the cut, %.2f s after its move, %.1f s later; %d answers 503 during the cut",
		left.Seconds(), after.Seconds(), time.Since(before).Seconds(), refused)
	if refused == 0 {
		t.Errorf("no answer 503 during the cut: the instance was not cut off")
	}
	if st.Status != "playing" || after < left-2*time.Second {
		t.Errorf("South has %v left after the cut (%s), want at least %v", after, st.Status, left-2*time.Second)
	}
	if out := a.alive(); !out {
		t.Errorf("instance a stopped")
	}
}

// asSeat sends a JSON request with the seat's bearer token and decodes a
// 200 answer into out (nil: none); it returns the status, 0 for no answer.
func asSeat(c *http.Client, base, method, path, token string, body, out any) int {
	var rd io.Reader = http.NoBody
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := c.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusOK && out != nil {
		if json.NewDecoder(res.Body).Decode(out) != nil {
			return 0
		}
	}
	return res.StatusCode
}
