package web_test

import (
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestAccountMenuLabel: the header's account menu of a visitor is labelled
// the account ("Account", "Účet"), not "Log in", the first of its items;
// a logged-in player's shows their name.
func TestAccountMenuLabel(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		for lang, want := range map[string]string{
			"en": `<details class="drop account"><summary>Account</summary><nav aria-label="Account"><a href="/en/login">Log in</a>`,
			"it": `<details class="drop account"><summary>Account</summary><nav aria-label="Account"><a href="/it/login">Accedi</a>`,
			"cs": `<details class="drop account"><summary>Účet</summary><nav aria-label="Účet"><a href="/cs/login">Přihlásit se</a>`,
		} {
			if _, _, page := s.Get(nil, "/"+lang+"/"); !strings.Contains(page, want) {
				t.Errorf("/%s/: no %s", lang, want)
			}
		}
		c := s.Account("menuowner")
		_, _, page := s.Get(c, "/en/")
		if want := `<summary><span class="vh">Account: </span><span class="me">menuowner</span></summary>`; !strings.Contains(page, want) {
			t.Errorf("logged in: no %s", want)
		}
	})
}
