package handlers

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/route"
	"oware/views"
)

// The board and sound settings (issue 24): kept in the account of a
// player (the board in one column, as encodeBoard writes it; the sound in
// the move sound setting), in the boardCookie of a visitor without one.
// Every page's layout applies them (views.Page.Board).

// boardCookie keeps a visitor's board settings in their browser, as
// encodeBoard writes them with the sound ("on" or "off") after a fourth
// dot.
const boardCookie = "board"

// errBadSetting refuses a settings form with a value that is none of the
// choices.
var errBadSetting = &userError{http.StatusBadRequest, "err_bad_setting"}

// encodeBoard writes the board settings s (without the sound) as
// "counts.speed.theme"; "" for the defaults.
func encodeBoard(s views.BoardSettings) string {
	d := views.DefaultBoard
	if s.Counts == d.Counts && s.Speed == d.Speed && s.Theme == d.Theme {
		return ""
	}
	return s.Counts + "." + s.Speed + "." + s.Theme
}

// decodeBoard reads settings as encodeBoard (or the cookie) wrote them;
// any part missing or unknown is the default.
func decodeBoard(enc string) views.BoardSettings {
	s := views.DefaultBoard
	parts := strings.Split(enc, ".")
	for i, f := range []struct {
		to      *string
		choices []string
	}{{&s.Counts, views.BoardCounts}, {&s.Speed, views.BoardSpeeds}, {&s.Theme, views.BoardThemes}} {
		if i < len(parts) && slices.Contains(f.choices, parts[i]) {
			*f.to = parts[i]
		}
	}
	if len(parts) > 3 {
		s.Sound = parts[3] != "off"
	}
	return s
}

// boardSettings returns the request's visitor's board and sound settings.
func (h *handler) boardSettings(c echo.Context) views.BoardSettings {
	if u := h.visit(c).user; u != nil {
		s := decodeBoard(u.Board)
		s.Sound = u.MoveSound
		return s
	}
	ck, err := c.Cookie(boardCookie)
	if err != nil {
		return views.DefaultBoard
	}
	return decodeBoard(ck.Value)
}

// boardKey is what of the board settings a page kept for visitors
// without an account depends on (pageCache's key).
func boardKey(c echo.Context) string {
	if ck, err := c.Cookie(boardCookie); err == nil {
		s := decodeBoard(ck.Value)
		return encodeBoard(s)
	}
	return ""
}

// settingsPage shows the board and sound settings form.
func (h *handler) settingsPage(c echo.Context) error {
	return h.renderSettings(c, c.QueryParam("saved") != "")
}

// renderSettings renders the settings page, saved: after a change.
func (h *handler) renderSettings(c echo.Context, saved bool) error {
	p := h.page(c, "title_settings", route.SettingsPattern)
	v := views.SettingsView{Settings: p.Board, Account: p.User != "", Saved: saved}
	// The preview: the start after South sowed C, as on the home page.
	r, _ := engine.RulesByName("abapa")
	pos, mv, err := r.Play(r.Start(), 2)
	if err != nil {
		return err
	}
	v.Preview, v.Last, v.Sowing = pos, mv.Pit, mv.Sown
	return render(c, http.StatusOK, views.SettingsPage(p, v))
}

// settingsForm keeps the board and sound settings of the form (fields
// counts, speed, theme and sound, each one of its choices): in the
// account of a player, else in the browser's cookie.
func (h *handler) settingsForm(c echo.Context) error {
	s := views.BoardSettings{Counts: c.FormValue("counts"), Speed: c.FormValue("speed"), Theme: c.FormValue("theme")}
	sound := c.FormValue("sound")
	if !slices.Contains(views.BoardCounts, s.Counts) || !slices.Contains(views.BoardSpeeds, s.Speed) ||
		!slices.Contains(views.BoardThemes, s.Theme) || (sound != "on" && sound != "off") {
		return errBadSetting
	}
	s.Sound = sound == "on"
	v := h.visit(c)
	if v.user != nil {
		if err := h.accounts.SetBoard(c.Request().Context(), v.user.ID, encodeBoard(s), s.Sound); err != nil {
			return err
		}
	} else {
		c.SetCookie(&http.Cookie{Name: boardCookie, Value: boardCookieValue(s), Path: "/",
			MaxAge: int((365 * 24 * time.Hour).Seconds()), SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(h.base, "https://")})
	}
	return redirect(c, route.Settings(v.lang)+"?saved=1")
}

// boardCookieValue is the cookie's value of settings s: the three board
// settings and the sound.
func boardCookieValue(s views.BoardSettings) string {
	return s.Counts + "." + s.Speed + "." + s.Theme + "." + map[bool]string{true: "on", false: "off"}[s.Sound]
}
