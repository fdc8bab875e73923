package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// studyCapture: F's one seed ends in a (1) and captures its 2 (RULES.md 2.3);
// E's ends in F, its own row.
const studyCapture = "0-0-0-0-1-1-1-2-0-0-0-5-20-18-S"

var studyEditRe = regexp.MustCompile(`^/en/studies/([a-z0-9]{12})/edit`)

// TestStudyEditorWithoutJavaScript: alice writes a study with plain forms
// (its first chapter with the new study, a second with a task, a third;
// moves the third up and deletes it), a task the engine contradicts is
// refused with the reason and changes nothing, a form of an older version
// is refused as changed meanwhile; bob answers the task with the board's
// form (a wrong move, then the right one: data-verdict "wrong" and
// "right", as the whole page and as htmx's partial), copies the study
// (a private copy of his that names its origin); a visitor is sent to log
// in to write one, and an operator's hiding makes it "not found" to bob.
func TestStudyEditorWithoutJavaScript(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice, bob, guest := s.Account("alice"), s.Account("bob"), s.Browser()
		if code, hdr, _ := s.Get(guest, "/en/studies/new"); code != http.StatusSeeOther || !strings.HasPrefix(hdr.Get("Location"), "/en/login?next=") {
			t.Errorf("a visitor's new study: %d %s, want the login", code, hdr.Get("Location"))
		}
		_, _, page := s.Get(alice, "/en/studies/new")
		form := url.Values{"_csrf": {s.Csrf(page)}, "title": {"Two seeds"}, "lang": {"en"}, "visibility": {"public"},
			"chapter_title": {"Sowing"}, "rules": {"abapa"}, "position": {""}, "text": {"# Hello\n<script>alert(1)</script>"}}
		code, hdr, body := s.Post(alice, "/en/studies/new", form, nil)
		m := studyEditRe.FindStringSubmatch(hdr.Get("Location"))
		if code != http.StatusSeeOther || m == nil {
			t.Fatalf("create: %d %s\n%s", code, hdr.Get("Location"), body)
		}
		id := m[1]
		edit := "/en/studies/" + id + "/edit"
		post := func(path string, f url.Values) (int, string) {
			t.Helper()
			_, _, page := s.Get(alice, edit)
			f.Set("_csrf", s.Csrf(page))
			if f.Get("version") == "" {
				f.Set("version", regexp.MustCompile(`name="version" value="(\d+)"`).FindStringSubmatch(page)[1])
			}
			code, _, body := s.Post(alice, path, f, nil)
			return code, body
		}
		chapter := func(title, position, goal, accept string) url.Values {
			return url.Values{"chapter_title": {title}, "rules": {"abapa"}, "position": {position}, "text": {"Which pit?"},
				"goal": {goal}, "n": {"2"}, "accept": {accept}}
		}
		if code, body := post("/en/studies/"+id+"/chapters", chapter("Take two", studyCapture, "capture", "E")); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "The engine disagrees: E is not a move that captures at least 2 seeds. The moves that do: F.") {
			t.Errorf("a contradicted task: %d\n%s", code, body)
		}
		for _, c := range []url.Values{chapter("Take two", studyCapture, "capture", "F"), chapter("Third", "", "", "")} {
			if code, body := post("/en/studies/"+id+"/chapters", c); code != http.StatusSeeOther {
				t.Fatalf("add %s: %d\n%s", c.Get("chapter_title"), code, body)
			}
		}
		if code, _ := post("/en/studies/"+id+"/chapters/3/move", url.Values{"by": {"-1"}}); code != http.StatusSeeOther {
			t.Errorf("move up: %d", code)
		}
		if code, body := post("/en/studies/"+id+"/chapters/1/move", url.Values{"by": {"1"}, "version": {"1"}}); code != http.StatusConflict ||
			!strings.Contains(body, "changed in another window") {
			t.Errorf("a form of version 1: %d", code)
		}
		_, _, page = s.Get(bob, "/en/studies/"+id)
		if !strings.Contains(page, "<h1>Hello</h1>") || strings.Contains(page, "<script>alert") ||
			!regexp.MustCompile(`(?s)Sowing.*Third.*Take two`).MatchString(page) {
			t.Errorf("the study's page: the text sanitized, the chapters Sowing, Third, Take two:\n%s", page)
		}
		if code, _ := post("/en/studies/"+id+"/chapters/2/delete", url.Values{}); code != http.StatusSeeOther {
			t.Errorf("delete chapter 2: %d", code)
		}
		task := "/en/studies/" + id + "/chapters/2"
		_, _, page = s.Get(bob, task)
		for _, c := range []struct{ pit, verdict string }{{"E", "wrong"}, {"F", "right"}} {
			code, _, body := s.Post(bob, task, url.Values{"_csrf": {s.Csrf(page)}, "pit": {c.pit}}, nil)
			if code != http.StatusOK || !strings.Contains(body, `data-verdict="`+c.verdict+`"`) || !strings.Contains(body, "</html>") {
				t.Errorf("%s without JavaScript: %d, want the page with data-verdict %s", c.pit, code, c.verdict)
			}
			code, _, body = s.Post(bob, task, url.Values{"_csrf": {s.Csrf(page)}, "pit": {c.pit}}, map[string]string{"HX-Request": "true"})
			if code != http.StatusOK || !strings.Contains(body, `data-verdict="`+c.verdict+`"`) || strings.Contains(body, "</html>") {
				t.Errorf("%s with htmx: %d, want the partial with data-verdict %s", c.pit, code, c.verdict)
			}
		}
		code, hdr, _ = s.Post(bob, "/en/studies/"+id+"/fork", url.Values{"_csrf": {s.Csrf(page)}}, nil)
		fm := studyEditRe.FindStringSubmatch(hdr.Get("Location"))
		if code != http.StatusSeeOther || fm == nil || fm[1] == id {
			t.Fatalf("fork: %d %s", code, hdr.Get("Location"))
		}
		if code, _, page := s.Get(bob, "/en/studies/"+fm[1]); code != http.StatusOK || !strings.Contains(page, `href="/en/studies/`+id+`"`) {
			t.Errorf("bob's copy: %d, want a link to its origin", code)
		}
		if code, _, _ := s.Get(guest, "/en/studies/"+fm[1]); code != http.StatusNotFound {
			t.Errorf("bob's private copy seen by a visitor: %d, want 404", code)
		}
		if code, _, _ := s.Get(bob, edit); code != http.StatusNotFound {
			t.Errorf("bob opens alice's editor: %d, want 404", code)
		}
		if err := db.HideStudy(t.Context(), id, true); err != nil {
			t.Fatal(err)
		}
		if code, _, _ := s.Get(bob, "/en/studies/"+id); code != http.StatusNotFound {
			t.Errorf("a hidden study seen by bob: %d, want 404", code)
		}
		if code, _, page := s.Get(alice, "/en/studies/"+id); code != http.StatusOK || !strings.Contains(page, "An operator has hidden this study") {
			t.Errorf("a hidden study seen by its owner: %d", code)
		}
		if _, _, page := s.Get(guest, "/en/studies?q=seeds"); strings.Contains(page, id) {
			t.Errorf("the hidden study is listed")
		}
	})
}

// TestStudyChapterFromGame: a chapter's position is taken from a game's
// link at a ply (after South's C from the start: C's four seeds to D, E,
// F and a, North to move), and a ply past the game's moves is refused
// with the reason; the analysis board links a new study at its position.
func TestStudyChapterFromGame(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	alice := s.Account("alice")
	id, south, _ := s.NewAPIGame("abapa")
	if code, body := s.Api("POST", "/api/v1/games/"+id+"/moves", south, map[string]string{"pit": "C"}); code != http.StatusOK {
		t.Fatalf("move: %d %v", code, body)
	}
	_, _, page := s.Get(alice, "/en/studies/new")
	form := url.Values{"_csrf": {s.Csrf(page)}, "title": {"From a game"}, "lang": {"en"}, "visibility": {"private"},
		"chapter_title": {"After C"}, "rules": {"abapa"}, "game": {s.Base + "/en/games/" + id}, "ply": {"2"}}
	if code, _, body := s.Post(alice, "/en/studies/new", form, nil); code != http.StatusUnprocessableEntity ||
		!strings.Contains(body, "There is no such game, or no such move in it.") {
		t.Errorf("ply 2 of a game of 1 move: %d", code)
	}
	form.Set("ply", "1")
	code, hdr, _ := s.Post(alice, "/en/studies/new", form, nil)
	m := studyEditRe.FindStringSubmatch(hdr.Get("Location"))
	if code != http.StatusSeeOther || m == nil {
		t.Fatalf("create: %d %s", code, hdr.Get("Location"))
	}
	var st struct{ Chapters []struct{ Position string } }
	s.ApiAs(alice, "GET", "/api/v1/studies/"+m[1], nil, &st)
	if len(st.Chapters) != 1 || st.Chapters[0].Position != "4-4-0-5-5-5-5-4-4-4-4-4-0-0-N" {
		t.Errorf("the chapter: %+v", st.Chapters)
	}
	_, _, page = s.Get(alice, "/en/analysis?rules=abapa&position=4-4-0-5-5-5-5-4-4-4-4-4-0-0-N")
	if !strings.Contains(page, `href="/en/studies/new?position=4-4-0-5-5-5-5-4-4-4-4-4-0-0-N&amp;rules=abapa"`) {
		t.Errorf("the analysis board does not link a new study at its position")
	}
}
