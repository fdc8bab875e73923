package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// botMark is the BOT mark beside a bot's name (views.BotBadge).
var botMark = regexp.MustCompile(`deepseed(</a>)?\s*<abbr class="bot-badge" title="A bot: a program, not a person">BOT</abbr>`)

// TestBotMarkBesideItsName (issue 35): wherever a bot's name is listed,
// it carries the BOT mark, and a person's never does: the game page's
// plates and players, the person's page with the game.
func TestBotMarkBesideItsName(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		ama := s.Account("ama")
		bot, token := s.BotAccount("deepseed")
		id := challengeBot(t, s, ama, bot, "deepseed", "south")
		if code, body := s.Api(http.MethodPost, "/api/v1/bot/challenge/"+id+"/accept", token, nil); code != http.StatusOK {
			t.Fatalf("accept: %d %v", code, body)
		}
		_, hdr, _ := s.Get(ama, "/en/lobby")
		game := hdr.Get("Location")
		if !strings.HasPrefix(game, "/en/games/") {
			t.Fatalf("no game after the accept: %q", game)
		}
		for _, path := range []string{game, "/en/players/ama"} {
			_, _, page := s.Get(ama, path)
			if !botMark.MatchString(page) {
				t.Errorf("%s: the bot's name without its mark:\n%s", path, page)
			}
			if regexp.MustCompile(`ama(</a>)?\s*<abbr class="bot-badge"`).MatchString(page) {
				t.Errorf("%s: the person marked BOT", path)
			}
		}
		_, _, page := s.Get(ama, "/en/players")
		if strings.Contains(page, "deepseed") {
			t.Error("the people's leaderboard lists the bot")
		}
	})
}
