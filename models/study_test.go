package models_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"oware/models"
)

// TestStudies: an account keeps at most max studies (a third past 2 is
// refused, writing nothing); a study is read with its owner's name; an
// update with an old version is a conflict and another's is not found;
// the public list holds the public, not hidden studies of one language
// whose text holds every word asked (a "%" is a character, not a
// pattern), the latest changed first; an owner's list holds them all.
func TestStudies(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
		user := func(name string) uint {
			u := &models.User{Username: name, PasswordHash: "h"}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		ama, kofi := user("Ama"), user("Kofi")
		add := func(owner uint, title, lang, vis, search string, at time.Time) *models.Study {
			s := &models.Study{OwnerID: owner, Title: title, Lang: lang, Visibility: vis, Chapters: "[]", Search: search}
			ok, err := db.CreateStudy(ctx, s, 2, at)
			if err != nil || !ok {
				t.Fatalf("create %s: %v %v", title, ok, err)
			}
			return s
		}
		a1 := add(ama, "Captures", "en", "public", "captures of 2 and 3", now)
		a2 := add(ama, "Sowing", "en", "unlisted", "sowing", now.Add(time.Minute))
		if ok, err := db.CreateStudy(ctx, &models.Study{OwnerID: ama, Title: "Third", Lang: "en", Visibility: "public", Chapters: "[]"}, 2, now); err != nil || ok {
			t.Errorf("a third study past the limit of 2: %v %v", ok, err)
		}
		k1 := add(kofi, "Grand slam 100%", "en", "public", "grand slam 100%", now.Add(2*time.Minute))
		k2 := add(kofi, "Zajetí", "cs", "public", "zajetí semínek", now.Add(3*time.Minute))
		if len(a1.ID) != 12 || a1.ID == a2.ID {
			t.Errorf("ids %q %q", a1.ID, a2.ID)
		}
		got, err := db.StudyByID(ctx, k1.ID)
		if err != nil || got.Owner != "Kofi" || got.Title != "Grand slam 100%" || got.Version != 1 || got.Lang != "en" {
			t.Fatalf("study by id: %+v %v", got, err)
		}
		if _, err := db.StudyByID(ctx, "nosuchstudy0"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}

		list := func(lang string, words ...string) string {
			ss, err := db.PublicStudies(ctx, lang, words, 10)
			if err != nil {
				t.Fatal(err)
			}
			out := ""
			for _, s := range ss {
				out += s.Title + "/" + s.Owner + ";"
			}
			return out
		}
		for _, c := range []struct {
			lang  string
			words []string
			want  string
		}{
			{"en", nil, "Grand slam 100%/Kofi;Captures/Ama;"},
			{"en", []string{"captures", "3"}, "Captures/Ama;"},
			{"en", []string{"captures", "4"}, ""},
			{"en", []string{"100%"}, "Grand slam 100%/Kofi;"},
			{"en", []string{"0%"}, "Grand slam 100%/Kofi;"},
			{"en", []string{"s%w"}, ""},
			{"en", []string{"sowing"}, ""}, // unlisted
			{"cs", []string{"semínek"}, "Zajetí/Kofi;"},
			{"it", nil, ""},
		} {
			if got := list(c.lang, c.words...); got != c.want {
				t.Errorf("public %s %q: %q, want %q", c.lang, c.words, got, c.want)
			}
		}

		if err := db.HideStudy(ctx, k1.ID, true); err != nil {
			t.Fatal(err)
		}
		if got := list("en"); got != "Captures/Ama;" {
			t.Errorf("after hiding Kofi's: %q", got)
		}
		if s, _ := db.StudyByID(ctx, k1.ID); s == nil || !s.Hidden {
			t.Errorf("hidden study read: %+v", s)
		}
		if err := db.HideStudy(ctx, "nosuchstudy0", true); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("hide unknown: %v", err)
		}

		a1.Title, a1.Visibility = "Captures and chains", "private"
		if err := db.UpdateStudy(ctx, a1, now.Add(time.Hour)); err != nil || a1.Version != 2 {
			t.Fatalf("update: %v, version %d", err, a1.Version)
		}
		stale := *a1
		stale.Version = 1
		if err := db.UpdateStudy(ctx, &stale, now); !errors.Is(err, models.ErrConflict) {
			t.Errorf("update at an old version: %v", err)
		}
		theirs := *k2
		theirs.OwnerID = ama
		if err := db.UpdateStudy(ctx, &theirs, now); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("update of another's study: %v", err)
		}
		if s, _ := db.StudyByID(ctx, k2.ID); s.Title != "Zajetí" || s.Version != 1 {
			t.Errorf("another's study changed: %+v", s)
		}
		if got := list("en"); got != "" {
			t.Errorf("after making Ama's private: %q", got)
		}
		mine, err := db.StudiesOf(ctx, ama, 10)
		if err != nil || len(mine) != 2 || mine[0].Title != "Captures and chains" || mine[1].Title != "Sowing" {
			t.Errorf("Ama's studies: %+v %v", mine, err)
		}
		if err := db.DeleteStudy(ctx, k2.ID, ama); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("delete another's: %v", err)
		}
		if err := db.DeleteStudy(ctx, a2.ID, ama); err != nil {
			t.Fatal(err)
		}
		if ok, err := db.CreateStudy(ctx, &models.Study{OwnerID: ama, Title: "Again", Lang: "it", Visibility: "public", Chapters: "[]"}, 2, now); err != nil || !ok {
			t.Errorf("a second study after deleting one: %v %v", ok, err)
		}
	})
}

// TestStudyCapAtOnce: ten studies created at once by one account with a
// cap of 3 store 3, on either database (the count is taken under the
// cap's lock in the insert's transaction).
func TestStudyCapAtOnce(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		u := &models.User{Username: "Ama", PasswordHash: "h"}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := &models.Study{OwnerID: u.ID, Title: "At once", Lang: "en", Visibility: "public", Chapters: "[]"}
				if _, err := db.CreateStudy(ctx, s, 3, time.Now()); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if got, _ := db.StudiesOf(ctx, u.ID, 20); len(got) != 3 {
			t.Errorf("%d studies stored, want 3", len(got))
		}
	})
}
