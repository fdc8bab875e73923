package web

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// errBadSetting refuses a settings form with a value that is none of the
// choices.
var errBadSetting = &core.UserError{Status: http.StatusBadRequest, Key: "err_bad_setting"}

// settingsPage shows the board and sound settings form.
func (h *Site) settingsPage(c echo.Context) error {
	return h.renderSettings(c, c.QueryParam("saved") != "")
}

// renderSettings renders the settings page, saved: after a change.
func (h *Site) renderSettings(c echo.Context, saved bool) error {
	p := h.Page(c, "title_settings", route.SettingsPattern)
	v := views.SettingsView{Settings: p.Board, Account: p.User != "", Saved: saved}
	// The preview: the start after South sowed C, as on the home page.
	r, _ := engine.RulesByName("abapa")
	pos, mv, err := r.Play(r.Start(), 2)
	if err != nil {
		return err
	}
	v.Preview, v.Last, v.Sowing = pos, mv.Pit, mv.Sown
	return core.Render(c, http.StatusOK, views.SettingsPage(p, v))
}

// settingsForm keeps the board and sound settings of the form (fields
// counts, speed, theme and sound, each one of its choices): in the
// account of a player, else in the browser's cookie.
func (h *Site) settingsForm(c echo.Context) error {
	s := views.BoardSettings{Counts: c.FormValue("counts"), Speed: c.FormValue("speed"), Theme: c.FormValue("theme")}
	sound := c.FormValue("sound")
	if !slices.Contains(views.BoardCounts, s.Counts) || !slices.Contains(views.BoardSpeeds, s.Speed) ||
		!slices.Contains(views.BoardThemes, s.Theme) || (sound != "on" && sound != "off") {
		return errBadSetting
	}
	s.Sound = sound == "on"
	v := h.Visit(c)
	if v.User != nil {
		if err := h.Accounts.SetBoard(c.Request().Context(), v.User.ID, core.EncodeBoard(s), s.Sound); err != nil {
			return err
		}
	} else {
		c.SetCookie(&http.Cookie{Name: core.BoardCookie, Value: boardCookieValue(s), Path: "/",
			MaxAge: int((365 * 24 * time.Hour).Seconds()), SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(h.Base, "https://")})
	}
	return core.Redirect(c, route.Settings(v.Lang)+"?saved=1")
}

// boardCookieValue is the cookie's value of settings s: the three board
// settings and the sound.
func boardCookieValue(s views.BoardSettings) string {
	return s.Counts + "." + s.Speed + "." + s.Theme + "." + map[bool]string{true: "on", false: "off"}[s.Sound]
}
