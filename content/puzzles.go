package content

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"oware/engine"
	"oware/engine/puzzle"
	"oware/models"
)

// puzzleFile is the puzzle file shipped with the site, made by
// `oware-engine puzzles` and proven by `oware-engine puzzles --verify`
// (docs/puzzles.md).
//
//go:embed puzzles.txt
var puzzleFile []byte

// Puzzles returns the puzzles of the shipped file, in its order (read
// once).
var Puzzles = sync.OnceValues(func() ([]*puzzle.Puzzle, error) {
	return puzzle.Read(bytes.NewReader(puzzleFile))
})

// PuzzleFile returns the shipped puzzle file's text.
func PuzzleFile() []byte { return puzzleFile }

// puzzleDeviation is a new puzzle's Glicko-2 deviation: its starting
// rating (puzzle.InitialRating) is a guess, so the first attempts move it
// quickly.
const puzzleDeviation = 300

// loadPuzzles adds the shipped puzzles the database lacks; stored ones
// keep their ratings.
func loadPuzzles(ctx context.Context, db *models.DB, log *slog.Logger) error {
	ps, err := Puzzles()
	if err != nil {
		return fmt.Errorf("puzzles: %w", err)
	}
	rows := make([]models.Puzzle, len(ps))
	for i, p := range ps {
		rows[i] = PuzzleRow(p, i+1)
	}
	n, err := db.LoadPuzzles(ctx, rows)
	if err != nil {
		return err
	}
	log.Info("puzzles loaded", "added", n, "shipped", len(rows))
	return nil
}

// PuzzleRow is the stored row of puzzle p, the number-th of the list
// (the shipped file's come first, in its order; puzzles mined from the
// site's games after them), at its starting rating.
func PuzzleRow(p *puzzle.Puzzle, number int) models.Puzzle {
	first := make([]string, len(p.First))
	for j, m := range p.First {
		first[j] = fmt.Sprintf("%s:%d:%d", engine.Label(m.Pit), m.Lo, m.Hi)
	}
	return models.Puzzle{
		ID: p.ID, Number: number, Rules: p.Rules.Name(), Position: p.Rules.FormatPosition(p.Position),
		Solution: strings.Join(p.Labels(), ","), Themes: "," + strings.Join(p.Themes, ",") + ",",
		FirstMoves: strings.Join(first, ","), Rating: float64(p.Rating), Deviation: puzzleDeviation, Volatility: 0.06,
	}
}
