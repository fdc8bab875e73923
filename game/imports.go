package game

import (
	"context"

	"oware/models"
)

// ImportLifetime is how long an imported record is kept (models.ImportLifetime).
const ImportLifetime = models.ImportLifetime

// SaveImport keeps an imported game record (engine.ReadRecord's text)
// under a new random id and returns it; the oldest records go
// (models.SaveImport).
func (s *Service) SaveImport(ctx context.Context, record string) (string, error) {
	return s.db.SaveImport(ctx, record)
}
