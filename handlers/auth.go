package handlers

import (
	"github.com/labstack/echo/v4"

	"oware/models"
)

// Session values of a logged-in visitor.
const (
	sessUser  = "uid"   // the User.ID (uint)
	sessEpoch = "epoch" // the User.Epoch when the session was made (int)
)

// currentUser returns the logged-in account of the request, or nil for a
// visitor. A session whose account was deleted, or whose epoch is older
// than the account's (logout, password change), counts as a visitor. The
// answer is remembered for the rest of the request.
func (h *handler) currentUser(c echo.Context) *models.User {
	if u, ok := c.Get("user").(*models.User); ok {
		return u
	}
	if _, done := c.Get("user_checked").(bool); done {
		return nil
	}
	c.Set("user_checked", true)
	s, _ := h.sessions.Get(c.Request(), sessionName)
	id, _ := s.Values[sessUser].(uint)
	epoch, _ := s.Values[sessEpoch].(int)
	if id == 0 {
		return nil
	}
	u, err := h.db.UserByID(c.Request().Context(), id)
	if err != nil || u.Deleted() || u.Epoch != epoch {
		return nil
	}
	c.Set("user", u)
	return u
}

// userName returns the logged-in player's name for the page header, or "".
func (h *handler) userName(c echo.Context) string {
	if u := h.currentUser(c); u != nil {
		return u.Username
	}
	return ""
}
