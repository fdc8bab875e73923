// Package static embeds the site's assets (style sheet, scripts, htmx,
// icons) and serves them under content-hashed URLs,
// /static/<name>.<hash>.<ext>, so they can be cached for ever.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"path"
	"strings"
)

//go:embed *.css *.js *.svg *.png *.ico
var files embed.FS

// Asset is one embedded file.
type Asset struct {
	Name        string // file name in this folder, e.g. "app.css"
	URL         string // hashed URL, e.g. "/static/app.1a2b3c4d5e.css"
	ContentType string
	Body        []byte
}

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
		sum := sha256.Sum256(body)
		ext := path.Ext(e.Name())
		base := strings.TrimSuffix(e.Name(), ext)
		as := &Asset{
			Name:        e.Name(),
			URL:         "/static/" + base + "." + hex.EncodeToString(sum[:5]) + ext,
			ContentType: contentType(ext),
			Body:        body,
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
