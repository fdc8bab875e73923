package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
)

// TestLessonsAPI: GET /api/v1/lessons gives the course in course order,
// the same slugs, stages and counts in cs, it and en (the first rules
// lessons counted by hand in their sources), the titles in each
// language; another language is refused with 422.
func TestLessonsAPI(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	type lesson struct {
		Slug, Stage, Title string
		Steps, Tasks       int
	}
	get := func(lang string) (int, []lesson, string) {
		c := s.Browser()
		code, _, body := s.Get(c, "/api/v1/lessons?lang="+lang)
		var out []lesson
		if code == http.StatusOK {
			if err := json.Unmarshal([]byte(body), &out); err != nil {
				t.Fatalf("%s: %v in %s", lang, err, body)
			}
		}
		return code, out, body
	}
	code, en, _ := get("en")
	if code != http.StatusOK || len(en) < 9 {
		t.Fatalf("en: %d, %d lessons", code, len(en))
	}
	if f := en[0]; f.Slug != "oware-step-by-step" || f.Stage != "rules" || f.Title != "Oware step by step" || f.Steps != 12 || f.Tasks != 6 {
		t.Errorf("first lesson %+v", f)
	}
	if f := en[1]; f.Slug != "sowing" || f.Title != "Sowing and laps" || f.Steps != 6 || f.Tasks != 5 {
		t.Errorf("second lesson %+v", f)
	}
	if l := en[len(en)-1]; l.Stage != "namnam" {
		t.Errorf("last lesson %+v, want the Nam-nam stage last", l)
	}
	for _, lang := range []string{"cs", "it"} {
		code, list, _ := get(lang)
		if code != http.StatusOK || len(list) != len(en) {
			t.Fatalf("%s: %d, %d lessons", lang, code, len(list))
		}
		for i, l := range list {
			e := en[i]
			if l.Slug != e.Slug || l.Stage != e.Stage || l.Steps != e.Steps || l.Tasks != e.Tasks || l.Title == e.Title {
				t.Errorf("%s lesson %d %+v, en %+v", lang, i, l, e)
			}
		}
	}
	for _, bad := range []string{"de", "", "EN"} {
		if code, _, body := get(bad); code != http.StatusUnprocessableEntity || !strings.Contains(body, "lang=cs, it or en") {
			t.Errorf("lang=%q: %d %s, want 422", bad, code, body)
		}
	}
}
