package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/handlers/api"
	"oware/handlers/core"
	"oware/handlers/live"
	"oware/handlers/web"
	"oware/route"
)

// routes is the site's route table: each surface adds its own routes (the
// pages, the JSON API under /api/v1, the event streams), those under a
// language prefix to one group, whose language core.CheckLang checks. The
// group has no middleware of its own, so Echo adds it no catch-all 404
// route: a path served with other methods gets Echo's 405 with Allow.
func routes(e *echo.Echo, site *web.Site, jsonAPI *api.API, streams *live.Server) {
	e.Use(core.CheckLang)
	g := e.Group(route.Lang)
	g.GET("", func(c echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, route.Home(c.Param("lang")))
	})
	site.Routes(e, g)
	jsonAPI.Routes(e.Group("/api/v1"))
	streams.Routes(g)
}
