package game

import (
	"context"
	"errors"
	"time"

	"oware/models"
)

// Bots online (issue 35): a bot is online while its event stream is
// connected. The stream notes it in the account's row (bot_seen_at) when
// it connects and every BotSeenEvery while it stays, so that every
// instance sharing the database sees it; a bot is online while that note
// is younger than twice BotSeenEvery, and the note is cleared when the
// stream closes.

// BotSeenEvery is how often a connected event stream notes its bot
// online again: at most one UPDATE per stream in that time.
const BotSeenEvery = 30 * time.Second

// MaxBotsListed is how many bots online "Play a bot" lists at most.
const MaxBotsListed = 50

// ErrBotOffline: the bot challenged from "Play a bot" is no bot online
// (no such account, a person's, or a bot whose stream is closed).
var ErrBotOffline = errors.New("game: no such bot online")

// OnlineBot is a bot online as "Play a bot" lists it: its name, its
// rating in the category asked for (RatingText) and its engine ("" for
// none said).
type OnlineBot struct {
	Name, Rating, Engine string
}

// HoldBotOnline notes bot id online now and every BotSeenEvery until ctx
// ends; the function it returns (call it when the stream closes) clears
// the note unless a later stream of the bot wrote it. A failed note is
// logged, never the stream's error.
func (s *Service) HoldBotOnline(ctx context.Context, id uint) (stop func()) {
	var last time.Time
	seen := func() {
		at := s.Now()
		if err := s.db.SetBotSeen(ctx, id, at); err != nil {
			if ctx.Err() == nil {
				s.log.Warn("bot online", "user", id, "err", err)
			}
			return
		}
		last = at
	}
	seen()
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(BotSeenEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-done:
				return
			case <-t.C:
				seen()
			}
		}
	}()
	return func() {
		close(done)
		<-ended
		if last.IsZero() {
			return
		}
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := s.db.ClearBotSeen(cctx, id, last); err != nil {
			s.log.Warn("bot offline", "user", id, "err", err)
		}
	}
}

// BotsOnline returns the bots online, by name, at most MaxBotsListed,
// with their ratings in category (a new bot's is 1500?).
func (s *Service) BotsOnline(ctx context.Context, category string) ([]OnlineBot, error) {
	us, err := s.db.BotsSeenSince(ctx, s.Now().Add(-2*BotSeenEvery), MaxBotsListed)
	if err != nil || len(us) == 0 {
		return nil, err
	}
	ids := make([]uint, len(us))
	for i := range us {
		ids[i] = us[i].ID
	}
	rs, err := s.ratingsOf(ctx, category, ids...)
	if err != nil {
		return nil, err
	}
	out := make([]OnlineBot, len(us))
	for i, u := range us {
		out[i] = OnlineBot{Name: u.Username, Rating: RatingText(rs[u.ID]), Engine: u.BotEngine}
	}
	return out, nil
}

// BotOnline returns the account name of the bot online named name (in
// any case): ErrBotOffline for no such account, a person's, or a bot not
// online.
func (s *Service) BotOnline(ctx context.Context, name string) (string, error) {
	u, err := s.db.UserByName(ctx, name)
	if errors.Is(err, models.ErrNotFound) {
		return "", ErrBotOffline
	}
	if err != nil {
		return "", err
	}
	if !u.Bot || u.BotSeenAt == nil || u.BotSeenAt.Before(s.Now().Add(-2*BotSeenEvery)) {
		return "", ErrBotOffline
	}
	return u.Username, nil
}
