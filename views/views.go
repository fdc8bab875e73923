// Package views holds the site's templ components: the layout, the pages and
// the board. Views get everything they show from their arguments (no
// database, no HTTP); UI strings come from a Localizer.
package views

import (
	"strconv"

	"oware/engine"
	"oware/route"
)

// Localizer gives a view the UI strings of one locale from the message
// catalogs.
type Localizer interface {
	// T returns the message id, its template filled with data given as
	// name, value pairs ("Label", "C").
	T(id string, data ...any) string
	// N returns the plural form of message id for count, which its
	// template sees as {{.Count}}.
	N(id string, count int, data ...any) string
}

// Page is what the layout needs on every page.
type Page struct {
	L           Localizer
	Lang        string // the page's locale: "cs", "it" or "en"
	Title       string
	Description string
	// Path is the page's path after the language prefix ("/", "/games/new");
	// the language switcher and the hreflang alternates keep it.
	Path string
	// Query is the request's raw query ("ply=10"), which the language
	// switcher keeps too; "" for none.
	Query           string
	BaseURL         string // absolute site URL without a trailing slash
	Version, Commit string // build info for the footer; "" when unknown
	// NoIndex marks a page that search engines should not index (games,
	// account pages, error pages): it gets no canonical URL.
	NoIndex bool
	// Theme is the colour theme the visitor chose in this browser, "light"
	// or "dark"; "" follows the system's (prefers-color-scheme).
	Theme string
	// Board are the visitor's board and sound settings (the zero value:
	// the defaults).
	Board BoardSettings
	// Refresh, in seconds, reloads the page without JavaScript (a player
	// waiting for the opponent); 0 for none. With JavaScript the page
	// updates itself instead.
	Refresh int
	// Game marks a game page: it needs only the style sheet of the frame
	// and the board, and it alone gets live updates (the SSE extension).
	Game bool
	// Live marks another page with live updates (a tournament's
	// standings): it gets the SSE extension too.
	Live   bool
	Assets AssetURLs
	// User is the logged-in player's name, "" for a visitor; CSRF is the
	// token of the header's logout form.
	User, CSRF string
	// Preview is the page's link preview (Open Graph and Twitter card
	// tags); nil for none.
	Preview *Preview
}

// Preview is what a chat or a social site shows of a link to a page: the
// Open Graph (ogp.me) and Twitter card tags of the layout, whose image is
// the board of the page (views/picture, 1200×630 PNG).
type Preview struct {
	// Title and Description are og:title and og:description, in the
	// page's language; "" takes the page's Title and Description.
	Title, Description string
	// Image is the picture's path on the site ("/en/games/abc/preview.png"),
	// made absolute with the base URL; Alt its text alternative.
	Image, Alt string
}

// PreviewWidth and PreviewHeight are the size in pixels of a preview's
// image (picture.Width and picture.Height).
const (
	PreviewWidth  = 1200
	PreviewHeight = 630
)

// ogLocales are the Open Graph locales (language_TERRITORY) of the site's
// languages.
var ogLocales = map[string]string{"cs": "cs_CZ", "it": "it_IT", "en": "en_GB"}

// previewTitle returns og:title: the preview's title, else the page's.
func (p Page) previewTitle() string {
	if p.Preview.Title != "" {
		return p.Preview.Title
	}
	return p.Title
}

// previewDescription returns og:description: the preview's, else the page's.
func (p Page) previewDescription() string {
	if p.Preview.Description != "" {
		return p.Preview.Description
	}
	return p.Description
}

// url returns the page's absolute URL, with its query.
func (p Page) url() string { return p.BaseURL + p.in(p.Lang) }

// AssetURLs are the content-hashed URLs of the static files.
type AssetURLs struct {
	CSS, HTMX, SSE, JS string
	Turn               string // game pages: clocks, your-turn title, sound (turn.js)
	PagesCSS           string // the style sheet of the pages other than games
	Icon               string // the SVG favicon
}

// home returns the URL of the page's home page.
func (p Page) home() string { return route.Home(p.Lang) }

// in returns the URL of the page in language lang, with its query.
func (p Page) in(lang string) string {
	u := route.In(lang, p.Path)
	if p.Query != "" {
		u += "?" + p.Query
	}
	return u
}

// build returns the footer's build text: "v0.1.0 · a38d0e2" or "dev".
func (p Page) build() string {
	v := p.Version
	if v == "" {
		v = "dev"
	}
	if c := p.Commit; c != "" && c != "dev" && c != "unknown" {
		if len(c) > 7 {
			c = c[:7]
		}
		return v + " · " + c
	}
	return v
}

// itoa formats an int.
func itoa(n int) string { return strconv.Itoa(n) }

// sideKey returns the message id of a side's name.
func sideKey(s engine.Side) string {
	if s == North {
		return "side_north"
	}
	return "side_south"
}

// Sides, for templates.
const (
	South = engine.South
	North = engine.North
)
