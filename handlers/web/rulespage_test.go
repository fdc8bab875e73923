package web_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestRulesPageWithoutQueries: on PostgreSQL the rules page, once kept,
// is served without a statement to the database while the instance's
// listener hears the pages' changes (it asked for the pages' state at
// every view before); an edit of the page made in the database by hand
// notifies the listener (the pages' trigger), and the page shows it.
func TestRulesPageWithoutQueries(t *testing.T) {
	s, counted, db := countedSite(t)
	count := map[string]string{"X-Count-Statements": "1"}
	visitor := s.Browser()
	if code, _, _ := s.Do(visitor, "GET", "/en/rules", nil, count); code != http.StatusOK {
		t.Fatalf("rules: %d", code)
	}
	counted.take() // the first view reads and renders the page
	for i := range 3 {
		code, _, page := s.Do(visitor, "GET", "/en/rules", nil, count)
		if code != http.StatusOK || !strings.Contains(page, "<h1") {
			t.Fatalf("view %d: %d", i, code)
		}
		if got := counted.take(); len(got) != 0 {
			t.Errorf("view %d: %d statements, want none:\n%s", i, len(got), strings.Join(got, "\n"))
		}
	}

	if err := db.Gorm.Exec(`UPDATE pages SET title = 'Rules, edited by hand', updated_at = now()
		WHERE slug = 'rules' AND locale = 'en'`).Error; err != nil {
		t.Fatal(err)
	}
	if !pageShows(s, "/en/rules", "Rules, edited by hand") {
		t.Fatal("the rules page does not show the edit made in the database")
	}
}
