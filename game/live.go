package game

import "context"

// Playing returns at most limit games in play between two accounts, the
// newest first (models.DB.PlayingGames): what the games-now page shows.
func (s *Service) Playing(ctx context.Context, limit int) ([]*Game, error) {
	rows, err := s.db.PlayingGames(ctx, limit)
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
