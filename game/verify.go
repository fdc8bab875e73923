package game

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"oware/models"
)

// Report is what Verify found.
type Report struct {
	// Games counts the games checked; Uncached those whose row has no
	// cache yet (written before it existed: their next change writes it).
	Games, Uncached int
	// Mismatches describes every game whose cache disagrees with the
	// replay of its moves, or that cannot be replayed.
	Mismatches []error
}

// Verify checks every stored game: the state its row caches (the move
// labels, the resume point and the engine's game rebuilt from it, the
// ends of Nam-nam rounds) must equal the replay of its stored moves and
// agreements. The moves are the truth; a mismatch is a bug.
func Verify(ctx context.Context, db *models.DB) (Report, error) {
	var rep Report
	for after := ""; ; {
		ids, err := db.GameIDs(ctx, after, 500)
		if err != nil || len(ids) == 0 {
			return rep, err
		}
		for _, id := range ids {
			rep.Games++
			uncached, err := verifyGame(ctx, db, id)
			if err != nil {
				rep.Mismatches = append(rep.Mismatches, fmt.Errorf("game %s: %w", id, err))
			}
			if uncached {
				rep.Uncached++
			}
		}
		after = ids[len(ids)-1]
	}
}

// verifyGame checks one game; uncached reports a row without a cache.
func verifyGame(ctx context.Context, db *models.DB, id string) (uncached bool, err error) {
	row, err := db.LoadGame(ctx, id)
	if err != nil {
		return false, err
	}
	if row.Resume == "" {
		return true, nil
	}
	cached, err := readRow(row)
	if err != nil {
		return false, err
	}
	replayed := *cached
	if err := cached.resumeEngine(row.Resume); err != nil {
		return false, fmt.Errorf("the cache does not rebuild the game: %w", err)
	}
	pits := make([]int, len(row.Moves))
	for i, m := range row.Moves {
		pits[i] = m.Pit
	}
	if err := replayed.replay(pits); err != nil {
		return false, fmt.Errorf("the moves do not replay: %w", err)
	}
	return false, sameState(cached, &replayed)
}

// errDiffers: a cached state differs from the replay.
var errDiffers = errors.New("the cached state differs from the replay")

// sameState compares the state of a game rebuilt from its cache with the
// one replayed from its moves.
func sameState(cached, replayed *Game) error {
	for _, d := range []struct {
		what string
		a, b any
	}{
		{"move labels", cached.labels, replayed.labels},
		{"resume point", cached.resume, replayed.resume},
		{"rounds", cached.Rounds, replayed.Rounds},
		{"last step", cached.Last, replayed.Last},
		{"engine game", cached.Engine, replayed.Engine},
		{"position", cached.Rules.FormatPosition(cached.Position), cached.Rules.FormatPosition(replayed.Engine.Position)},
	} {
		if !reflect.DeepEqual(d.a, d.b) {
			return fmt.Errorf("%w: %s: %v, replayed %v", errDiffers, d.what, d.a, d.b)
		}
	}
	return nil
}
