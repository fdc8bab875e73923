package web

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
	"oware/handlers/core"
	"oware/route"
)

// siteRoutes adds what browsers, phones and crawlers ask a site for:
// /robots.txt, the favicon and home-screen icon at their fixed addresses,
// the web app manifest, and the theme choice.
func (h *Site) siteRoutes(e *echo.Echo) {
	e.GET("/robots.txt", h.robots)
	e.GET(route.FaviconPattern, h.fixedAsset("favicon.ico"))
	e.GET(route.AppleTouchIconPattern, h.fixedAsset("apple-touch-icon.png"))
	e.GET(route.ManifestPattern, h.manifest)
	e.POST(route.ThemePattern, h.themeForm)
}

// robots answers /robots.txt: everything may be crawled except the API;
// game pages say noindex themselves, and the sitemap lists the pages.
func (h *Site) robots(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.String(http.StatusOK, "User-agent: *\nDisallow: /api/\n\nSitemap: "+h.Base+"/sitemap.xml\n")
}

// fixedAsset serves an embedded file at the fixed address browsers ask
// for without a link (/favicon.ico, /apple-touch-icon.png).
func (h *Site) fixedAsset(name string) echo.HandlerFunc {
	return func(c echo.Context) error {
		a := h.Assets.ByURL(h.Assets.URL(name))
		if a == nil {
			return core.ErrNotFound
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
func (h *Site) manifest(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	l := h.Localizers[core.LangOf(c)]
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
			{Src: h.Assets.URL("icon.svg"), Sizes: "any", Type: "image/svg+xml"},
			{Src: h.Assets.URL("icon-192.png"), Sizes: "192x192", Type: "image/png"},
			{Src: h.Assets.URL("icon-512.png"), Sizes: "512x512", Type: "image/png"},
			{Src: h.Assets.URL("icon-maskable-512.png"), Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
		},
	})
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, "application/manifest+json", body)
}

// themeForm keeps the chosen theme ("light", "dark"; "system" forgets the
// choice) and goes back to the page of the form (field next).
func (h *Site) themeForm(c echo.Context) error {
	ck := &http.Cookie{Name: core.ThemeCookie, Path: "/", SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(h.Base, "https://")}
	switch t := c.FormValue("theme"); t {
	case "light", "dark":
		ck.Value, ck.MaxAge = t, int((365 * 24 * time.Hour).Seconds())
	case "system":
		ck.MaxAge = -1
	default:
		return core.ErrBadRequest
	}
	c.SetCookie(ck)
	next := localPath(c.FormValue("next"))
	if next == "" {
		next = route.Home(core.LangOf(c))
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// root sends / to the home page in the visitor's language: the account's
// preferred one, else the best match of Accept-Language.
func (h *Site) root(c echo.Context) error {
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	if u := h.User(c); u != nil && core.ValidLang(u.Language) {
		return c.Redirect(http.StatusFound, route.Home(u.Language))
	}
	return c.Redirect(http.StatusFound, route.Home(core.MatchLang(c.Request().Header.Get("Accept-Language"))))
}

// invite sends the invitation link /join/{id} to the join page in the
// visitor's language.
func (h *Site) invite(c echo.Context) error {
	if !game.ValidID(c.Param("id")) {
		return core.ErrNotFound
	}
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	lang := core.MatchLang(c.Request().Header.Get("Accept-Language"))
	return c.Redirect(http.StatusFound, route.GameJoin(lang, c.Param("id")))
}

// healthz is the liveness check: 200 {"status":"ok"} whenever the process
// answers, without asking the database (a restart of the database is no
// reason to restart the server).
func (h *Site) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz is the readiness check: 200 {"status":"ready"} when the database
// answers within 3 s and its schema is at the latest embedded migration
// (game.Service.Ready), else 503 with Retry-After and {"status":"database
// unavailable"}, {"status":"migrations pending"} or {"status":"schema newer
// than this server"} (a newer release migrated the database).
func (h *Site) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	err := h.Games.Ready(ctx)
	if err == nil {
		return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
	}
	h.Log.WarnContext(c.Request().Context(), "not ready", "err", err)
	status := "database unavailable"
	switch {
	case errors.Is(err, game.ErrNotMigrated):
		status = "migrations pending"
	case errors.Is(err, game.ErrSchemaNewer):
		status = "schema newer than this server"
	}
	core.SetRetryAfter(c, core.RetryAfter)
	return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": status})
}

// static serves an embedded asset by its content-hashed URL, cached for
// ever: compressed as it was at start when the client takes gzip, always
// with its length.
func (h *Site) static(c echo.Context) error {
	a := h.Assets.ByURL(c.Request().URL.Path)
	if a == nil {
		return core.ErrNotFound
	}
	hdr := c.Response().Header()
	hdr.Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
	body := a.Body
	if a.Gzip != nil {
		hdr.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		if core.AcceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
			hdr.Set(echo.HeaderContentEncoding, "gzip")
			body = a.Gzip
		}
	}
	hdr.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	return c.Blob(http.StatusOK, a.ContentType, body)
}
