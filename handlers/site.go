package handlers

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/route"
)

// openAPI is the OpenAPI document of the JSON API, served at
// /api/v1/openapi.json; a test checks that it lists every /api/v1 route.
//
//go:embed openapi.json
var openAPI []byte

// siteRoutes adds what browsers, phones and crawlers ask a site for:
// /robots.txt, the favicon and home-screen icon at their fixed addresses,
// the web app manifest, the theme choice and the API's OpenAPI document.
func (h *handler) siteRoutes(e *echo.Echo) {
	e.GET("/robots.txt", h.robots)
	e.GET(route.FaviconPattern, h.fixedAsset("favicon.ico"))
	e.GET(route.AppleTouchIconPattern, h.fixedAsset("apple-touch-icon.png"))
	e.GET(route.ManifestPattern, h.manifest)
	e.POST(route.ThemePattern, h.themeForm)
	e.GET("/api/v1/openapi.json", func(c echo.Context) error {
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPI)
	})
}

// indexedPaths are the pages (paths after the language prefix) that search
// engines may index; each has a meta description. A path ending in "/"
// stands for the pages under it. Games, replays, players and the account
// pages are not indexed.
var indexedPaths = []string{route.HomePattern, route.NewGamePattern, route.RulesPattern, route.VariantsPattern, route.VariantsPattern + "/",
	route.HistoryPattern, route.TutorialsPattern, route.TutorialsPattern + "/"}

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
func defaultDescription(l *localizer, path string) string {
	if path == route.NewGamePattern {
		return l.T("new_game_description")
	}
	return ""
}

// robots answers /robots.txt: everything may be crawled except the API;
// game pages say noindex themselves, and the sitemap lists the pages.
func (h *handler) robots(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.String(http.StatusOK, "User-agent: *\nDisallow: /api/\n\nSitemap: "+h.base+"/sitemap.xml\n")
}

// fixedAsset serves an embedded file at the fixed address browsers ask
// for without a link (/favicon.ico, /apple-touch-icon.png).
func (h *handler) fixedAsset(name string) echo.HandlerFunc {
	return func(c echo.Context) error {
		a := h.assets.ByURL(h.assets.URL(name))
		if a == nil {
			return errNotFound
		}
		c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=604800")
		return c.Blob(http.StatusOK, a.ContentType, a.Body)
	}
}

// manifestIcon is an icon of the web app manifest.
type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose,omitempty"`
}

// manifest answers the web app manifest, which lets a phone install the
// site on its home screen.
func (h *handler) manifest(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	l := h.localizers[langOf(c)]
	body, err := json.Marshal(map[string]any{
		"name":             "Oware",
		"short_name":       "Oware",
		"description":      l.T("home_description"),
		"start_url":        "/",
		"scope":            "/",
		"display":          "standalone",
		"background_color": "#f6f1e9",
		"theme_color":      "#5a3417",
		"icons": []manifestIcon{
			{Src: h.assets.URL("icon.svg"), Sizes: "any", Type: "image/svg+xml"},
			{Src: h.assets.URL("icon-192.png"), Sizes: "192x192", Type: "image/png"},
			{Src: h.assets.URL("icon-512.png"), Sizes: "512x512", Type: "image/png"},
			{Src: h.assets.URL("icon-maskable-512.png"), Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
		},
	})
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, "application/manifest+json", body)
}

// themeCookie keeps the colour theme a visitor chose in this browser:
// "light" or "dark" (no cookie: the system's). app.js writes it too, so
// it is readable by scripts.
const themeCookie = "theme"

// theme returns the theme the request's cookie chose, or "".
func theme(c echo.Context) string {
	if ck, err := c.Cookie(themeCookie); err == nil && (ck.Value == "light" || ck.Value == "dark") {
		return ck.Value
	}
	return ""
}

// themeForm keeps the chosen theme ("light", "dark"; "system" forgets the
// choice) and goes back to the page of the form (field next).
func (h *handler) themeForm(c echo.Context) error {
	ck := &http.Cookie{Name: themeCookie, Path: "/", SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(h.base, "https://")}
	switch t := c.FormValue("theme"); t {
	case "light", "dark":
		ck.Value, ck.MaxAge = t, int((365 * 24 * time.Hour).Seconds())
	case "system":
		ck.MaxAge = -1
	default:
		return errBadRequest
	}
	c.SetCookie(ck)
	next := localPath(c.FormValue("next"))
	if next == "" {
		next = route.Home(langOf(c))
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// root sends / to the home page in the visitor's language: the account's
// preferred one, else the best match of Accept-Language.
func (h *handler) root(c echo.Context) error {
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	if u := h.user(c); u != nil && validLang(u.Language) {
		return c.Redirect(http.StatusFound, route.Home(u.Language))
	}
	return c.Redirect(http.StatusFound, route.Home(matchLang(c.Request().Header.Get("Accept-Language"))))
}

// invite sends the invitation link /join/{id} to the join page in the
// visitor's language.
func (h *handler) invite(c echo.Context) error {
	if !game.ValidID(c.Param("id")) {
		return errNotFound
	}
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	lang := matchLang(c.Request().Header.Get("Accept-Language"))
	return c.Redirect(http.StatusFound, route.GameJoin(lang, c.Param("id")))
}

// healthz is the liveness check: 200 {"status":"ok"} whenever the process
// answers, without asking the database (a restart of the database is no
// reason to restart the server).
func (h *handler) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz is the readiness check: 200 {"status":"ready"} when the database
// answers within 3 s and its schema is at the latest embedded migration
// (game.Service.Ready), else 503 with Retry-After and {"status":"database
// unavailable"}, {"status":"migrations pending"} or {"status":"schema newer
// than this server"} (a newer release migrated the database).
func (h *handler) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	err := h.games.Ready(ctx)
	if err == nil {
		return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
	}
	h.log.WarnContext(c.Request().Context(), "not ready", "err", err)
	status := "database unavailable"
	switch {
	case errors.Is(err, game.ErrNotMigrated):
		status = "migrations pending"
	case errors.Is(err, game.ErrSchemaNewer):
		status = "schema newer than this server"
	}
	setRetryAfter(c, retryAfter)
	return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": status})
}

// static serves an embedded asset by its content-hashed URL, cached for
// ever: compressed as it was at start when the client takes gzip, always
// with its length.
func (h *handler) static(c echo.Context) error {
	a := h.assets.ByURL(c.Request().URL.Path)
	if a == nil {
		return errNotFound
	}
	hdr := c.Response().Header()
	hdr.Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
	body := a.Body
	if a.Gzip != nil {
		hdr.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		if acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
			hdr.Set(echo.HeaderContentEncoding, "gzip")
			body = a.Gzip
		}
	}
	hdr.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	return c.Blob(http.StatusOK, a.ContentType, body)
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip (or
// any encoding) with a quality above 0.
func acceptsGzip(header string) bool {
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
