package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"oware/models"
)

// worker is "oware worker [flags]": a process that works the computer's
// jobs (its replies and the game reviews) of the site on the database of
// -database, with the endgame tables of -tables, and serves nothing. It
// takes the site's flags (those of the database, the tables, -computer,
// -log-format; the others do nothing here), and runs until interrupted.
// Any number of them, on any machines that reach the database, add their
// workers to the site's (docs/operating.md, "The computer's workers").
func worker(args []string) error {
	cfg, err := parseConfig(args)
	if err != nil {
		return err
	}
	log, _, err := newLogger(cfg.logFormat)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	db, err := models.Open(ctx, cfg.database, log)
	if err != nil {
		return err
	}
	defer db.Close()
	cfg.computerJobs = true
	_, stopComputer, err := startComputer(db, cfg, log)
	if err != nil {
		return err
	}
	defer stopComputer()
	log.Info("working the computer's jobs", "database", db.Dialect, "workers", workersOf(cfg))
	<-ctx.Done()
	log.Info("stopping: the jobs under way go back to the queue")
	return nil
}
