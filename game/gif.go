package game

import (
	"context"
	"errors"

	"oware/models"
)

// KeptGIF returns the animated GIF kept for game id (views/picture draws
// it once, on its first request), or ErrNotFound while none is kept. The
// GIFs are kept in the database (table game_gifs), not on one instance's
// disk, so that any instance serves the one made.
func (s *Service) KeptGIF(ctx context.Context, id string) ([]byte, error) {
	b, err := s.db.GameGIF(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, ErrNotFound
	}
	return b, err
}

// KeepGIF keeps gif as finished game id's GIF; when another request kept
// one meanwhile, that one stays. The caller bounds its size
// (picture.MaxGIFBytes).
func (s *Service) KeepGIF(ctx context.Context, id string, gif []byte) error {
	return s.db.KeepGameGIF(ctx, id, gif, s.Now())
}
