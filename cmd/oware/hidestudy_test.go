package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"oware/models"
)

// TestHideStudy: oware hide-study ID hides the study, -show shows it
// again, and an unknown id is an error that names it.
func TestHideStudy(t *testing.T) {
	file := filepath.Join(t.TempDir(), "oware.db")
	db, err := models.Open(t.Context(), file, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := &models.User{Username: "Ama", PasswordHash: "h"}
	if err := db.CreateUser(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	st := &models.Study{OwnerID: u.ID, Title: "Captures", Lang: "en", Visibility: "public", Chapters: "[]"}
	if _, err := db.CreateStudy(t.Context(), st, 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	hidden := func() bool {
		db, err := models.Open(t.Context(), file, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		got, err := db.StudyByID(t.Context(), st.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Hidden
	}
	if out := captureStdout(t, func() error { return run([]string{"hide-study", "-database", file, st.ID}) }); out != "study "+st.ID+" is hidden\n" || !hidden() {
		t.Errorf("hide: %q, hidden %v", out, hidden())
	}
	if out := captureStdout(t, func() error { return run([]string{"hide-study", "-database", file, "-show", st.ID}) }); !strings.Contains(out, "shown again") || hidden() {
		t.Errorf("show: %q, hidden %v", out, hidden())
	}
	if err := run([]string{"hide-study", "-database", file, "nosuchstudy0"}); err == nil || !strings.Contains(err.Error(), "nosuchstudy0") {
		t.Errorf("unknown id: %v", err)
	}
}
