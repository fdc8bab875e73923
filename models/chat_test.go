package models_test

import (
	"errors"
	"testing"
	"time"

	"oware/models"
)

// TestChatLimits: a seat's second message within the gap is refused, the
// other seat's is not; past the cap every message is refused; Chat lists
// the last ones oldest first.
func TestChatLimits(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		g := &models.Game{Rules: "abapa", Status: "playing"}
		if err := db.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		add := func(side, msg string, gap time.Duration, max int) error {
			return db.AddChat(t.Context(), &models.ChatMessage{GameID: g.ID, Side: side, Message: msg}, gap, max)
		}
		if err := add("south", "hello", time.Hour, 3); err != nil {
			t.Fatal(err)
		}
		if err := add("south", "good_luck", time.Hour, 3); !errors.Is(err, models.ErrChatLimit) {
			t.Errorf("a second message within the gap: %v", err)
		}
		if err := add("north", "hello", time.Hour, 3); err != nil {
			t.Errorf("the other seat: %v", err)
		}
		for _, msg := range []string{"thanks", "rematch"} {
			if err := add("north", msg, 0, 3); err != nil {
				t.Fatal(err)
			}
		}
		if err := add("north", "well_played", 0, 3); !errors.Is(err, models.ErrChatLimit) {
			t.Errorf("past the cap: %v", err)
		}
		msgs, err := db.Chat(t.Context(), g.ID, 3)
		if err != nil || len(msgs) != 3 || msgs[0].Message != "hello" || msgs[0].Side != "north" || msgs[2].Message != "rematch" {
			t.Errorf("the last 3: %+v (%v)", msgs, err)
		}
	})
}
