package api_test

import (
	"net/http"
	"strings"
	"testing"

	"oware/accounts"
	"oware/content"
	"oware/handlers/handlerstest"
	"oware/models"
)

// The positions of the studies' tests, South to move: F's one seed ends
// in a (1) and captures its 2 (RULES.md 2.3); E's ends in F, its own row.
const studyCapture = "0-0-0-0-1-1-1-2-0-0-0-5-20-18-S"

func studyBody(vis string, accept ...string) map[string]any {
	return map[string]any{"title": "Captures of two", "lang": "en", "visibility": vis, "chapters": []map[string]any{
		{"title": "Take two", "rules": "abapa", "position": studyCapture, "text": "Count to *a*.",
			"task": map[string]any{"goal": "capture", "n": 2, "accept": accept}},
		{"title": "The start", "rules": "", "position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "text": "", "task": nil},
	}}
}

// TestStudiesAPI: POST /api/v1/studies with an account's session cookie
// or a token of the scope study:write (not another scope) stores a study (201 {"id","url"});
// without an account 401; a planted engine-contradicted accept (E, which
// captures nothing), an illegal one (A is empty), a bad position and a
// study over the chapters' bound get 422 with the reason; GET gives the
// study back as written, 404 to another account for a private one; the
// list of a language holds the public ones with the words asked, not an
// unlisted one, and 422 for another language.
func TestStudiesAPI(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice, bob := s.Account("alice"), s.Account("bob")
		var created struct{ ID, URL string }
		if code := s.ApiAs(alice, "POST", "/api/v1/studies", studyBody("public", "F"), &created); code != http.StatusCreated ||
			len(created.ID) != 12 || created.URL != s.Base+"/en/studies/"+created.ID {
			t.Fatalf("create: %d %+v", code, created)
		}
		if code, body := s.Api("POST", "/api/v1/studies", "", studyBody("public", "F")); code != http.StatusUnauthorized {
			t.Errorf("without an account: %d %v", code, body)
		}
		u, err := db.UserByName(t.Context(), "alice")
		if err != nil {
			t.Fatal(err)
		}
		acc := accounts.New(db)
		studyToken, _, err := acc.CreateToken(t.Context(), u.ID, "studies", []string{accounts.ScopeStudyWrite})
		if err != nil {
			t.Fatal(err)
		}
		botToken, _, err := acc.CreateToken(t.Context(), u.ID, "bot", []string{accounts.ScopeChallengeWrite})
		if err != nil {
			t.Fatal(err)
		}
		if code, body := s.Api("POST", "/api/v1/studies", studyToken, studyBody("unlisted", "F")); code != http.StatusCreated || body["id"] == "" {
			t.Errorf("with a study:write token: %d %v", code, body)
		}
		if code, body := s.Api("POST", "/api/v1/studies", botToken, studyBody("unlisted", "F")); code != http.StatusUnauthorized {
			t.Errorf("with a token of another scope: %d %v, want 401", code, body)
		}
		many := studyBody("public", "F")
		var chapters []map[string]any
		for range content.MaxStudyChapters + 1 {
			chapters = append(chapters, map[string]any{"title": "x", "position": studyCapture})
		}
		many["chapters"] = chapters
		badPos := studyBody("public", "F")
		badPos["chapters"].([]map[string]any)[1]["position"] = "4-4-4-4-4-4-4-4-4-4-4-4-0-1-S"
		for _, c := range []struct {
			what string
			body map[string]any
			want string
		}{
			{"E for a capture of 2", studyBody("public", "E"), "Chapter 1: The engine disagrees: E is not a move that captures at least 2 seeds. The moves that do: F."},
			{"the empty A", studyBody("public", "A"), "Chapter 1: A is not a legal move in this position."},
			{"a bad position", badPos, "Chapter 2: This is not a position of these rules."},
			{"too many chapters", many, "A study has at most 30 chapters."},
		} {
			var refused struct{ Error string }
			if code := s.ApiAs(alice, "POST", "/api/v1/studies", c.body, &refused); code != http.StatusUnprocessableEntity || !strings.HasPrefix(refused.Error, c.want) {
				t.Errorf("%s: %d %q, want 422 %q", c.what, code, refused.Error, c.want)
			}
		}
		var st struct {
			ID, Owner, Title, Lang, Visibility string
			Chapters                           []content.Chapter
		}
		if code := s.ApiAs(bob, "GET", "/api/v1/studies/"+created.ID, nil, &st); code != http.StatusOK || st.Owner != "alice" ||
			len(st.Chapters) != 2 || st.Chapters[0].Task.Accept[0] != "F" || st.Chapters[1].Rules != "abapa" || st.Chapters[1].Task != nil {
			t.Errorf("get: %d %+v", code, st)
		}
		var private, unlisted struct{ ID string }
		s.ApiAs(alice, "POST", "/api/v1/studies", studyBody("private", "F"), &private)
		s.ApiAs(alice, "POST", "/api/v1/studies", studyBody("unlisted", "F"), &unlisted)
		if code := s.ApiAs(bob, "GET", "/api/v1/studies/"+private.ID, nil, nil); code != http.StatusNotFound {
			t.Errorf("another's private study: %d, want 404", code)
		}
		if code := s.ApiAs(alice, "GET", "/api/v1/studies/"+private.ID, nil, nil); code != http.StatusOK {
			t.Errorf("one's own private study: %d", code)
		}
		if code := s.ApiAs(bob, "GET", "/api/v1/studies/"+unlisted.ID, nil, nil); code != http.StatusOK {
			t.Errorf("an unlisted study by its id: %d", code)
		}
		list := func(query string) []string {
			var out []struct{ ID string }
			if code := s.ApiAs(nil, "GET", "/api/v1/studies?"+query, nil, &out); code != http.StatusOK {
				t.Fatalf("list %s: %d", query, code)
			}
			var ids []string
			for _, o := range out {
				ids = append(ids, o.ID)
			}
			return ids
		}
		if got := list("lang=en&q=two+CAPTURES"); len(got) != 1 || got[0] != created.ID {
			t.Errorf("search: %v, want only %s (not the unlisted %s nor the private %s)", got, created.ID, unlisted.ID, private.ID)
		}
		if got := list("lang=en&q=nowhere"); len(got) != 0 {
			t.Errorf("search nowhere: %v", got)
		}
		if got := list("lang=cs"); len(got) != 0 {
			t.Errorf("Czech studies: %v", got)
		}
		var bad struct{ Error string }
		if code := s.ApiAs(nil, "GET", "/api/v1/studies?lang=de", nil, &bad); code != http.StatusUnprocessableEntity || bad.Error != "Ask for the studies of one language: lang=cs, it or en." {
			t.Errorf("lang=de: %d %q, want 422 and the reason", code, bad.Error)
		}
	})
}
