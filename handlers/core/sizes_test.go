package core_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// syncBuffer is a log that tests read while the server writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// chunked returns a reader of n bytes of s repeated whose length the HTTP
// client does not know, so that it sends the body chunked.
func chunked(s string, n int) io.Reader {
	return io.MultiReader(strings.NewReader(strings.Repeat(s, n/len(s)+1)[:n]))
}

// TestBodyTooLarge: a body over the limit gets 413 whether its length is
// announced or it comes chunked, on a form, the JSON API and the import
// form (whose limit is larger), also when it is refused for its content
// before its end, and stores nothing.
func TestBodyTooLarge(t *testing.T) {
	s := handlerstest.NewSite(t, modelstest.Open(t, models.SQLite))
	c := s.Browser()
	_, _, page := s.Get(c, "/en/games/new")
	form := "_csrf=" + url.QueryEscape(s.Csrf(page)) + "&rules=abapa&seat=south&x="
	over := 64<<10 + 1
	importOver := (1 << 20) + 64<<10 + 1
	for _, tc := range []struct {
		name, path, ctype, head string
		size                    int
	}{
		{"form", "/en/games/new", "application/x-www-form-urlencoded", form, over},
		{"api", "/api/v1/games", "application/json", `{"rules":"abapa","x":"`, over},
		{"bad json", "/api/v1/games", "application/json", "not JSON at all", over},
		{"bad form", "/en/games/new", "application/x-www-form-urlencoded", "%zz", over},
		{"import", "/en/import", "application/x-www-form-urlencoded", "_csrf=" + url.QueryEscape(s.Csrf(page)) + "&record=", importOver},
	} {
		for _, chunk := range []bool{false, true} {
			body := io.MultiReader(strings.NewReader(tc.head), chunked("a", tc.size-len(tc.head)))
			if !chunk {
				b, _ := io.ReadAll(body)
				body = strings.NewReader(string(b))
			}
			code, _, text := s.Do(c, http.MethodPost, tc.path, body, map[string]string{"Content-Type": tc.ctype})
			if code != http.StatusRequestEntityTooLarge {
				t.Errorf("%s (chunked %v): %d, want 413: %.200s", tc.name, chunk, code, text)
			}
		}
	}
	var games int64
	if err := s.Db.Gorm.Model(&models.Game{}).Count(&games).Error; err != nil {
		t.Fatal(err)
	}
	if games != 0 {
		t.Errorf("%d games stored by refused bodies", games)
	}
}

// TestLongURLAndHeaders: a URL over 8 KiB gets 414 and headers over
// 16 KiB 431, each with a short localized page; past the server's own
// bound (32 KiB and its slack) net/http answers 431.
func TestLongURLAndHeaders(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, nil)
	long := "/cs/players/" + strings.Repeat("a", 9<<10)
	code, _, page := s.Get(nil, long)
	if code != http.StatusRequestURITooLong || !strings.Contains(page, "Tato adresa je příliš dlouhá") || len(page) > 20<<10 {
		t.Errorf("9 KiB URL: %d, %d bytes: %.300s", code, len(page), page)
	}
	code, _, page = s.Get(nil, "/en/players/x?q="+strings.Repeat("a", 9<<10))
	if code != http.StatusRequestURITooLong || len(page) > 20<<10 {
		t.Errorf("9 KiB query: %d, %d bytes", code, len(page))
	}
	code, _, page = s.Do(nil, http.MethodGet, "/it/", nil, map[string]string{"X-Big": strings.Repeat("b", 17<<10)})
	if code != http.StatusRequestHeaderFieldsTooLarge || !strings.Contains(page, "Le intestazioni della richiesta sono troppo grandi") {
		t.Errorf("17 KiB header: %d: %.300s", code, page)
	}
	code, _, body := s.Do(nil, http.MethodGet, "/api/v1/games/"+strings.Repeat("x", 9<<10), nil, nil)
	if code != http.StatusRequestURITooLong || !strings.HasPrefix(body, `{"error":"That address is too long`) {
		t.Errorf("API 9 KiB URL: %d %.200s", code, body)
	}
	if code, _, _ := s.Get(nil, "/en/"+strings.Repeat("c", 40<<10)); code != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("40 KiB URL: %d, want 431 from net/http", code)
	}
	// A URL just under the bound is served.
	if code, _, _ := s.Get(nil, "/en/?x="+strings.Repeat("d", 8<<10-10)); code != http.StatusOK {
		t.Errorf("URL of 8 KiB: %d, want 200", code)
	}
}

// TestLogLineBounded: the longest URL the server reads (and one it
// refuses) writes a log line of a bounded size that says the URL was cut.
func TestLogLineBounded(t *testing.T) {
	var log syncBuffer
	s := handlerstest.LimitedSite(t, &log, nil, nil)
	s.Get(nil, "/en/?x="+strings.Repeat("d", 8<<10-10))
	s.Get(nil, "/en/players/"+strings.Repeat("a", 30<<10))
	s.Get(nil, "/en/players/"+strings.Repeat("a", 1<<20))
	s.Get(nil, "/cs/password-reset/0123456789abcdef0123456789abcdef")
	if strings.Contains(log.String(), "0123456789abcdef") {
		t.Errorf("a password reset token reached the log:\n%s", log.String())
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	cut := 0
	for _, l := range lines {
		if len(l) > 1024 {
			t.Errorf("log line of %d bytes: %.300s", len(l), l)
		}
		if strings.Contains(l, "msg=request") && strings.Contains(l, "…[cut, ") {
			cut++
		}
	}
	if cut != 2 {
		t.Errorf("%d request lines say the URL was cut, want 2:\n%s", cut, log.String())
	}
}

// TestSlowBodyCutOff: a body sent slowly is cut off at the server's read
// timeout with 408, and the server closes the connection though the client
// keeps it open; the import form has longer.
func TestSlowBodyCutOff(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, func(srv *http.Server) { srv.ReadTimeout = 300 * time.Millisecond }, nil)
	for _, start := range []string{
		"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"rules\":",
		"POST /en/games/new HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nrules=",
	} {
		conn, err := net.Dial("tcp", s.Srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err = io.WriteString(conn, start); err != nil {
			t.Fatal(err)
		}
		// The client never sends the rest; the server must give up long
		// before this deadline of the test.
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		answer, err := io.ReadAll(bufio.NewReader(conn))
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatal("the server still waits for the body after 10 s")
		}
		if !strings.HasPrefix(string(answer), "HTTP/1.1 408 ") || !strings.Contains(string(answer), "too slowly") {
			t.Errorf("answer to a slow body: %.300s", answer)
		}
	}
	// A record sent more slowly than the read timeout still gets in.
	c := s.Browser()
	_, _, page := s.Get(c, "/en/import")
	u, _ := url.Parse(s.Srv.URL)
	body := url.Values{"_csrf": {s.Csrf(page)}, "record": {"1. C f\n"}}.Encode()
	conn, err := net.Dial("tcp", s.Srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var cookies []string
	for _, ck := range c.Jar.Cookies(u) {
		cookies = append(cookies, ck.Name+"="+ck.Value)
	}
	fmt.Fprintf(conn, "POST /en/import HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s",
		u.Host, strings.Join(cookies, "; "), len(body), body[:5])
	time.Sleep(time.Second)
	io.WriteString(conn, body[5:])
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || res.StatusCode != http.StatusSeeOther {
		t.Errorf("a slow record: %v %v", res, err)
	}
}

// TestLongAcceptLanguage: an Accept-Language header too long to be a
// browser's (24 KiB, under the server's own bound), or malformed, never
// refuses the request: it is ignored, and the page comes in English
// (the default language); one past the server's bound gets net/http's 431.
func TestLongAcceptLanguage(t *testing.T) {
	s := handlerstest.LimitedSite(t, io.Discard, nil, nil)
	for name, accept := range map[string]string{
		"24 KiB of tags":    strings.Repeat("cs-CZ,", 4<<10),
		"24 KiB of one tag": "it-" + strings.Repeat("x", 24<<10),
		"long and valid":    strings.Repeat("de;q=0.5,", 1<<10) + "cs",
		"bad weight":        "cs;q=abc",
		"semicolons":        ";;;,,,",
		"not text":          "\xff\xfe",
		"a dangling dash":   "cs-",
		"a star":            "*",
	} {
		code, _, page := s.Do(nil, http.MethodGet, "/rules", nil, map[string]string{"Accept-Language": accept})
		if code != http.StatusFound {
			t.Errorf("/rules, Accept-Language %s: %d, want 302: %.300s", name, code, page)
		}
		code, _, page = s.Do(nil, http.MethodGet, "/xx/", nil, map[string]string{"Accept-Language": accept})
		if code != http.StatusNotFound || !strings.Contains(page, `<html lang="en">`) || !strings.Contains(page, "<title>Unknown language · Oware</title>") {
			t.Errorf("/xx/, Accept-Language %s: %d, want the English 404: %.300s", name, code, page)
		}
	}
	code, hdr, _ := s.Do(nil, http.MethodGet, "/", nil, map[string]string{"Accept-Language": strings.Repeat("cs,", 8<<10)})
	if code != http.StatusFound || hdr.Get("Location") != "/en/" {
		t.Errorf("/, 24 KiB Accept-Language: %d %q, want 302 to /en/", code, hdr.Get("Location"))
	}
	if code, _, _ := s.Do(nil, http.MethodGet, "/en/", nil, map[string]string{"Accept-Language": strings.Repeat("cs,", 14<<10)}); code != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("42 KiB Accept-Language: %d, want 431 from net/http", code)
	}
}
