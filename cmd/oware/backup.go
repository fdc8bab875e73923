package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"oware/models"
)

// backup is the command "oware backup [-database FILE] PATH": a consistent
// copy of the SQLite database to the new file PATH, while the site may be
// running on it (models.Backup). A PostgreSQL database is backed up with
// pg_dump instead (docs/operating.md).
func backup(args []string) error {
	fs := flag.NewFlagSet("oware backup", flag.ContinueOnError)
	database := fs.String("database", "./data/oware.db", "the SQLite file to copy (env DATABASE_URL)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: oware backup [-database FILE] PATH\n\nwrites a consistent copy of the SQLite database to the new file PATH, also while the site runs")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "database" })
	if v := os.Getenv(env["database"]); v != "" && !given {
		*database = v
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("backup: want one PATH, the file to write")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := models.Backup(ctx, *database, fs.Arg(0)); err != nil {
		return err
	}
	fmt.Println("backup written to", fs.Arg(0))
	return nil
}
