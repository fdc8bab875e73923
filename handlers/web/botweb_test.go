package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

var acceptRe = regexp.MustCompile(`action="/en/lobby/challenges/([a-z2-7]{12})/accept"`)

// challengeBot sends bot a challenge from person's lobby form (casual,
// 5+3, person's seat) and returns its id as the bot's lobby page shows
// it.
func challengeBot(t *testing.T, s *handlerstest.Site, person, bot *http.Client, botName, seat string) string {
	t.Helper()
	code, hdr, _ := s.CreateChallenge(person, url.Values{"for": {botName}, "seat": {seat}})
	if code != http.StatusSeeOther || hdr.Get("Location") != "/en/lobby" {
		t.Fatalf("challenge %s: %d %q", botName, code, hdr.Get("Location"))
	}
	_, _, page := s.Get(bot, "/en/lobby")
	m := acceptRe.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the bot's lobby lists no challenge for it:\n%s", page)
	}
	return m[1]
}

// TestBotSessionRefusedOnTheWeb (issue 35): a bot plays through the Bot
// API only. Its logged-in browser sees its game as a spectator does; a
// move posted from it is refused with the localized reason and nothing is
// stored, and so are the forms that start play (a challenge, quick
// pairing, the computer, accepting a challenge); its token still moves.
func TestBotSessionRefusedOnTheWeb(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		ama := s.Account("ama")
		bot, token := s.BotAccount("deepseed")
		id := challengeBot(t, s, ama, bot, "deepseed", "north") // the bot moves first
		_, _, page := s.Get(bot, "/en/lobby")
		csrf := s.Csrf(page)
		refused := "This account is a bot: it plays through the Bot API only"
		code, _, body := s.Post(bot, "/en/lobby/challenges/"+id+"/accept", url.Values{"_csrf": {csrf}}, nil)
		if code != http.StatusForbidden || !strings.Contains(body, refused) {
			t.Errorf("the bot's browser accepts: %d", code)
		}
		for _, f := range []struct {
			path string
			form url.Values
		}{
			{"/en/lobby/challenges", url.Values{"rules": {"abapa"}, "seat": {"south"}, "clock": {"5+3"}, "for": {"ama"}}},
			{"/en/lobby/quick", url.Values{"clock": {"5+3"}}},
			{"/en/computer", url.Values{"rules": {"abapa"}, "level": {"2"}, "seat": {"south"}}},
			{"/en/games/new", url.Values{"rules": {"abapa"}, "seat": {"south"}}},
		} {
			f.form.Set("_csrf", csrf)
			if code, _, body := s.Post(bot, f.path, f.form, nil); code != http.StatusForbidden || !strings.Contains(body, refused) {
				t.Errorf("the bot's browser posts %s: %d", f.path, code)
			}
		}
		if code, body := s.Api(http.MethodPost, "/api/v1/bot/challenge/"+id+"/accept", token, nil); code != http.StatusOK {
			t.Fatalf("accept through the Bot API: %d %v", code, body)
		}
		code, hdr, _ := s.Get(ama, "/en/lobby")
		game := hdr.Get("Location")
		if code != http.StatusSeeOther || !strings.HasPrefix(game, "/en/games/") {
			t.Fatalf("the challenger's lobby after the accept: %d %q", code, game)
		}
		gameID := game[len("/en/games/"):]
		_, _, page = s.Get(bot, game)
		if strings.Contains(page, `action="`+game+`/moves"`) {
			t.Error("the bot's browser is offered the move form")
		}
		code, _, body = s.Post(bot, game+"/moves", url.Values{"_csrf": {s.Csrf(page)}, "pit": {"C"}}, nil)
		if code != http.StatusForbidden || !strings.Contains(body, refused) {
			t.Errorf("the bot's browser moves: %d", code)
		}
		code, _, body = s.Post(bot, game+"/resign", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		if code != http.StatusForbidden || !strings.Contains(body, refused) {
			t.Errorf("the bot's browser resigns: %d", code)
		}
		if n, _ := handlerstest.Stored(t, db, gameID); n != 0 {
			t.Errorf("%d moves stored after the bot's browser's refused move", n)
		}
		if code, body := s.Api(http.MethodPost, "/api/v1/bot/game/"+gameID+"/move/C", token, nil); code != http.StatusOK {
			t.Errorf("the bot's move through the API: %d %v", code, body)
		}
		if n, _ := handlerstest.Stored(t, db, gameID); n != 1 {
			t.Errorf("%d moves stored after the API's move, want 1", n)
		}
	})
}

// TestDeclineReasonOnLobby (issue 35): a bot declines a person's
// challenge with a reason; the person's lobby page says why, in their
// language, with or without JavaScript, and forgets the challenge.
func TestDeclineReasonOnLobby(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		ama, kofi := s.Account("ama"), s.Account("kofi")
		bot, token := s.BotAccount("deepseed")
		decline := func(id, reason string) {
			t.Helper()
			if code, body := s.Api(http.MethodPost, "/api/v1/bot/challenge/"+id+"/decline", token, map[string]string{"reason": reason}); code != http.StatusOK {
				t.Fatalf("decline %s: %d %v", reason, code, body)
			}
		}
		// Without JavaScript: the lobby page (it reloads while waiting).
		decline(challengeBot(t, s, ama, bot, "deepseed", "south"), "tooFast")
		_, _, page := s.Get(ama, "/en/lobby")
		want := "Your challenge was declined: this clock is too fast for the bot; challenge it to a slower game."
		if !strings.Contains(page, want) || strings.Contains(page, `id="mine-h"`) {
			t.Errorf("the lobby after the decline:\n%s", page)
		}
		if _, _, again := s.Get(ama, "/en/lobby"); strings.Contains(again, "Your challenge was declined") {
			t.Error("the decline is shown again")
		}
		// With htmx: the list's poll takes the page to the lobby with the reason.
		decline(challengeBot(t, s, kofi, bot, "deepseed", "south"), "")
		code, hdr, _ := s.Do(kofi, http.MethodGet, "/it/lobby/list", nil, map[string]string{"HX-Request": "true"})
		if to := hdr.Get("HX-Redirect"); code != http.StatusOK || to != "/it/lobby?declined=generic" {
			t.Fatalf("the list's poll after the decline: %d %q", code, to)
		}
		_, _, page = s.Get(kofi, "/it/lobby?declined=generic")
		if !strings.Contains(page, "La tua sfida è stata rifiutata: per ora il bot non accetta sfide.") {
			t.Errorf("the Italian lobby after the decline:\n%s", page)
		}
		if _, _, page := s.Get(kofi, "/en/lobby?declined=nonsense"); strings.Contains(page, "Your challenge was declined") {
			t.Error("an unknown reason in the query is shown")
		}
	})
}
