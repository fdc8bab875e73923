package views

import (
	"strings"
	"testing"

	"oware/engine"
)

// TestStudyChapterVerdict: a chapter's answer carries data-verdict
// "right" or "wrong"; a task's board is a form of buttons posting pit to
// the chapter (with htmx swapping #tutorial, and without JavaScript the
// page); its prompt is the task's.
func TestStudyChapterVerdict(t *testing.T) {
	r, _ := engine.RulesByName("abapa")
	pos, _ := r.ParsePosition("0-0-0-0-1-1-1-2-0-0-0-5-20-18-S")
	for _, c := range []struct {
		right bool
		want  string
	}{{true, `data-verdict="right"`}, {false, `data-verdict="wrong"`}} {
		v := StudyView{Chapters: []StudyChapterLink{{URL: "/en/studies/x/chapters/1", Title: "One", Task: true}}, Number: 1,
			ChapterTitle: "One", Rules: "abapa", Position: pos, Task: "capture 2", Action: "/en/studies/x/chapters/1",
			Board:    BoardOptions{Last: -1, Playable: 1<<engine.NumPits - 1, Action: "/en/studies/x/chapters/1#feedback", Target: "#tutorial"},
			Feedback: &TutorialFeedback{Correct: c.right, Lines: []string{"why"}}}
		var b strings.Builder
		if err := StudyChapter(plain{}, v).Render(t.Context(), &b); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		for _, want := range []string{c.want, `action="/en/studies/x/chapters/1#feedback"`, `hx-target="#tutorial"`, `name="pit"`, "tut_task_capture_n"} {
			if !strings.Contains(html, want) {
				t.Errorf("right %v: no %s in\n%s", c.right, want, html)
			}
		}
	}
}

// TestStudyEditorForms: the editor's actions are plain forms that post
// (add, edit, move up and down, delete a chapter; delete the study), each
// with the study's version, so that it works without JavaScript; the
// first chapter cannot move up nor the last down.
func TestStudyEditorForms(t *testing.T) {
	v := StudyEditorView{Title: "Captures", Lang: "en", Visibility: "public", Version: 3, SettingsURL: "/en/studies/x/edit",
		DeleteURL: "/en/studies/x/delete", ChapterURL: "/en/studies/x/chapters", MaxChapters: 30, MaxTitle: 100, MaxText: 4000,
		Chapters: []StudyEditorChapter{
			{Title: "One", EditURL: "/en/studies/x/chapters/1/edit", MoveURL: "/en/studies/x/chapters/1/move", DeleteURL: "/en/studies/x/chapters/1/delete"},
			{Title: "Two", EditURL: "/en/studies/x/chapters/2/edit", MoveURL: "/en/studies/x/chapters/2/move", DeleteURL: "/en/studies/x/chapters/2/delete"},
		}}
	var b strings.Builder
	if err := StudyEditorPage(Page{L: plain{}, Lang: "en"}, v).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`method="post" action="/en/studies/x/edit"`, `method="post" action="/en/studies/x/chapters"`,
		`method="post" action="/en/studies/x/delete"`, `method="post" action="/en/studies/x/chapters/1/delete"`,
		`href="/en/studies/x/chapters/2/edit"`, `name="version" value="3"`, `name="accept"`, `name="goal"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s", want)
		}
	}
	if got := strings.Count(html, `action="/en/studies/x/chapters/1/move"`); got != 1 {
		t.Errorf("chapter 1 has %d move forms, want 1 (down)", got)
	}
	if got := strings.Count(html, `action="/en/studies/x/chapters/2/move"`); got != 1 {
		t.Errorf("chapter 2 has %d move forms, want 1 (up)", got)
	}
}
