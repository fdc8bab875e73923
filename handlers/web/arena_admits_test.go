package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestArenaAdmitsForm (issue 35): the create form's choice of who may
// play is stored and shown; a person sees the bots-only note in place of
// the join button, and a join sent all the same is refused with the
// reason, in Czech too; a bad choice renders the form again with its
// message.
func TestArenaAdmitsForm(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		ama := s.Account("ama")
		_, _, page := s.Get(ama, "/en/tournaments")
		if !strings.Contains(page, `id="trn-admits-people" name="admits" value="people" checked`) {
			t.Errorf("people only is not the default:\n%s", page)
		}
		form := url.Values{"_csrf": {s.Csrf(page)}, "name": {"Engines"}, "kind": {"arena"}, "rules": {"abapa"},
			"clock": {"1+0"}, "starts_in": {"0"}, "duration": {"30"}, "rounds": {"5"}, "rated": {"on"}, "admits": {"robots"}}
		if code, _, body := s.Post(ama, "/en/tournaments", form, nil); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "Choose who may play: people only, bots only, or bots and people.") {
			t.Errorf("admits robots: %d", code)
		}
		form.Set("admits", "bots")
		code, hdr, _ := s.Post(ama, "/en/tournaments", form, nil)
		loc := hdr.Get("Location")
		if code != http.StatusSeeOther {
			t.Fatalf("create: %d", code)
		}
		_, _, page = s.Get(ama, loc)
		id := strings.TrimPrefix(loc, "/en/tournaments/")
		if !strings.Contains(page, "Bots only") || !strings.Contains(page, "oware-engine bot --arena "+id) ||
			strings.Contains(page, `action="`+loc+`/join"`) {
			t.Errorf("a bots' arena's page:\n%s", page)
		}
		code, _, body := s.Post(ama, "/cs/tournaments/"+id+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusForbidden || !strings.Contains(body, "V tomto turnaji hrají jen boti.") {
			t.Errorf("a person joining a bots' arena: %d", code)
		}
	})
}
