package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"net/http"
	"strings"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
)

// sessionName is the name of the session cookie.
const sessionName = "oware"

// maxSeats is how many games' seat tokens a session keeps (oldest dropped),
// so the cookie stays well under 4 KB.
const maxSeats = 24

// newCookieStore returns the signed and encrypted cookie store of the
// sessions; its hash and encryption keys are derived from secret.
func newCookieStore(secret []byte, secure bool) *sessions.CookieStore {
	derive := func(purpose string) []byte {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(purpose))
		return m.Sum(nil)
	}
	s := sessions.NewCookieStore(derive("oware session hash key"), derive("oware session encryption key"))
	s.Options = &sessions.Options{
		Path:     "/",
		MaxAge:   90 * 24 * 3600,
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	}
	return s
}

// seatToken returns the seat token the visitor's session holds for game id,
// or "".
func (h *handler) seatToken(c echo.Context, id string) string {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	list, _ := s.Values["seats"].(string)
	for _, e := range strings.Fields(list) {
		if gid, tok, ok := strings.Cut(e, ":"); ok && gid == id {
			return tok
		}
	}
	return ""
}

// keepSeat stores the seat token of game id in the visitor's session.
func (h *handler) keepSeat(c echo.Context, id, token string) error {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	list, _ := s.Values["seats"].(string)
	entries := []string{}
	for _, e := range strings.Fields(list) {
		if gid, _, _ := strings.Cut(e, ":"); gid != id {
			entries = append(entries, e)
		}
	}
	entries = append(entries, id+":"+token)
	if len(entries) > maxSeats {
		entries = entries[len(entries)-maxSeats:]
	}
	s.Values["seats"] = strings.Join(entries, " ")
	return s.Save(c.Request(), c.Response())
}

// flash keeps the message id of a refusal for the next page the visitor
// sees (the no-JavaScript flow redirects after a POST).
func (h *handler) flash(c echo.Context, key string) error {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	s.Values["flash"] = key
	return s.Save(c.Request(), c.Response())
}

// takeFlash returns and forgets the kept message id, or "".
func (h *handler) takeFlash(c echo.Context) string {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	key, _ := s.Values["flash"].(string)
	if key != "" {
		delete(s.Values, "flash")
		if err := s.Save(c.Request(), c.Response()); err != nil {
			h.log.Error("session", "err", err)
		}
	}
	return key
}
