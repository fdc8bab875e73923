package core

import (
	"net/http"

	"oware/tournament"
)

// The tournaments in the JSON API (routes.go; docs/tournaments.md).
// Creating, joining, withdrawing and reading one's own game need the
// session cookie of a logged-in account, as rated challenges do; the
// CSRF check refuses such a POST from another site (requireCSRFToken:
// its Origin), and a body must be application/json, which a form of
// another site cannot send.

// ErrNeedsAccount: the request needs a logged-in account (401).
var ErrNeedsAccount = &UserError{http.StatusUnauthorized, "trn_err_account"}

// ResultOf writes an outcome as the API's result (nil while played and
// for a bye or a void game).
func ResultOf(o tournament.Outcome) *string {
	var s string
	switch o {
	case tournament.SouthWins:
		s = "south"
	case tournament.NorthWins:
		s = "north"
	case tournament.Draw:
		s = "draw"
	default:
		return nil
	}
	return &s
}
