package handlers

import (
	"context"
	"net/http"
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

// static serves an embedded asset by its content-hashed URL, cached for ever.
func (h *handler) static(c echo.Context) error {
	a := h.assets.ByURL(c.Request().URL.Path)
	if a == nil {
		return errNotFound
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
	return c.Blob(http.StatusOK, a.ContentType, a.Body)
}
