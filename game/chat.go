package game

import (
	"context"
	"errors"
	"time"

	"oware/engine"
	"oware/models"
)

// ChatMessage is a preset message a player sent in a game: its id (growing),
// the sender's seat ("south" or "north") and the message key.
type ChatMessage = models.ChatMessage

// ErrChatLimit refuses a message past a seat's limits (Say).
var ErrChatLimit = errors.New("game: too many chat messages")

// Say stores the preset message msg of the player in seat of g, unless
// that seat sent one less than gap ago or max in the game already
// (ErrChatLimit).
func (s *Service) Say(ctx context.Context, g *Game, seat engine.Side, msg string, gap time.Duration, max int) error {
	err := s.db.AddChat(ctx, &models.ChatMessage{GameID: g.ID, Side: seat.String(), Message: msg}, gap, max)
	if errors.Is(err, models.ErrChatLimit) {
		return ErrChatLimit
	}
	return err
}

// Chat returns the last limit messages of game id, oldest first.
func (s *Service) Chat(ctx context.Context, id string, limit int) ([]ChatMessage, error) {
	return s.db.Chat(ctx, id, limit)
}
