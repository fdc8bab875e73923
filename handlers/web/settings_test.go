package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestBoardSettings: a visitor without an account chooses counts on
// hover, fast sowing, the slate board and no sound (a form, without
// JavaScript): the browser keeps them, every page's html element carries
// them (also a page kept for visitors, which another visitor still gets
// plain) and the game page's sound is off; a value that is none of the
// choices is refused with a clear message and changes nothing. A
// player's choices are kept in the account: another browser where they
// log in gets them.
func TestBoardSettings(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		save := func(c *http.Client, counts, speed, theme, sound string) (int, http.Header, string) {
			_, _, page := s.Get(c, "/en/settings")
			return s.Post(c, "/en/settings", url.Values{"_csrf": {s.Csrf(page)}, "counts": {counts}, "speed": {speed}, "theme": {theme}, "sound": {sound}}, nil)
		}
		const chosen = `<html lang="en" data-counts="hover" data-speed="fast" data-board="slate">`
		guest, other := s.Browser(), s.Browser()
		_, _, page := s.Get(guest, "/en/settings")
		for _, id := range []string{"set-counts-always", "set-speed-normal", "set-theme-wood", "set-sound-on"} {
			if !strings.Contains(page, `id="`+id+`" name=`) || !strings.Contains(page[strings.Index(page, `id="`+id+`"`):][:80], "checked") {
				t.Errorf("the default %s is not checked", id)
			}
		}
		s.Get(other, "/en/rules") // kept for visitors
		if code, hdr, _ := save(guest, "hover", "fast", "slate", "off"); code != http.StatusSeeOther || hdr.Get("Location") != "/en/settings?saved=1" {
			t.Fatalf("save: %d %s", code, hdr.Get("Location"))
		}
		for _, path := range []string{"/en/rules", "/en/", "/en/settings?saved=1"} {
			if _, _, page := s.Get(guest, path); !strings.Contains(page, chosen) {
				t.Errorf("%s: the html element without the settings", path)
			}
		}
		if _, _, page := s.Get(other, "/en/rules"); !strings.Contains(page, `<html lang="en">`) {
			t.Error("another visitor got the kept page with the first one's settings")
		}
		south, _ := s.FormGameWith(guest, s.Browser(), "en", "abapa")
		if _, _, page := s.Get(guest, south.Game); !strings.Contains(page, `data-sound="off"`) {
			t.Error("the game page's sound is not off")
		}
		code, _, page := save(guest, "hover", "warp", "slate", "off")
		if code != http.StatusBadRequest || !strings.Contains(page, "That setting does not exist.") {
			t.Errorf("a speed of warp: %d, want 400 with the message", code)
		}
		if _, _, page := s.Get(guest, "/en/rules"); !strings.Contains(page, chosen) {
			t.Error("the refused form changed the settings")
		}

		alice := s.Account("alice")
		if code, _, _ := save(alice, "hover", "fast", "slate", "off"); code != http.StatusSeeOther {
			t.Fatalf("alice saves: %d", code)
		}
		again := s.Browser()
		if code, _, _ := s.Login(again, "en", "alice", handlerstest.TestPassword); code != http.StatusSeeOther {
			t.Fatalf("login: %d", code)
		}
		_, _, page = s.Get(again, "/en/settings")
		if !strings.Contains(page, chosen) || !strings.Contains(page, "Your account keeps these settings") {
			t.Error("alice's other browser does not get her settings from the account")
		}
		if code, _, _ := save(again, "always", "normal", "wood", "on"); code != http.StatusSeeOther {
			t.Fatalf("alice resets: %d", code)
		}
		if _, _, page := s.Get(alice, "/en/rules"); !strings.Contains(page, `<html lang="en">`) {
			t.Error("the defaults saved in the account still show the slate board")
		}
		for _, lang := range []string{"cs", "it"} {
			code, _, page := s.Get(s.Browser(), "/"+lang+"/settings")
			checkPage(t, lang, "/"+lang+"/settings", code, page)
		}
	})
}
