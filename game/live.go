package game

import (
	"context"

	"oware/models"
)

// Playing returns at most limit games in play between two accounts, the
// newest first (models.DB.PlayingGames): what the games-now page shows.
func (s *Service) Playing(ctx context.Context, limit int) ([]*Game, error) {
	rows, err := s.db.PlayingGames(ctx, limit)
	return s.buildAll(ctx, rows, err)
}

// PlayingOf returns at most limit of the games Playing lists that account
// user plays, the newest first.
func (s *Service) PlayingOf(ctx context.Context, user uint, limit int) ([]*Game, error) {
	rows, err := s.db.PlayingGamesOf(ctx, user, limit)
	return s.buildAll(ctx, rows, err)
}

// PlayingFollowed returns at most limit of the games Playing lists that
// the accounts account follower follows play, the newest first.
func (s *Service) PlayingFollowed(ctx context.Context, follower uint, limit int) ([]*Game, error) {
	rows, err := s.db.PlayingGamesFollowed(ctx, follower, limit)
	return s.buildAll(ctx, rows, err)
}

// buildAll builds the games of rows (without their moves), or returns err.
func (s *Service) buildAll(ctx context.Context, rows []*models.Game, err error) ([]*Game, error) {
	if err != nil {
		return nil, err
	}
	games := make([]*Game, 0, len(rows))
	for _, row := range rows {
		g, err := s.build(ctx, row, nil)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, nil
}
