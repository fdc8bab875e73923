package core

import (
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/views"
)

// The board and sound settings (issue 24): kept in the account of a
// player (the board in one column, as encodeBoard writes it; the sound in
// the move sound setting), in the boardCookie of a visitor without one.
// Every page's layout applies them (views.Page.Board).

// BoardCookie keeps a visitor's board settings in their browser, as
// encodeBoard writes them with the sound ("on" or "off") after a fourth
// dot.
const BoardCookie = "board"

// EncodeBoard writes the board settings s (without the sound) as
// "counts.speed.theme"; "" for the defaults.
func EncodeBoard(s views.BoardSettings) string {
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
func (h *Handlers) boardSettings(c echo.Context) views.BoardSettings {
	if u := h.Visit(c).User; u != nil {
		s := decodeBoard(u.Board)
		s.Sound = u.MoveSound
		return s
	}
	ck, err := c.Cookie(BoardCookie)
	if err != nil {
		return views.DefaultBoard
	}
	return decodeBoard(ck.Value)
}

// boardKey is what of the board settings a page kept for visitors
// without an account depends on (pageCache's key).
func boardKey(c echo.Context) string {
	if ck, err := c.Cookie(BoardCookie); err == nil {
		s := decodeBoard(ck.Value)
		return EncodeBoard(s)
	}
	return ""
}
