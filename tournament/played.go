package tournament

import (
	"context"

	"oware/models"
)

// Tournament is a stored tournament (models.Tournament): its settings,
// status and times, as the handlers read them.
type Tournament = models.Tournament

// TournamentsOf returns the tournaments of status ("created", "running",
// "finished") account userID played in, the latest first, at most limit.
func (s *Service) TournamentsOf(ctx context.Context, userID uint, status string, limit int) ([]Tournament, error) {
	return s.db.TournamentsOf(ctx, userID, status, limit)
}
