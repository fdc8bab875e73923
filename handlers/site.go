package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/models"
	"oware/views"
)

// root sends / to the home page in the visitor's language: the account's
// preferred one, else the best match of Accept-Language.
func (h *handler) root(c echo.Context) error {
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	if u := h.visit(c).user; u != nil && validLang(u.Language) {
		return c.Redirect(http.StatusFound, "/"+u.Language+"/")
	}
	return c.Redirect(http.StatusFound, "/"+matchLang(c.Request().Header.Get("Accept-Language"))+"/")
}

// home is the home page.
func (h *handler) home(c echo.Context) error {
	p := h.page(c, "home_title", "/")
	p.Description = p.L.T("home_description")
	return render(c, http.StatusOK, views.Home(p))
}

// invite sends the invitation link /join/{id} to the join page in the
// visitor's language.
func (h *handler) invite(c echo.Context) error {
	if !models.ValidKey(c.Param("id"), 12) {
		return errNotFound
	}
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	lang := matchLang(c.Request().Header.Get("Accept-Language"))
	return c.Redirect(http.StatusFound, "/"+lang+"/games/"+c.Param("id")+"/join")
}

// healthz answers 200 when the database answers.
func (h *handler) healthz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	if err := h.db.Ping(ctx); err != nil {
		h.log.Error("healthz", "err", err)
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "database unavailable"})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
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
