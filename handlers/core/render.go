package core

import (
	"bytes"
	_ "embed"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"oware/route"
	"oware/views"
)

// Page returns the layout data of a page in the request's locale; path is
// the page's path after the language prefix.
func (h *Handlers) Page(c echo.Context, titleKey, path string) views.Page {
	v := h.Visit(c)
	p := views.Page{
		L: v.L, Lang: v.Lang, Title: v.L.T(titleKey), Path: path, Query: c.Request().URL.RawQuery,
		BaseURL: h.Base, Version: h.Version, Commit: h.Commit, Theme: theme(c),
		NoIndex: !indexable(path), Description: defaultDescription(v.L, path),
		Assets: views.AssetURLs{
			CSS: h.Assets.URL("app.css"), PagesCSS: h.Assets.URL("pages.css"), HTMX: h.Assets.URL("htmx.min.js"),
			SSE: h.Assets.URL("sse.min.js"), JS: h.Assets.URL("app.js"), Turn: h.Assets.URL("turn.js"),
			Icon: h.Assets.URL("icon.svg"),
		},
		CSRF:  CsrfToken(c),
		Board: h.boardSettings(c),
	}
	if h.User(c) != nil {
		p.User = h.User(c).Username
	}
	return p
}

// CsrfToken returns the token of the request's forms.
func CsrfToken(c echo.Context) string {
	s, _ := c.Get("csrf").(string)
	return s
}

// Render writes a component as an HTML answer.
func Render(c echo.Context, status int, t templ.Component) error {
	var buf bytes.Buffer
	if err := t.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	return c.HTMLBlob(status, buf.Bytes())
}

// Htmx reports whether the request is an htmx swap (not a history restore,
// which wants the whole page).
func Htmx(c echo.Context) bool {
	hdr := c.Request().Header
	return hdr.Get("HX-Request") != "" && hdr.Get("HX-History-Restore-Request") == ""
}

// Redirect answers a form with 303 See Other to path.
func Redirect(c echo.Context, path string) error { return c.Redirect(http.StatusSeeOther, path) }

// indexedPaths are the pages (paths after the language prefix) that search
// engines may index; each has a meta description. A path ending in "/"
// stands for the pages under it. Games, replays, players and the account
// pages are not indexed.
var indexedPaths = []string{route.HomePattern, route.NewGamePattern, route.RulesPattern, route.VariantsPattern, route.VariantsPattern + "/",
	route.HistoryPattern, route.GlossaryPattern, route.TutorialsPattern, route.TutorialsPattern + "/"}

// indexable reports whether the page at path (after the language prefix)
// may be indexed.
func indexable(path string) bool {
	for _, p := range indexedPaths {
		if path == p || (p != "/" && strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)) {
			return true
		}
	}
	return false
}

// defaultDescription is the meta description of a page whose handler sets
// none: the new-game form's; "" for the others.
func defaultDescription(l *Localizer, path string) string {
	if path == route.NewGamePattern {
		return l.T("new_game_description")
	}
	return ""
}

// ThemeCookie keeps the colour theme a visitor chose in this browser:
// "light" or "dark" (no cookie: the system's). app.js writes it too, so
// it is readable by scripts.
const ThemeCookie = "theme"

// theme returns the theme the request's cookie chose, or "".
func theme(c echo.Context) string {
	if ck, err := c.Cookie(ThemeCookie); err == nil && (ck.Value == "light" || ck.Value == "dark") {
		return ck.Value
	}
	return ""
}

// AcceptsGzip reports whether an Accept-Encoding header takes gzip (or
// any encoding) with a quality above 0.
func AcceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if coding = strings.TrimSpace(coding); coding != "gzip" && coding != "*" {
			continue
		}
		q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !ok {
			return true
		}
		if v, err := strconv.ParseFloat(q, 64); err == nil && v > 0 {
			return true
		}
	}
	return false
}
