package handlers

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"oware/views"
)

// pageCache keeps whole pages as a visitor without an account sees them
// (the rules, a game watched), rendered once for each state of what they
// show: a request finds the page by its address (path and query) and
// colour theme, and checks that the state (a page's updated_at, a game's
// version) is still the stored one. The page is kept with a placeholder
// for the visitor's CSRF token (the forms of the header carry it), which
// each answer fills in. It holds at most maxCached pages and is safe for
// concurrent use.
type pageCache struct {
	mu    sync.Mutex
	pages map[string]*cachedPage // by cacheKey
}

// maxCached bounds the pages kept; past it, an arbitrary one is dropped.
const maxCached = 512

// cachedPage is a page as rendered for one state of what it shows.
type cachedPage struct {
	state string
	html  []byte // with csrfPlaceholder for the visitor's token
}

// cacheKey is what a page of a visitor without an account depends on
// besides the state of what it shows and the CSRF token.
func cacheKey(c echo.Context) string {
	return c.Request().URL.RequestURI() + " " + theme(c)
}

// cacheable reports whether the request's page is the same for every
// visitor who asks for it, but for the CSRF token: a whole page (no htmx
// swap) for a visitor without an account.
func (h *handler) cacheable(c echo.Context) bool {
	return h.visit(c).user == nil && !htmx(c) && c.Request().Method == http.MethodGet
}

// serve answers with the cached page of the request when it was rendered
// for state; it reports whether it did.
func (pc *pageCache) serve(c echo.Context, state string) bool {
	pc.mu.Lock()
	p := pc.pages[cacheKey(c)]
	pc.mu.Unlock()
	if p == nil || p.state != state {
		return false
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	html := bytes.ReplaceAll(p.html, []byte(csrfPlaceholder), []byte(csrfToken(c)))
	return c.HTMLBlob(http.StatusOK, html) == nil
}

// render renders the page t makes of layout p for state, keeps it and
// answers with it.
func (pc *pageCache) render(c echo.Context, state string, p views.Page, t func(views.Page) templ.Component) error {
	p.CSRF = csrfPlaceholder
	var html bytes.Buffer
	if err := t(p).Render(c.Request().Context(), &html); err != nil {
		return err
	}
	pc.mu.Lock()
	if pc.pages == nil {
		pc.pages = map[string]*cachedPage{}
	}
	if len(pc.pages) >= maxCached {
		for key := range pc.pages {
			delete(pc.pages, key)
			break
		}
	}
	pc.pages[cacheKey(c)] = &cachedPage{state: state, html: html.Bytes()}
	pc.mu.Unlock()
	pc.serve(c, state)
	return nil
}
