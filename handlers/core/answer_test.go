package core_test

import (
	"bytes"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"

	"oware/handlers/core"
)

// TestAnswerCompression: with gzip asked, Answer sends a JSON body under
// 8 KB as it is (an API move's answer, issue 37), and compresses a JSON
// body of 8 KB and more and any other body of 1,400 bytes and more; the
// compressed body unzips to the bytes given. Without gzip asked nothing is
// compressed.
func TestAnswerCompression(t *testing.T) {
	// moves(n) is a JSON body of exactly 11 + 4n bytes: {"moves":["a","a",...,"a"]}
	moves := func(n int) []byte {
		return []byte(`{"moves":[` + strings.Repeat(`"a",`, n-1) + `"a"]}`)
	}
	e := echo.New()
	for _, tc := range []struct {
		name, ctype, accept string
		body                []byte
		size                int
		gzipped             bool
	}{
		{"JSON at ply 600", "application/json", "gzip", moves(600), 2411, false},
		{"JSON one byte under 8 KB", "application/json", "gzip", moves(2045), 8191, false},
		{"JSON of 8 KB", "application/json", "gzip, br", []byte(`{"x":"` + strings.Repeat("y", 8184) + `"}`), 8192, true},
		{"HTML of 1,400 bytes", "text/html; charset=UTF-8", "gzip", []byte(strings.Repeat("<p>x</p>", 175)), 1400, true},
		{"HTML of 1,399 bytes", "text/html; charset=UTF-8", "gzip", []byte(strings.Repeat("<p>x</p>", 175)[1:]), 1399, false},
		{"large JSON, gzip refused", "application/json", "gzip;q=0", moves(3000), 12011, false},
	} {
		if len(tc.body) != tc.size {
			t.Fatalf("%s: body of %d bytes, want %d", tc.name, len(tc.body), tc.size)
		}
		req := httptest.NewRequest("POST", "/api/v1/games/x/moves", nil)
		req.Header.Set("Accept-Encoding", tc.accept)
		rec := httptest.NewRecorder()
		if err := core.Answer(e.NewContext(req, rec), 200, tc.ctype, tc.body); err != nil {
			t.Fatal(err)
		}
		got := rec.Body.Bytes()
		if enc := rec.Header().Get("Content-Encoding"); (enc == "gzip") != tc.gzipped || rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: encoding %q, vary %q, want gzip %v", tc.name, enc, rec.Header().Get("Vary"), tc.gzipped)
			continue
		}
		if tc.gzipped {
			if len(got) >= tc.size {
				t.Errorf("%s: %d compressed bytes of %d", tc.name, len(got), tc.size)
			}
			zr, err := gzip.NewReader(bytes.NewReader(got))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if got, err = io.ReadAll(zr); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		if !bytes.Equal(got, tc.body) {
			t.Errorf("%s: %d bytes arrive, not the %d given (starting %.20q)", tc.name, len(got), tc.size, got)
		}
	}
	// The bytes by hand: the 600-move body starts and ends so.
	if b := moves(600); !bytes.HasPrefix(b, []byte(`{"moves":["a","a",`)) || !bytes.HasSuffix(b, []byte(`"a","a"]}`)) {
		t.Errorf("moves(600) = %.30q...", b)
	}
}
