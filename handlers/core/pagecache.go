package core

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/static"
	"oware/views"
)

// pageCache keeps whole pages as a visitor without an account sees them
// (the rules, a game watched), rendered and compressed once for each state
// of what they show: a request finds the page by its address (path and
// query) and colour theme, and checks that the state (a page's
// updated_at, a game's version) is still the stored one. The forms of the
// header carry the visitor's CSRF token, so a page is kept in the pieces
// around it, each compressed on its own, and an answer puts the pieces and
// the visitor's token together (the token as a stored deflate block). An
// answer carries a strong ETag (entityTag), and a request whose
// If-None-Match names it gets 304 without the body. It holds at most
// maxCached pages and is safe for concurrent use.
type pageCache struct {
	mu    sync.Mutex
	pages map[string]*cachedPage // by cacheKey
	// Events tells the versions of the games of kept pages (Broker.Known),
	// so that a kept game page needs no query while the listener is up.
	Events game.Broker
	// follows ends the subscription of each game whose pages are kept
	// (at most maxCached games).
	follows map[string]func()
}

// maxCached bounds the pages kept; past it, an arbitrary one is dropped.
const maxCached = 512

// cachedPage is a page as rendered for one state of what it shows: the
// pieces of its HTML around the CSRF token, and the same pieces as raw
// deflate blocks that end on a byte and refer to nothing before them (nil
// for a page too short to compress).
type cachedPage struct {
	state  string
	pieces [][]byte
	zipped [][]byte
	// head is the head of the game a game page shows, at the version of
	// state; nil for other pages.
	head *game.Head
}

// cacheKey is what a page of a visitor without an account depends on
// besides the state of what it shows and the CSRF token: its address, the
// colour theme and the board settings.
func cacheKey(c echo.Context) string {
	return c.Request().URL.RequestURI() + " " + theme(c) + " " + boardKey(c)
}

// Cacheable reports whether the request's page is the same for every
// visitor who asks for it, but for the CSRF token: a whole page (no htmx
// swap) for a visitor without an account.
func (h *Handlers) Cacheable(c echo.Context) bool {
	return h.User(c) == nil && !Htmx(c) && c.Request().Method == http.MethodGet
}

// KeptHead returns the head of the game of the request's kept page when
// the game's version this instance knows from its events (Broker.Known)
// is the page's: the page is current, and no query was needed. Nil when
// there is no such page, the game's version is not known here (the
// listener is down, or the game not followed yet) or it is another.
func (pc *pageCache) KeptHead(c echo.Context) *game.Head {
	pc.mu.Lock()
	p := pc.pages[cacheKey(c)]
	pc.mu.Unlock()
	if p == nil || p.head == nil {
		return nil
	}
	if v, ok := pc.Events.Known(p.head.ID); ok && v == p.head.Version {
		return p.head
	}
	return nil
}

// NoteHead tells the events the version of a game read from the database
// (once its pages are kept, the game is followed: Broker.Note).
func (pc *pageCache) NoteHead(h *game.Head) {
	pc.mu.Lock()
	_, followed := pc.follows[h.ID]
	pc.mu.Unlock()
	if followed {
		pc.Events.Note(h.ID, h.Version)
	}
}

// follow subscribes to the events of game id, whose page is being kept,
// so that its version is known here (keptHead); at most maxCached games
// are followed, past that an arbitrary one is dropped.
func (pc *pageCache) follow(id string) {
	pc.mu.Lock()
	_, followed := pc.follows[id]
	pc.mu.Unlock()
	if followed {
		return
	}
	_, stop := pc.Events.Subscribe(id) // the channel keeps only the last event: nobody reads it
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.follows == nil {
		pc.follows = map[string]func(){}
	}
	if _, ok := pc.follows[id]; ok {
		stop()
		return
	}
	if len(pc.follows) >= maxCached {
		for other, end := range pc.follows {
			delete(pc.follows, other)
			end()
			break
		}
	}
	pc.follows[id] = stop
}

// Serve answers with the cached page of the request when it was rendered
// for state; it reports whether it did.
func (pc *pageCache) Serve(c echo.Context, state string) bool {
	pc.mu.Lock()
	p := pc.pages[cacheKey(c)]
	pc.mu.Unlock()
	if p == nil || p.state != state {
		return false
	}
	token := []byte(CsrfToken(c))
	hdr := c.Response().Header()
	hdr.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	hdr.Set(echo.HeaderCacheControl, "no-cache")
	var body []byte
	var tag string
	if p.zipped != nil {
		hdr.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	}
	if p.zipped != nil && len(token) < 1<<16 && AcceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		hdr.Set(echo.HeaderContentEncoding, "gzip")
		body = p.gzip(token)
		n := len(body) // the gzip trailer holds the page's CRC-32 and length
		tag = entityTag(binary.LittleEndian.Uint32(body[n-8:]), binary.LittleEndian.Uint32(body[n-4:]), "-gz")
	} else {
		body = bytes.Join(p.pieces, token)
		tag = entityTag(crc32.ChecksumIEEE(body), uint32(len(body)), "")
	}
	hdr.Set("ETag", tag)
	if matchesTag(c.Request().Header.Get("If-None-Match"), tag) {
		hdr.Del(echo.HeaderContentEncoding)
		c.Response().WriteHeader(http.StatusNotModified) // the visitor's copy is this one
		return true
	}
	hdr.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	c.Response().WriteHeader(http.StatusOK)
	c.Response().Write(body)
	return true
}

// entityTag is the strong ETag of a kept page as answered: the CRC-32 and
// the length of the page with the visitor's token (so another visitor's
// copy, or another state, never matches) and suffix, "-gz" for the gzip
// encoding (a representation of its own, RFC 9110 8.8.3).
func entityTag(crc, size uint32, suffix string) string {
	return `"` + strconv.FormatUint(uint64(crc), 16) + "-" + strconv.FormatUint(uint64(size), 10) + suffix + `"`
}

// matchesTag reports whether an If-None-Match header names tag or is "*"
// (the weak comparison of RFC 9110 13.1.2: a W/ prefix is ignored).
func matchesTag(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}

// gzip returns the page with token as a gzip stream (RFC 1952): the
// compressed pieces with the token between them as stored blocks, a final
// empty block, and the CRC-32 and length of the whole.
func (p *cachedPage) gzip(token []byte) []byte {
	n := 10 + 5 + 8
	for _, z := range p.zipped {
		n += len(z) + 5 + len(token)
	}
	out := make([]byte, 0, n)
	out = append(out, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255) // deflate, no name, unknown OS
	crc, size := uint32(0), 0
	for i, z := range p.zipped {
		if i > 0 {
			out = append(out, 0) // a stored block, not the last
			out = binary.LittleEndian.AppendUint16(out, uint16(len(token)))
			out = binary.LittleEndian.AppendUint16(out, ^uint16(len(token)))
			out = append(out, token...)
			crc, size = crc32.Update(crc, crc32.IEEETable, token), size+len(token)
		}
		out = append(out, z...)
		crc, size = crc32.Update(crc, crc32.IEEETable, p.pieces[i]), size+len(p.pieces[i])
	}
	out = append(out, 1, 0, 0, 0xff, 0xff) // the last block, stored and empty
	out = binary.LittleEndian.AppendUint32(out, crc)
	return binary.LittleEndian.AppendUint32(out, uint32(size))
}

// RenderGame is render for the page of game g, whose head it keeps with
// it; the game is followed from then on (follow).
func (pc *pageCache) RenderGame(c echo.Context, g *game.Game, p views.Page, t func(views.Page) templ.Component) error {
	pc.follow(g.ID)
	head := g.Head
	return pc.keep(c, strconv.Itoa(g.Version), &head, p, t)
}

// Render renders the page t makes of layout p for state, keeps it and
// answers with it.
func (pc *pageCache) Render(c echo.Context, state string, p views.Page, t func(views.Page) templ.Component) error {
	return pc.keep(c, state, nil, p, t)
}

// keep is render with the head of the game a game page shows.
func (pc *pageCache) keep(c echo.Context, state string, head *game.Head, p views.Page, t func(views.Page) templ.Component) error {
	p.CSRF = CsrfPlaceholder
	var html bytes.Buffer
	if err := t(p).Render(c.Request().Context(), &html); err != nil {
		return err
	}
	page := &cachedPage{state: state, pieces: bytes.Split(html.Bytes(), []byte(CsrfPlaceholder)), head: head}
	if html.Len() >= static.MinCompress {
		for _, piece := range page.pieces {
			var z bytes.Buffer
			zw, _ := flate.NewWriter(&z, flate.BestCompression)
			zw.Write(piece)
			zw.Flush() // ends on a byte, with no last block
			page.zipped = append(page.zipped, z.Bytes())
		}
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
	pc.pages[cacheKey(c)] = page
	pc.mu.Unlock()
	pc.Serve(c, state)
	return nil
}
