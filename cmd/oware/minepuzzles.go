package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"oware/content"
	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/puzzle"
	"oware/models"
)

// minePage is how many games or records minePuzzles reads at a time.
const minePage = 200

// minePuzzles is the command "oware mine-puzzles [-database URL]
// [-tables DIR]": the puzzles of the site's finished games and kept
// imported records (puzzle.Mine: the positions whose board the endgame
// tables of DIR cover where one move alone wins by their proof) are added
// to the database's puzzles, after the shipped ones, each once (running it
// again adds only the new). It prints how many it added. The tables are
// the server's files (-tables; it builds them); without one for a rule
// set, that rule set's games give none.
func minePuzzles(args []string) error {
	fs := flag.NewFlagSet("oware mine-puzzles", flag.ContinueOnError)
	database := fs.String("database", "./data/oware.db", "the database: a SQLite file or a postgres:// URL (env DATABASE_URL)")
	dir := fs.String("tables", "./data/tables", "folder of the endgame tables (env OWARE_TABLES)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, v := range map[string]*string{"database": database, "tables": dir} {
		if e := os.Getenv(env[name]); e != "" && !given[name] {
			*v = e
		}
	}
	ts, err := endgame.OpenDir(*dir)
	if err != nil {
		return fmt.Errorf("mine-puzzles: tables: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	db, err := models.Open(ctx, *database, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	ps, games, err := mineDatabase(ctx, db, ts)
	if err != nil {
		return err
	}
	last, err := db.LastPuzzleNumber(ctx)
	if err != nil {
		return err
	}
	rows := make([]models.Puzzle, len(ps))
	for i, p := range ps {
		rows[i] = content.PuzzleRow(p, last+i+1)
	}
	added, err := db.LoadPuzzles(ctx, rows)
	if err != nil {
		return err
	}
	fmt.Printf("%d games and records read, %d puzzles found, %d added\n", games, len(ps), added)
	return nil
}

// mineDatabase returns the puzzles of db's finished Oware games and kept
// records (each once) and how many games and records it read.
func mineDatabase(ctx context.Context, db *models.DB, ts puzzle.Tables) ([]*puzzle.Puzzle, int, error) {
	var out []*puzzle.Puzzle
	ids := map[string]bool{}
	read := 0
	add := func(rules engine.Rules, start engine.Position, moves []int) {
		read++
		o, ok := rules.(engine.Oware)
		if !ok {
			return
		}
		for _, p := range puzzle.Mine(ts, o, start, moves) {
			if !ids[p.ID] {
				ids[p.ID] = true
				out = append(out, p)
			}
		}
	}
	for after := ""; ; {
		page, err := db.GameIDs(ctx, after, minePage)
		if err != nil {
			return nil, read, err
		}
		if len(page) == 0 {
			break
		}
		for _, id := range page {
			g, err := db.LoadGame(ctx, id)
			if err != nil {
				return nil, read, err
			}
			if g.Status != "over" {
				continue
			}
			rules, err := engine.RulesByName(g.Rules)
			if err != nil {
				continue
			}
			start, err := rules.ParsePosition(g.StartPosition)
			if err != nil {
				continue
			}
			moves := make([]int, len(g.Moves))
			for i, m := range g.Moves {
				moves[i] = m.Pit
			}
			add(rules, start, moves)
		}
		after = page[len(page)-1]
		if len(page) < minePage {
			break
		}
	}
	for after := ""; ; {
		page, err := db.ImportIDs(ctx, after, minePage)
		if err != nil || len(page) == 0 {
			return out, read, err
		}
		for _, id := range page {
			im, err := db.LoadImport(ctx, id)
			if err != nil {
				continue // gone meanwhile
			}
			if rec, err := engine.ParseRecord(im.Record); err == nil {
				add(rec.Rules, rec.Start, rec.Moves)
			}
		}
		after = page[len(page)-1]
		if len(page) < minePage {
			return out, read, nil
		}
	}
}
