package web_test

import (
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestTurnEmail: a player who asked for it gets an e-mail when it comes
// to be their turn in a correspondence game (not in a real-time one, not
// a player who did not ask), with the game's link and an unsubscribe
// link; the link's page asks first (a GET changes nothing), its button
// turns the mails off; an unknown key is a 404.
func TestTurnEmail(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s, m, smtp := newMailSite(t, db)
		alice, bob := s.Account("alice"), s.Account("bob")
		s.SetEmail(alice, "alice@example.org", handlerstest.TestPassword)
		s.SetEmail(bob, "bob@example.org", handlerstest.TestPassword)
		_, _, page := s.Get(bob, "/en/account")
		if !strings.Contains(page, `id="turn-email"`) || strings.Contains(page, `id="turn-email" name="turn_email" value="on" checked`) {
			t.Fatal("the account page has no turn e-mail setting, or it is on by default")
		}
		if code, _, _ := s.Post(bob, "/en/account/turn-email", url.Values{"_csrf": {s.Csrf(page)}, "turn_email": {"on"}}, nil); code != http.StatusSeeOther {
			t.Fatalf("turn e-mail on: %d", code)
		}
		game := func(clock string) (handlerstest.Seated, handlerstest.Seated) {
			_, _, page := s.Get(alice, "/en/games/new")
			_, hdr, _ := s.Post(alice, "/en/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {"abapa"}, "seat": {"south"}, "clock": {clock}}, nil)
			south, north := handlerstest.Seated{C: alice, Game: hdr.Get("Location")}, handlerstest.Seated{C: bob, Game: hdr.Get("Location")}
			_, _, page = s.Get(bob, south.Game+"/join")
			s.Post(bob, south.Game+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil)
			return south, north
		}
		mails := func() int { m.Wait(); return len(smtp.Mails()) }
		live, _ := game("none")
		s.Move(live, "C", nil)
		if n := mails(); n != 0 {
			t.Errorf("%d mails after a move in a real-time game", n)
		}
		south, north := game("1d")
		s.Move(south, "C", nil)
		if n := mails(); n != 1 {
			t.Fatalf("%d mails after alice's move, want 1 to bob", n)
		}
		mail := smtp.Mails()[0]
		text, err := mail.Text()
		if err != nil {
			t.Fatal(err)
		}
		subj, _ := new(mime.WordDecoder).DecodeHeader(mail.Header.Get("Subject"))
		host := strings.TrimPrefix(s.Srv.URL, "http://")
		if mail.To[0] != "bob@example.org" || subj != "Your turn in Oware on "+host || !strings.Contains(text, "alice has moved") ||
			!strings.Contains(text, s.Srv.URL+south.Game+"\n") {
			t.Errorf("the mail to %v, %q:\n%s", mail.To, subj, text)
		}
		s.Move(north, "f", nil) // alice did not ask
		if n := mails(); n != 1 {
			t.Errorf("%d mails after bob's move, want still 1", n)
		}
		link := regexp.MustCompile(`/en/unsubscribe/[a-z2-7]{24}`).FindString(text)
		if link == "" {
			t.Fatalf("no unsubscribe link in:\n%s", text)
		}
		reader := s.Browser() // whoever opens the mail
		code, _, page := s.Get(reader, link)
		if u, _ := db.UserByName(t.Context(), "bob"); code != http.StatusOK || !u.TurnEmail || !strings.Contains(page, "Stop these e-mails") {
			t.Errorf("the link's page: %d, mails on %v", code, u.TurnEmail)
		}
		code, _, page = s.Post(reader, link, url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if u, _ := db.UserByName(t.Context(), "bob"); code != http.StatusOK || u.TurnEmail || !strings.Contains(page, "no more e-mails") {
			t.Errorf("unsubscribe: %d, mails on %v", code, u.TurnEmail)
		}
		s.Move(south, "B", nil)
		if n := mails(); n != 1 {
			t.Errorf("%d mails after unsubscribing, want still 1", n)
		}
		_, _, page = s.Get(reader, link)
		if code, _, _ := s.Post(reader, "/en/unsubscribe/aaaaaaaaaaaaaaaaaaaaaaaa", url.Values{"_csrf": {s.Csrf(page)}}, nil); code != http.StatusNotFound {
			t.Errorf("an unknown key: %d, want 404", code)
		}
	})
}
