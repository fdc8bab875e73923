package core

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

// TestPageGzip: a kept page put together with a visitor's token reads back,
// through a gzip reader that checks the CRC-32 and the length, as the page
// with the token in every place of the placeholder.
func TestPageGzip(t *testing.T) {
	for _, page := range []string{
		"",
		"<p>no token</p>",
		strings.Repeat("<p>before</p>", 200) + CsrfPlaceholder + strings.Repeat("<p>after</p>", 300),
		CsrfPlaceholder + "middle" + CsrfPlaceholder + strings.Repeat("x", 5000) + CsrfPlaceholder,
	} {
		for _, token := range []string{"", "tok", strings.Repeat("T", 32)} {
			p := &cachedPage{pieces: bytes.Split([]byte(page), []byte(CsrfPlaceholder))}
			for _, piece := range p.pieces {
				var z bytes.Buffer
				zw, _ := flate.NewWriter(&z, flate.BestCompression)
				zw.Write(piece)
				zw.Flush()
				p.zipped = append(p.zipped, z.Bytes())
			}
			zr, err := gzip.NewReader(bytes.NewReader(p.gzip([]byte(token))))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if want := strings.ReplaceAll(page, CsrfPlaceholder, token); err != nil || string(got) != want {
				t.Errorf("page of %d bytes, token %q: %v, read %d bytes, want %d", len(page), token, err, len(got), len(want))
			}
		}
	}
}
