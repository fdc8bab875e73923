package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"oware/content"
	"oware/models"
)

// hideStudy is the command "oware hide-study [-database URL] [-show] ID":
// an operator hides study ID (its link is then "not found" to everyone
// but its owner, and no list shows it), or with -show shows it again. It
// prints what it did; an unknown ID is an error.
func hideStudy(args []string) error {
	fs := flag.NewFlagSet("oware hide-study", flag.ContinueOnError)
	database := fs.String("database", "./data/oware.db", "the database: a SQLite file or a postgres:// URL (env DATABASE_URL)")
	show := fs.Bool("show", false, "show the study again")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("hide-study: give the study's id (the last part of its link)")
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "database" })
	if e := os.Getenv(env["database"]); e != "" && !given {
		*database = e
	}
	db, err := models.Open(context.Background(), *database, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	id := fs.Arg(0)
	if err := content.NewStudies(db).Hide(context.Background(), id, !*show); err != nil {
		if errors.Is(err, content.ErrNotFound) {
			return fmt.Errorf("hide-study: no study %s", id)
		}
		return err
	}
	if *show {
		fmt.Printf("study %s is shown again\n", id)
	} else {
		fmt.Printf("study %s is hidden\n", id)
	}
	return nil
}
