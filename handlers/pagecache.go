package handlers

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"

	"github.com/a-h/templ"
	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"

	"oware/static"
)

// pageCache keeps whole pages as a visitor without an account sees them
// (the rules, a game watched), rendered and compressed once for each state
// of what they show: a request finds the page by its path and checks that
// the state (a page's updated_at, a game's version) is still the stored
// one. It holds at most maxCached pages and is safe for concurrent use.
type pageCache struct {
	mu    sync.Mutex
	pages map[string]*cachedPage // by path
}

// maxCached bounds the pages kept; past it, an arbitrary one is dropped.
const maxCached = 512

// cachedPage is a page as sent, for one state of what it shows.
type cachedPage struct {
	state      string
	html, gzip []byte
}

// cacheable reports whether the request's page is the same for every
// visitor who asks for it: a whole page (no htmx swap) for a visitor
// without an account.
func (h *handler) cacheable(c echo.Context) bool {
	return h.visit(c).user == nil && !htmx(c) && c.Request().Method == http.MethodGet
}

// serve answers with the cached page of the request's path when it was
// rendered for state; it reports whether it did.
func (pc *pageCache) serve(c echo.Context, state string) bool {
	pc.mu.Lock()
	p := pc.pages[c.Request().URL.Path]
	pc.mu.Unlock()
	if p == nil || p.state != state {
		return false
	}
	hdr := c.Response().Header()
	hdr.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	hdr.Set(echo.HeaderCacheControl, "no-cache")
	body := p.html
	if p.gzip != nil {
		hdr.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		if acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
			hdr.Set(echo.HeaderContentEncoding, "gzip")
			body = p.gzip
		}
	}
	hdr.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	c.Response().WriteHeader(http.StatusOK)
	c.Response().Write(body)
	return true
}

// render renders t as the page of the request's path for state, keeps it
// and answers with it. A page that holds the visitor's CSRF token is only
// sent, never kept.
func (pc *pageCache) render(c echo.Context, state string, t templ.Component) error {
	var html bytes.Buffer
	if err := t.Render(c.Request().Context(), &html); err != nil {
		return err
	}
	if token := csrfToken(c); token != "" && bytes.Contains(html.Bytes(), []byte(token)) {
		c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
		return c.HTMLBlob(http.StatusOK, html.Bytes())
	}
	p := &cachedPage{state: state, html: html.Bytes()}
	if len(p.html) >= static.MinCompress {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(p.html)
		zw.Close()
		p.gzip = gz.Bytes()
	}
	pc.mu.Lock()
	if pc.pages == nil {
		pc.pages = map[string]*cachedPage{}
	}
	if len(pc.pages) >= maxCached {
		for path := range pc.pages {
			delete(pc.pages, path)
			break
		}
	}
	pc.pages[c.Request().URL.Path] = p
	pc.mu.Unlock()
	pc.serve(c, state)
	return nil
}
