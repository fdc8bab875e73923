package game

import (
	"context"
	"errors"

	"oware/models"
)

// ImportLifetime is how long an imported record is kept (models.ImportLifetime).
const ImportLifetime = models.ImportLifetime

// ErrImportGone: no imported record has the id, or it is older than
// ImportLifetime.
var ErrImportGone = errors.New("game: no such imported record")

// SaveImport keeps an imported game record (engine.ReadRecord's text)
// under a new random id and returns it; the oldest records go
// (models.SaveImport).
func (s *Service) SaveImport(ctx context.Context, record string) (string, error) {
	return s.db.SaveImport(ctx, record)
}

// Import returns the text of the imported record id, or ErrImportGone.
func (s *Service) Import(ctx context.Context, id string) (string, error) {
	im, err := s.db.LoadImport(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return "", ErrImportGone
	}
	if err != nil {
		return "", err
	}
	return im.Record, nil
}
