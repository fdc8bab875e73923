package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestPlayBotForm (issue 35): the computer form lists a bot whose event
// stream is connected (name, BOT mark, a new bot's 1500?), not one whose
// stream closed nor one seen 61 s ago; a person challenges the listed bot
// with a plain form post and the bot's stream gets the challenge with
// the form's rules, clock and seat; an unknown bot, a person's name, a
// bot offline and a bad clock are answered 404/422 on the form with the
// reason in the page's language, no challenge stored.
func TestPlayBotForm(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		_, ta := s.BotAccount("aalina")
		_, tk := s.BotAccount("kwame")
		s.Account("kofi")
		c := s.Account("esi")
		if _, _, page := s.Get(c, "/en/computer"); !strings.Contains(page, "No bot is online right now.") || strings.Contains(page, `name="bot"`) {
			t.Fatalf("no bot online: the empty state is missing:\n%s", page)
		}
		events := ndjsonStream(s, "/api/v1/bot/stream/events", ta)
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.Srv.URL+"/api/v1/bot/stream/events", nil)
		req.Header.Set("Authorization", "Bearer "+tk)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("kwame's stream: %v", err)
		}
		_, _, page := s.Get(c, "/en/computer")
		if !strings.Contains(page, `value="aalina"`) || !strings.Contains(page, `value="kwame"`) ||
			!strings.Contains(page, `aalina <abbr class="bot-badge"`) || !strings.Contains(page, "Rating 1500?") {
			t.Fatalf("two bots online:\n%s", page)
		}
		cancel()
		res.Body.Close()
		for deadline := time.Now().Add(10 * time.Second); ; {
			if _, _, page = s.Get(c, "/en/computer"); !strings.Contains(page, `value="kwame"`) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("kwame still listed 10 s after its stream closed")
			}
			time.Sleep(50 * time.Millisecond)
		}
		if !strings.Contains(page, `value="aalina"`) {
			t.Fatal("aalina gone with kwame's stream")
		}
		csrf := s.Csrf(page)
		count := func() (n int64) {
			if err := db.Gorm.Table("challenges").Count(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, bad := range []struct {
			bot, clock, lang, want string
			code                   int
		}{
			{"nobody", "5+3", "en", "There is no bot of that name online now", http.StatusNotFound},
			{"kofi", "5+3", "cs", "Bot tohoto jména teď není připojen", http.StatusNotFound},
			{"kwame", "5+3", "it", "Nessun bot con questo nome è collegato ora", http.StatusNotFound},
			{"aalina", "5+99999", "en", "", http.StatusUnprocessableEntity},
		} {
			code, _, body := s.Post(c, "/"+bad.lang+"/computer/bots", url.Values{"_csrf": {csrf}, "bot": {bad.bot}, "rules": {"abapa"},
				"clock": {bad.clock}, "seat": {"south"}}, nil)
			if code != bad.code || !strings.Contains(body, bad.want) || !strings.Contains(body, `role="alert"`) {
				t.Errorf("%s %s: %d, want %d with %q", bad.bot, bad.clock, code, bad.code, bad.want)
			}
		}
		if n := count(); n != 0 {
			t.Fatalf("bad input stored %d challenges", n)
		}
		db.Gorm.Exec("UPDATE users SET bot_seen_at = ? WHERE username = 'kwame'", time.Now().Add(-61*time.Second).UTC())
		if _, _, page = s.Get(c, "/en/computer"); strings.Contains(page, `value="kwame"`) {
			t.Error("kwame listed 61 s after it was last seen")
		}
		code, hdr, _ := s.Post(c, "/en/computer/bots", url.Values{"_csrf": {csrf}, "bot": {"aalina"}, "rules": {"abapa"},
			"clock": {"3+2"}, "seat": {"south"}}, nil)
		if code != http.StatusSeeOther || hdr.Get("Location") != "/en/lobby" {
			t.Fatalf("challenge aalina: %d %s", code, hdr.Get("Location"))
		}
		e := nextLine(t, events, "challenge")["challenge"].(map[string]any)
		if e["challenger"].(map[string]any)["name"] != "esi" || e["rules"] != "abapa" || e["seat"] != "south" || e["rated"] != false ||
			e["clock"].(map[string]any)["initial"] != 180.0 || e["clock"].(map[string]any)["increment"] != 2.0 {
			t.Errorf("aalina's challenge event: %v", e)
		}
	})
}
