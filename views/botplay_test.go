package views

import (
	"context"
	"strings"
	"testing"
)

// TestBotMarkInChatAndEmbed (issue 35): a bot's chat line reads
// "Opponent BOT:" (the BOT mark, BotBadge), a person's "Opponent:"; the
// embed of a game names the bot with its mark, the person without.
func TestBotMarkInChatAndEmbed(t *testing.T) {
	var b strings.Builder
	for _, m := range []ChatLine{{ID: 1, Message: "hello", Bot: true}, {ID: 2, Message: "thanks"}} {
		if err := chatLine(plain{}, m).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
	}
	out := b.String()
	if !strings.Contains(out, `chat_opponent <abbr class="bot-badge" title="bot_badge_title">BOT</abbr>:</span> chat_hello`) ||
		!strings.Contains(out, `chat_opponent:</span> chat_thanks`) {
		t.Errorf("chat lines:\n%s", out)
	}
	b.Reset()
	v := ReplayView{Rules: "abapa", South: "esi", North: "aalina", Bots: [2]bool{false, true}, URL: func(int) string { return "" }}
	if err := EmbedReplayPage(Page{L: plain{}, Lang: "en"}, EmbedView{}, v).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	out = b.String()
	if !strings.Contains(out, `<strong>aalina <abbr class="bot-badge"`) || !strings.Contains(out, `<strong>esi</strong>`) {
		t.Errorf("embed:\n%s", out)
	}
}
