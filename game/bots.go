package game

import (
	"context"
	"errors"
	"slices"

	"oware/models"
)

// Bots (issue 35) are accounts that play through the Bot API only: they
// play the challenges sent to them and the ones they send to other bots,
// never the lobby's open challenges or quick pairing; people may challenge
// them, casually, so that bots are rated in a pool of their own; a bot
// plays at most MaxBotGames games at once. Every rule is checked here, in
// the service, whoever calls it.

// MaxBotGames is how many games a bot may play at once; past it a
// challenge to or from it is not accepted (ErrBotBusy).
const MaxBotGames = 8

// isBot reports whether account id (0: a guest) is a bot.
func (s *Service) isBot(ctx context.Context, id uint) (bool, error) {
	if id == 0 {
		return false, nil
	}
	u, err := s.db.UserByID(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return u.Bot, nil
}

// sameKind reports whether accounts a and b are both bots or both
// people: only then may their game be rated.
func (s *Service) sameKind(ctx context.Context, a, b uint) (bool, error) {
	botA, err := s.isBot(ctx, a)
	if err != nil {
		return false, err
	}
	botB, err := s.isBot(ctx, b)
	return botA == botB, err
}

// checkBotChallenge checks a challenge by account creator (0: a guest)
// for account target (0: anyone): ErrBotLobby, ErrBotsChallengeBots,
// ErrBotRated.
func (s *Service) checkBotChallenge(ctx context.Context, creator, target uint, rated bool) error {
	byBot, err := s.isBot(ctx, creator)
	if err != nil {
		return err
	}
	toBot, err := s.isBot(ctx, target)
	if err != nil {
		return err
	}
	switch {
	case byBot && target == 0:
		return ErrBotLobby
	case byBot && !toBot:
		return ErrBotsChallengeBots
	case rated && toBot != byBot:
		return ErrBotRated
	}
	return nil
}

// checkBotAccept checks that account p (0: a guest) may accept c:
// ErrBotLobby for a bot and an open challenge, ErrBotBusy for a bot of
// either side that plays MaxBotGames games.
func (s *Service) checkBotAccept(ctx context.Context, c *Challenge, p uint) error {
	creator := deref(c.row.UserID)
	for _, id := range []uint{p, creator} {
		bot, err := s.isBot(ctx, id)
		if err != nil || !bot {
			if err != nil {
				return err
			}
			continue
		}
		if id == p && c.row.ForUserID == nil {
			return ErrBotLobby
		}
		playing, err := s.db.PlayingGamesOf(ctx, id, MaxBotGames)
		if err != nil {
			return err
		}
		if len(playing) >= MaxBotGames {
			return ErrBotBusy
		}
	}
	return nil
}

func deref(id *uint) uint {
	if id == nil {
		return 0
	}
	return *id
}

// ChallengesFor returns the challenges open now for account id (sent to
// it by name) and the ones it sent by name (Challenge.Sent), open or
// declined (Challenge.Declined) while they would be open, the newest
// first, at most LobbySize.
func (s *Service) ChallengesFor(ctx context.Context, id uint) ([]*Challenge, error) {
	now := s.Now()
	rows, err := s.db.ChallengesFor(ctx, now, id, LobbySize)
	if err != nil {
		return nil, err
	}
	out := make([]*Challenge, len(rows))
	for i := range rows {
		out[i] = challengeOf(&rows[i], now)
	}
	return out, nil
}

// DeclineReasons are the reasons a challenge may be declined with
// (Lichess's words); DeclineChallenge keeps one for the challenger.
var DeclineReasons = []string{"generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual",
	"standard", "variant", "noBot", "onlyBot"}

// DeclineChallenge declines the open challenge id sent to account userID
// with reason (one of DeclineReasons; "" is "generic"): it is cancelled,
// the reason kept for its challenger (Challenge.Declined). ErrNotFound (no
// such challenge), ErrNotForYou (sent to someone else, or to anyone),
// ErrChallengeTaken (no longer open), ErrBadSettings (no such reason).
func (s *Service) DeclineChallenge(ctx context.Context, id string, userID uint, reason string) error {
	if reason == "" {
		reason = "generic"
	}
	if !slices.Contains(DeclineReasons, reason) {
		return ErrBadSettings
	}
	c, err := s.FindChallenge(ctx, id)
	if err != nil {
		return err
	}
	if c.row.ForUserID == nil || *c.row.ForUserID != userID {
		return ErrNotForYou
	}
	ok, err := s.db.DeclineChallenge(ctx, id, reason)
	if err == nil && !ok {
		err = ErrChallengeTaken
	}
	return err
}
