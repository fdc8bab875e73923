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

// maxSeats is how many games' seat tokens a session keeps, so the cookie
// stays well under 4 KB; seats of finished and waiting games make room for
// new ones.
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

// keepSeat stores the seat token of game id in the visitor's session. When
// the session is full it forgets the seats of finished games, then of games
// still waiting for an opponent, oldest first; the seat of a game being
// played is never forgotten (roomForSeat refuses a new seat instead).
func (h *handler) keepSeat(c echo.Context, id, token string) error {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	entries := h.makeRoom(c, otherSeats(s, id))
	entries = append(entries, id+":"+token)
	s.Values["seats"] = strings.Join(entries, " ")
	h.linkNewSeat(c, id, token)
	return s.Save(c.Request(), c.Response())
}

// roomForSeat refuses a new seat (409) while the session holds maxSeats
// seats of games being played.
func (h *handler) roomForSeat(c echo.Context) error {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	if len(h.makeRoom(c, otherSeats(s, ""))) >= maxSeats {
		return &userError{http.StatusConflict, "err_too_many_games"}
	}
	return nil
}

// otherSeats returns the session's "id:token" entries, oldest first,
// without game id's.
func otherSeats(s *sessions.Session, id string) []string {
	list, _ := s.Values["seats"].(string)
	var entries []string
	for _, e := range strings.Fields(list) {
		if gid, _, _ := strings.Cut(e, ":"); gid != id {
			entries = append(entries, e)
		}
	}
	return entries
}

// makeRoom drops entries from a full list until one more fits: first those
// of finished (or missing) games, then those of waiting games, oldest
// first. Seats of games being played stay, so the list may stay full.
func (h *handler) makeRoom(c echo.Context, entries []string) []string {
	if len(entries) < maxSeats {
		return entries
	}
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i], _, _ = strings.Cut(e, ":")
	}
	status, err := h.db.GameStatuses(c.Request().Context(), ids)
	if err != nil {
		h.log.Error("session seats", "err", err)
		return entries[len(entries)-maxSeats+1:]
	}
	for _, drop := range []string{"over", "waiting"} {
		var kept []string
		for i, e := range entries {
			st, ok := status[ids[i]]
			if len(entries)-(i-len(kept)) >= maxSeats && (!ok || st == drop) {
				continue // dropped: the list is still full
			}
			kept = append(kept, e)
		}
		entries = kept
	}
	return entries
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
