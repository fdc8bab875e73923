// Package static embeds the site's assets (style sheet, scripts, htmx,
// icons) and serves them under content-hashed URLs,
// /static/<name>.<hash>.<ext>, so they can be cached for ever.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"path"
	"strings"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/js"
)

//go:embed *.css *.js *.svg *.png *.ico
var files embed.FS

// Asset is one embedded file.
type Asset struct {
	Name        string // file name in this folder, e.g. "app.css"
	URL         string // hashed URL, e.g. "/static/app.1a2b3c4d5e.css"
	ContentType string
	Body        []byte
	// Gzip is Body compressed once, at Load (gzip, best compression); nil
	// for a file under MinCompress bytes.
	Gzip []byte
}

// MinCompress is the size under which a reply is not worth compressing: it
// fits in one TCP segment of a usual path (MTU 1500) as it is.
const MinCompress = 1400

// Assets are the embedded files by name and by hashed URL.
type Assets struct {
	byName map[string]*Asset
	byURL  map[string]*Asset
}

// Load reads the embedded files and computes their hashed URLs.
func Load() (*Assets, error) {
	a := &Assets{byName: map[string]*Asset{}, byURL: map[string]*Asset{}}
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		body, err := files.ReadFile(e.Name())
		if err != nil {
			return nil, err
		}
		if body, err = minified(e.Name(), body); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		ext := path.Ext(e.Name())
		base := strings.TrimSuffix(e.Name(), ext)
		as := &Asset{
			Name:        e.Name(),
			URL:         "/static/" + base + "." + hex.EncodeToString(sum[:5]) + ext,
			ContentType: contentType(ext),
			Body:        body,
		}
		if len(body) >= MinCompress {
			if as.Gzip, err = compress(body); err != nil {
				return nil, err
			}
		}
		a.byName[as.Name] = as
		a.byURL[as.URL] = as
	}
	return a, nil
}

// URL returns the hashed URL of the named file; "" when there is none.
func (a *Assets) URL(name string) string {
	if as := a.byName[name]; as != nil {
		return as.URL
	}
	return ""
}

// ByURL returns the asset with the given hashed URL, or nil.
func (a *Assets) ByURL(url string) *Asset { return a.byURL[url] }

// minified returns the style sheets and our own scripts without comments
// and needless spaces (the sources keep them for people; htmx comes
// minified already). The first visit of a page must stay under 30 KB
// compressed (handlers' TestFirstVisitWeight).
func minified(name string, body []byte) ([]byte, error) {
	m := minify.New()
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("text/javascript", js.Minify)
	switch {
	case strings.HasSuffix(name, ".min.js"):
		return body, nil
	case strings.HasSuffix(name, ".css"):
		return m.Bytes("text/css", body)
	case strings.HasSuffix(name, ".js"):
		return m.Bytes("text/javascript", body)
	}
	return body, nil
}

// compress returns b compressed with gzip at its best compression.
func compress(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func contentType(ext string) string {
	switch ext {
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	}
	return "application/octet-stream"
}
