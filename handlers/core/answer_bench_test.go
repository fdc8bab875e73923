package core

import (
	"bytes"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"
)

// gameLikeJSON is a JSON answer of about n bytes shaped like an API move's
// answer: a board and a growing list of moves.
func gameLikeJSON(n int) []byte {
	b := []byte(`{"id":"g1234567","board":[4,4,4,4,4,4,4,4,4,4,4,4],"store":[0,0],"turn":0,"status":"playing","moves":[`)
	x := uint32(1)
	for i := 0; len(b) < n-2; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		x = x*1103515245 + 12345 // a fixed pseudo-random game
		b = append(b, "abcdefABCDEF"[x>>16%12])
		b = append(b, '"')
	}
	return append(b, "]}"...)
}

func BenchmarkAnswer(b *testing.B) {
	e := echo.New()
	for _, n := range []int{600, 2600, 8000} {
		body := gameLikeJSON(n)
		b.Run(fmt.Sprintf("answer/%d", n), func(b *testing.B) {
			for b.Loop() {
				req := httptest.NewRequest("POST", "/api/x", nil)
				req.Header.Set("Accept-Encoding", "gzip")
				c := e.NewContext(req, httptest.NewRecorder())
				_ = Answer(c, 200, "application/json", body)
			}
		})
		for _, level := range []int{gzip.DefaultCompression, gzip.BestSpeed, gzip.StatelessCompression} {
			w, _ := gzip.NewWriterLevel(io.Discard, level)
			var buf bytes.Buffer
			var r gzip.Reader
			b.Run(fmt.Sprintf("level%d/%d", level, n), func(b *testing.B) {
				for b.Loop() {
					buf.Reset()
					w.Reset(&buf)
					_, _ = w.Write(body)
					_ = w.Close()
				}
				b.ReportMetric(float64(buf.Len()), "gzB")
			})
			b.Run(fmt.Sprintf("level%d+unzip/%d", level, n), func(b *testing.B) {
				for b.Loop() {
					buf.Reset()
					w.Reset(&buf)
					_, _ = w.Write(body)
					_ = w.Close()
					_ = r.Reset(bytes.NewReader(buf.Bytes()))
					_, _ = io.Copy(io.Discard, &r)
				}
			})
		}
	}
}
