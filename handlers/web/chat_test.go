package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// TestChat: a player sends a preset message, the opponent's poll gets it
// (in their language), a spectator has no chat; free text is refused; the
// messages are stored with the game; past 40 messages a seat's next is
// refused (429) and changes nothing; a game against the computer has no
// chat.
func TestChat(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		south, north := s.FormGame("en", "abapa")
		_, _, page := s.Get(south.C, south.Game)
		if !strings.Contains(page, `id="chat"`) || !strings.Contains(page, `value="good_luck"`) {
			t.Fatal("no chat on the player's page")
		}
		if _, _, watch := s.Get(nil, south.Game); strings.Contains(watch, `id="chat"`) {
			t.Error("a spectator sees the chat")
		}
		send := func(p handlerstest.Seated, msg string, hdr map[string]string) int {
			_, _, page := s.Get(p.C, p.Game)
			code, _, _ := s.Post(p.C, p.Game+"/chat", url.Values{"_csrf": {s.Csrf(page)}, "msg": {msg}}, hdr)
			return code
		}
		if code := send(south, "good_luck", map[string]string{"HX-Request": "true"}); code != http.StatusNoContent {
			t.Fatalf("send: %d", code)
		}
		if code := send(south, "you fool", nil); code != http.StatusBadRequest {
			t.Errorf("free text: %d, want 400", code)
		}
		north.Game = strings.Replace(north.Game, "/en/", "/it/", 1)
		code, _, news := s.Do(north.C, "GET", north.Game+"/chat?after=0", nil, map[string]string{"HX-Request": "true"})
		if code != http.StatusOK || !strings.Contains(news, "Avversario:</span> Buona fortuna") || strings.Count(news, "<li") != 1 {
			t.Errorf("the opponent's poll: %d\n%s", code, news)
		}
		msgs, err := db.Chat(t.Context(), south.Game[strings.LastIndex(south.Game, "/")+1:], 10)
		if err != nil || len(msgs) != 1 || msgs[0].Message != "good_luck" || msgs[0].Side != "south" {
			t.Errorf("stored %+v (%v)", msgs, err)
		}
		after := "/chat?after=" + itoa(int(msgs[0].ID))
		if code, _, _ := s.Do(north.C, "GET", north.Game+after, nil, map[string]string{"HX-Request": "true"}); code != http.StatusNoContent {
			t.Errorf("a poll with nothing new: %d, want 204", code)
		}
		// North's 40 messages (the cap; stored directly, without the gap):
		// the 41st is refused and changes nothing.
		id := south.Game[strings.LastIndex(south.Game, "/")+1:]
		for range 40 {
			if err := db.AddChat(t.Context(), &models.ChatMessage{GameID: id, Side: "north", Message: "hello"}, 0, 40); err != nil {
				t.Fatal(err)
			}
		}
		if code := send(north, "thanks", nil); code != http.StatusTooManyRequests {
			t.Errorf("the 41st message: %d, want 429", code)
		}
		if msgs, _ := db.Chat(t.Context(), id, 100); len(msgs) != 41 {
			t.Errorf("%d messages stored, want 41", len(msgs))
		}
		computer := s.VsComputer(nil, "en", "abapa", "1", "south")
		if _, _, page := s.Get(computer.C, computer.Game); strings.Contains(page, `id="chat"`) {
			t.Error("a game against the computer has a chat")
		}
	})
}
