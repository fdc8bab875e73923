package accounts

import (
	"context"
	"time"

	"oware/models"
)

// HistoryFilter selects the games of a player's history (models.HistoryFilter:
// rule set, "won"/"lost"/"drawn", offset and limit).
type HistoryFilter = models.HistoryFilter

// Totals counts a player's finished games of one rule set.
type Totals = models.Totals

// PlayedGame is a finished game of a player's history, as seen by that
// player.
type PlayedGame struct {
	ID      string
	Ended   time.Time // when the game ended (its last change, UTC)
	Rules   string    // the rule set key
	Reason  string    // why it ended (game.Reason… values)
	Moves   int       // the moves played
	Side    string    // the player's seat: "south" or "north"
	Outcome string    // Outcome's answer for the player
	// Computer is the level of the computer opponent, 0 for a person.
	Computer int
	// Opponent is the opponent's account name, "" for a guest, the
	// computer or a deleted account (OpponentDeleted).
	Opponent        string
	OpponentDeleted bool
	// OpponentBot marks an opponent that is a bot (issue 35).
	OpponentBot bool
}

// Outcome answers "did this player win": "won", "lost" or "drawn" for a
// finished game whose result is result ("south", "north", "draw") seen
// from side ("south" or "north"); "aborted" for a game without a result.
// It is the one place that answers it (the history's filters ask the same
// in SQL: models' wonBy).
func Outcome(result, side string) string {
	switch result {
	case "":
		return "aborted"
	case "draw":
		return "drawn"
	case side:
		return "won"
	}
	return "lost"
}

// History returns one page of the finished games of account id (newest
// first) as seen by that player, and how many games match the filter.
func (s *Service) History(ctx context.Context, id uint, f HistoryFilter) ([]PlayedGame, int64, error) {
	games, total, err := s.db.History(ctx, id, f)
	if err != nil {
		return nil, 0, err
	}
	var ids []uint
	for _, g := range games {
		for _, u := range []*uint{g.SouthUserID, g.NorthUserID} {
			if u != nil {
				ids = append(ids, *u)
			}
		}
	}
	names, err := s.db.UsersByID(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	out := make([]PlayedGame, len(games))
	for i, g := range games {
		p := PlayedGame{ID: g.ID, Ended: g.UpdatedAt, Rules: g.Rules, Reason: g.Reason, Moves: g.MoveCount, Side: "south"}
		opp, computer := g.NorthUserID, g.NorthComputer
		if g.NorthUserID != nil && *g.NorthUserID == id {
			p.Side, opp, computer = "north", g.SouthUserID, g.SouthComputer
		}
		p.Outcome, p.Computer = Outcome(g.Result, p.Side), computer
		if opp != nil {
			if o := names[*opp]; o == nil || o.Deleted() {
				p.OpponentDeleted = true
			} else {
				p.Opponent, p.OpponentBot = o.Username, o.Bot
			}
		}
		out[i] = p
	}
	return out, total, nil
}

// Totals returns, per rule set (sorted by name), how many finished games
// account id won, lost and drew.
func (s *Service) Totals(ctx context.Context, id uint) ([]Totals, error) {
	return s.db.PlayerTotals(ctx, id)
}

// RatingChange is an account's rating after a rated game.
type RatingChange = models.RatingChange

// Leader is a row of a leaderboard: a rating with its player's name.
type Leader = models.Leader

// RatingHistory returns the last limit ratings of account id in category
// after each rated game, oldest first.
func (s *Service) RatingHistory(ctx context.Context, id uint, category string, limit int) ([]RatingChange, error) {
	return s.db.RatingHistory(ctx, id, category, limit)
}

// Leaderboard returns the best limit ratings of category, highest first,
// of existing people's accounts (bots have a leaderboard of their own,
// BotLeaderboard) with at least minGames rated games, the last of them
// within window.
func (s *Service) Leaderboard(ctx context.Context, category string, minGames int, window time.Duration, limit int) ([]Leader, error) {
	return s.db.Leaderboard(ctx, category, false, minGames, window, limit)
}

// BotLeaderboard is Leaderboard of the bots' pool (issue 35): bots only.
func (s *Service) BotLeaderboard(ctx context.Context, category string, minGames int, window time.Duration, limit int) ([]Leader, error) {
	return s.db.Leaderboard(ctx, category, true, minGames, window, limit)
}

// TutorialProgress is a player's progress in one tutorial.
type TutorialProgress = models.TutorialProgress

// TutorialProgress returns account id's progress in every tutorial they
// started.
func (s *Service) TutorialProgress(ctx context.Context, id uint) ([]TutorialProgress, error) {
	return s.db.TutorialProgressOf(ctx, id)
}

// SaveTutorialProgress records that account id reached step of the
// tutorial slug (done: its last step); progress only grows.
func (s *Service) SaveTutorialProgress(ctx context.Context, id uint, slug string, step int, done bool) error {
	return s.db.SaveTutorialProgress(ctx, id, slug, step, done)
}

// SaveTutorialSolved records that account id answered task step of the
// lesson slug right, of its task steps tasks, and says whether the lesson
// is now done (models.DB.SaveTutorialSolved).
func (s *Service) SaveTutorialSolved(ctx context.Context, id uint, slug string, step int, tasks []int) (bool, error) {
	return s.db.SaveTutorialSolved(ctx, id, slug, step, tasks)
}
