package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/content"
	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/tutor"
	"oware/views"
)

// studyRoutes adds the studies (issue 32): the list and search, a
// study's chapters and their answers, and the editor (plain forms; htmx
// boosts them).
func (h *Site) studyRoutes(g *echo.Group) {
	g.GET(route.StudiesPattern, h.studiesPage)
	g.GET(route.NewStudyPattern, h.newStudyForm, h.RequireUser)
	g.POST(route.NewStudyPattern, h.createStudyForm, h.RequireUser)
	g.GET(route.StudyPattern, h.studyPage)
	g.GET(route.StudyChapterPattern, h.studyPage)
	g.POST(route.StudyChapterPattern, h.studyAnswer)
	g.POST(route.StudyForkPattern, h.forkStudyForm, h.RequireUser)
	g.GET(route.StudyEditPattern, h.studyEditor, h.RequireUser)
	g.POST(route.StudyEditPattern, h.studySettingsForm, h.RequireUser)
	g.POST(route.StudyDeletePattern, h.deleteStudyForm, h.RequireUser)
	g.POST(route.StudyChaptersPattern, h.addChapterForm, h.RequireUser)
	g.GET(route.StudyChapterEditPattern, h.studyEditor, h.RequireUser)
	g.POST(route.StudyChapterEditPattern, h.editChapterForm, h.RequireUser)
	g.POST(route.StudyChapterMovePattern, h.moveChapterForm, h.RequireUser)
	g.POST(route.StudyChapterDeletePattern, h.deleteChapterForm, h.RequireUser)
}

// studyCard is st in a list.
func studyCard(lang string, st *content.Study) views.StudyCard {
	return views.StudyCard{URL: route.Study(lang, st.ID), Title: st.Title, Owner: st.Owner, Lang: st.Lang,
		Visibility: st.Visibility, Hidden: st.Hidden, Chapters: len(st.Chapters), Updated: st.UpdatedAt.UTC().Format("2006-01-02")}
}

// studiesPage: GET /{lang}/studies?q=TEXT, the public studies of the
// language holding q, and the visitor's own.
func (h *Site) studiesPage(c echo.Context) error {
	ctx, lang := c.Request().Context(), core.LangOf(c)
	q := c.QueryParam("q")
	if r := []rune(q); len(r) > content.MaxStudyQuery {
		q = string(r[:content.MaxStudyQuery])
	}
	list, err := h.Content.Studies.Search(ctx, lang, q)
	if err != nil {
		return err
	}
	v := views.StudiesView{Query: q, LoginURL: route.Login(lang) + "?next=" + url.QueryEscape(route.NewStudy(lang))}
	for i := range list {
		v.Results = append(v.Results, studyCard(lang, &list[i]))
	}
	if user := h.UserID(c); user != 0 {
		v.NewURL = route.NewStudy(lang)
		mine, err := h.Content.Studies.Mine(ctx, user)
		if err != nil {
			return err
		}
		for i := range mine {
			v.Mine = append(v.Mine, studyCard(mine[i].Lang, &mine[i]))
		}
	}
	return core.Render(c, http.StatusOK, views.StudiesPage(h.Page(c, "st_title", route.StudiesPattern), v))
}

// loadStudy reads the study of :id as the visitor may see it (404
// otherwise) and its chapter :n (1 without one; 404 for none).
func (h *Site) loadStudy(c echo.Context) (*content.Study, int, error) {
	st, err := h.Content.Studies.Get(c.Request().Context(), c.Param("id"), h.UserID(c))
	if errors.Is(err, content.ErrNotFound) {
		return nil, 0, core.ErrNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	n := 1
	if s := c.Param("n"); s != "" {
		n, err = strconv.Atoi(s)
		if err != nil || n < 1 || n > len(st.Chapters) || strconv.Itoa(n) != s {
			return nil, 0, core.ErrNotFound
		}
	}
	return st, n, nil
}

// studyPage: GET /{lang}/studies/{id}[/chapters/{n}], a chapter of a
// study (the whole page, or for htmx navigation its inside).
func (h *Site) studyPage(c echo.Context) error {
	st, n, err := h.loadStudy(c)
	if err != nil {
		return err
	}
	v, err := h.studyView(c, st, n)
	if err != nil {
		return err
	}
	return h.renderStudy(c, st, v)
}

// studyAnswer: POST /{lang}/studies/{id}/chapters/{n} (field pit), the
// engine's verdict on an answer to the chapter's task (content.Answer):
// after a right move the board after it, after a wrong one why.
func (h *Site) studyAnswer(c echo.Context) error {
	st, n, err := h.loadStudy(c)
	if err != nil {
		return err
	}
	ch := st.Chapters[n-1]
	if ch.Task == nil {
		return core.Redirect(c, route.StudyChapter(core.LangOf(c), st.ID, n))
	}
	v, err := h.studyView(c, st, n)
	if err != nil {
		return err
	}
	a, err := content.Answer(h.Visit(c).L, ch, c.FormValue("pit"))
	if err != nil {
		return err
	}
	v.Feedback = &views.TutorialFeedback{Correct: a.Correct, Lines: a.Lines}
	if a.Correct {
		v.Answered, v.Board.Playable = true, 0
		v.Position, v.Board.Sowing, v.Board.Last, v.Board.Highlight = a.After, a.Move.Sown, a.Move.Pit, 0
		for _, cp := range a.Move.Captures {
			v.Board.Highlight |= 1 << cp.Pit
		}
	}
	return h.renderStudy(c, st, v)
}

// studyView builds the view of chapter n of st, before any answer.
func (h *Site) studyView(c echo.Context, st *content.Study, n int) (views.StudyView, error) {
	lang, ch := core.LangOf(c), st.Chapters[n-1]
	r, pos, err := tutor.Board(ch.Rules, ch.Position, "", "")
	if err != nil {
		return views.StudyView{}, err
	}
	text, err := content.Markdown(ch.Text)
	if err != nil {
		return views.StudyView{}, err
	}
	here := route.StudyChapter(lang, st.ID, n)
	user := h.UserID(c)
	v := views.StudyView{
		Title: st.Title, Owner: st.Owner, OwnerURL: route.Player(lang, st.Owner),
		ShareURL: h.Base + route.Study(st.Lang, st.ID), Visibility: st.Visibility, Hidden: st.Hidden,
		Number: n, ChapterTitle: ch.Title, TextHTML: text, Rules: r.Name(), Fours: game.Fours(r), Position: pos,
		Board: views.BoardOptions{Last: -1}, AnalysisURL: boardPath(lang, r, pos), Action: here, CSRF: core.CsrfToken(c),
	}
	if st.ForkedFrom != "" {
		v.ForkedURL = route.Study(lang, st.ForkedFrom)
	}
	for i, c := range st.Chapters {
		v.Chapters = append(v.Chapters, views.StudyChapterLink{URL: route.StudyChapter(lang, st.ID, i+1), Title: c.Title, Task: c.Task != nil})
	}
	if game.NamNam(r) {
		v.Board.Match = &views.BoardMatch{}
	}
	if ch.Task != nil {
		v.Task = taskSource(ch.Task)
		// Every pit is a button, so that a wrong one gets its reason.
		v.Board.Playable = 1<<engine.NumPits - 1
		v.Board.Action, v.Board.Target, v.Board.CSRF = here+"#feedback", "#tutorial", v.CSRF
	}
	switch {
	case user == st.OwnerID:
		v.EditURL = route.StudyEdit(lang, st.ID)
		v.ForkURL = route.StudyFork(lang, st.ID)
	case user != 0:
		v.ForkURL = route.StudyFork(lang, st.ID)
	default:
		v.LoginURL = route.Login(lang) + "?next=" + url.QueryEscape(route.Study(lang, st.ID))
	}
	if n > 1 {
		v.PrevURL = route.StudyChapter(lang, st.ID, n-1)
	}
	if n < len(st.Chapters) {
		v.NextURL = route.StudyChapter(lang, st.ID, n+1)
	}
	return v, nil
}

// taskSource is a task's goal in tutor's source form ("capture 2").
func taskSource(t *content.Task) string {
	switch t.Goal {
	case content.GoalCapture:
		return t.Goal + " " + strconv.Itoa(t.N)
	case content.GoalSave:
		return t.Goal + " " + t.Pit
	}
	return t.Goal
}

// renderStudy answers with a chapter: the inside of #tutorial for htmx,
// else the whole page.
func (h *Site) renderStudy(c echo.Context, st *content.Study, v views.StudyView) error {
	title := v.ChapterTitle + " · " + st.Title
	if core.Htmx(c) {
		v.PageTitle = title
		return core.Render(c, http.StatusOK, views.StudyChapter(h.Visit(c).L, v))
	}
	p := h.Page(c, "st_title", route.Fill(route.StudyChapterPattern, st.ID, strconv.Itoa(v.Number)))
	p.Title = title
	p.NoIndex = st.Visibility != content.Public
	return core.Render(c, http.StatusOK, views.StudyPage(p, v))
}

// forkStudyForm: POST /{lang}/studies/{id}/fork copies the study into the
// visitor's own (private) and opens the copy's editor.
func (h *Site) forkStudyForm(c echo.Context) error {
	st, err := h.Content.Studies.Fork(c.Request().Context(), h.UserID(c), c.Param("id"))
	if errors.Is(err, content.ErrNotFound) {
		return core.ErrNotFound
	}
	var se *content.StudyError
	if errors.As(err, &se) {
		return &core.UserError{Status: http.StatusUnprocessableEntity, Key: se.ID}
	}
	if err != nil {
		return err
	}
	return core.Redirect(c, route.StudyEdit(core.LangOf(c), st.ID))
}

// chapterForm reads a chapter's fields as typed.
func chapterForm(c echo.Context) views.StudyChapterForm {
	return views.StudyChapterForm{Title: c.FormValue("chapter_title"), Rules: c.FormValue("rules"), Position: c.FormValue("position"),
		Text: c.FormValue("text"), Game: c.FormValue("game"), Ply: c.FormValue("ply"),
		Goal: c.FormValue("goal"), N: c.FormValue("n"), Pit: c.FormValue("pit"), Accept: c.FormValue("accept")}
}

// formChapter is a chapter form as content's chapter; a position taken
// from a game (its link or id, and a ply) replaces the position string.
// The error is a *content.StudyError for a game or ply that is not there.
func (h *Site) formChapter(c echo.Context, f views.StudyChapterForm) (content.Chapter, error) {
	ch := content.Chapter{Title: f.Title, Rules: f.Rules, Position: f.Position, Text: f.Text}
	if strings.TrimSpace(f.Game) != "" {
		r, pos, err := h.gamePosition(c, f.Game, f.Ply)
		if err != nil {
			return ch, err
		}
		ch.Rules, ch.Position = r.Name(), r.FormatPosition(pos)
		if fours := game.Fours(r); fours != "" {
			ch.Rules += " fours=" + fours
		}
	} else if strings.TrimSpace(ch.Position) == "" {
		if r, err := tutor.ParseRules(ch.Rules); err == nil {
			ch.Position = r.FormatPosition(r.Start())
		}
	}
	if f.Goal != "" {
		n, _ := strconv.Atoi(strings.TrimSpace(f.N))
		ch.Task = &content.Task{Goal: f.Goal, N: n, Pit: strings.TrimSpace(f.Pit), Accept: strings.Fields(strings.ReplaceAll(f.Accept, ",", " "))}
	}
	return ch, nil
}

// gamePosition is the position of a game (a link to it or its id) after
// ply moves.
func (h *Site) gamePosition(c echo.Context, ref, plyText string) (engine.Rules, engine.Position, error) {
	bad := &content.StudyError{ID: "st_err_game"}
	id := strings.TrimSpace(ref)
	if u, err := url.Parse(id); err == nil && strings.Contains(u.Path, "/games/") {
		id = strings.Split(strings.SplitN(u.Path, "/games/", 2)[1], "/")[0]
	}
	ply, err := strconv.Atoi(strings.TrimSpace(plyText))
	if plyText == "" {
		ply, err = 0, nil
	}
	g, lerr := h.Games.Load(c.Request().Context(), id)
	if errors.Is(lerr, game.ErrNotFound) || err != nil || ply < 0 {
		return nil, engine.Position{}, bad
	}
	if lerr != nil {
		return nil, engine.Position{}, lerr
	}
	eg := g.Engine
	if ply > len(eg.Moves) {
		return nil, engine.Position{}, bad
	}
	var agreed []int
	for _, a := range eg.Agreements {
		if a < ply {
			agreed = append(agreed, a)
		}
	}
	at, err := engine.ReplayMatch(g.Rules, eg.Start, eg.Moves[:ply], agreed, nil)
	if err != nil {
		return nil, engine.Position{}, err
	}
	return g.Rules, at.Position, nil
}

// newStudyForm: GET /{lang}/studies/new, the settings and first chapter of
// a new study (?rules=&position=, from the analysis board, set it up).
func (h *Site) newStudyForm(c echo.Context) error {
	lang := core.LangOf(c)
	ch := views.StudyChapterForm{Rules: c.QueryParam("rules"), Position: c.QueryParam("position")}
	if f := c.QueryParam("fours"); f != "" && ch.Rules == "namnam" {
		ch.Rules += " fours=" + f
	}
	v := views.StudyEditorView{New: true, Lang: lang, Visibility: content.Public, Chapter: ch}
	return h.renderEditor(c, http.StatusOK, v)
}

// createStudyForm: POST /{lang}/studies/new stores the study with its
// first chapter and opens its editor; a refusal shows the form again
// with the reason (422).
func (h *Site) createStudyForm(c echo.Context) error {
	v := views.StudyEditorView{New: true, Title: c.FormValue("title"), Lang: c.FormValue("lang"),
		Visibility: c.FormValue("visibility"), Chapter: chapterForm(c)}
	ch, err := h.formChapter(c, v.Chapter)
	if err == nil {
		var st *content.Study
		st, err = h.Content.Studies.Create(c.Request().Context(), h.UserID(c),
			content.StudyInput{Title: v.Title, Lang: v.Lang, Visibility: v.Visibility, Chapters: []content.Chapter{ch}})
		if err == nil {
			return core.Redirect(c, route.StudyEdit(core.LangOf(c), st.ID))
		}
	}
	return h.refuseEdit(c, v, err)
}

// refuseEdit shows the editor v again with why err refused the change
// (422), or answers err when it is no refusal of the study's.
func (h *Site) refuseEdit(c echo.Context, v views.StudyEditorView, err error) error {
	var se *content.StudyError
	if !errors.As(err, &se) {
		return err
	}
	v.Error = se.Reason(h.Visit(c).L)
	return h.renderEditor(c, http.StatusUnprocessableEntity, v)
}

// renderEditor renders the editor v, its bounds and links filled.
func (h *Site) renderEditor(c echo.Context, status int, v views.StudyEditorView) error {
	v.CSRF, v.MaxTitle, v.MaxText, v.MaxChapters = core.CsrfToken(c), content.MaxStudyTitle, content.MaxChapterText, content.MaxStudyChapters
	path := route.NewStudyPattern
	p := h.Page(c, "st_new_title", path)
	if v.New {
		v.SettingsURL = route.NewStudy(core.LangOf(c))
	} else {
		p = h.Page(c, "st_title", route.Fill(route.StudyEditPattern, c.Param("id")))
		p.Title = h.Visit(c).L.T("st_edit_title", "Title", v.Title)
	}
	p.NoIndex = true
	return core.Render(c, status, views.StudyEditorPage(p, v))
}

// ownStudy reads the study :id of the logged-in account, 404 for another's.
func (h *Site) ownStudy(c echo.Context) (*content.Study, error) {
	st, err := h.Content.Studies.Get(c.Request().Context(), c.Param("id"), h.UserID(c))
	if errors.Is(err, content.ErrNotFound) || err == nil && st.OwnerID != h.UserID(c) {
		return nil, core.ErrNotFound
	}
	return st, err
}

// editorView is the editor of st; editing is the chapter whose form it
// shows (0: a new chapter's).
func editorView(lang string, st *content.Study, editing int) views.StudyEditorView {
	v := views.StudyEditorView{Title: st.Title, Lang: st.Lang, Visibility: st.Visibility, Version: st.Version,
		ViewURL: route.Study(lang, st.ID), SettingsURL: route.StudyEdit(lang, st.ID), DeleteURL: route.StudyDelete(lang, st.ID),
		ChapterURL: route.StudyChapters(lang, st.ID), Editing: editing, Chapter: views.StudyChapterForm{Rules: "abapa"}}
	for i, ch := range st.Chapters {
		n := i + 1
		v.Chapters = append(v.Chapters, views.StudyEditorChapter{Title: ch.Title, Task: ch.Task != nil,
			EditURL: route.StudyChapterEdit(lang, st.ID, n) + "#chapter-form", MoveURL: route.StudyChapterMove(lang, st.ID, n),
			DeleteURL: route.StudyChapterDelete(lang, st.ID, n)})
	}
	if editing > 0 {
		ch := st.Chapters[editing-1]
		v.ChapterURL = route.StudyChapterEdit(lang, st.ID, editing)
		v.Chapter = views.StudyChapterForm{Title: ch.Title, Rules: ch.Rules, Position: ch.Position, Text: ch.Text}
		if t := ch.Task; t != nil {
			v.Chapter.Goal, v.Chapter.Pit, v.Chapter.Accept = t.Goal, t.Pit, strings.Join(t.Accept, " ")
			if t.N > 0 {
				v.Chapter.N = strconv.Itoa(t.N)
			}
		}
	}
	return v
}

// studyEditor: GET /{lang}/studies/{id}/edit and
// /{lang}/studies/{id}/chapters/{n}/edit, the editor of the owner's study
// (with chapter n's form).
func (h *Site) studyEditor(c echo.Context) error {
	st, err := h.ownStudy(c)
	if err != nil {
		return err
	}
	n, err := chapterParam(c, st)
	if err != nil {
		return err
	}
	return h.renderEditor(c, http.StatusOK, editorView(core.LangOf(c), st, n))
}

// chapterParam is the chapter :n of st, 0 without one; 404 for a chapter
// st has not.
func chapterParam(c echo.Context, st *content.Study) (int, error) {
	s := c.Param("n")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > len(st.Chapters) || strconv.Itoa(n) != s {
		return 0, core.ErrNotFound
	}
	return n, nil
}

// editStudy applies change to the owner's study :id at the form's version
// and shows the editor again: on a refusal with the reason (422), when
// the study changed meanwhile as it is now (409).
func (h *Site) editStudy(c echo.Context, editing int, change func(st *content.Study, in *content.StudyInput) error) error {
	st, err := h.ownStudy(c)
	if err != nil {
		return err
	}
	lang := core.LangOf(c)
	if editing > len(st.Chapters) {
		return core.ErrNotFound
	}
	version, _ := strconv.Atoi(c.FormValue("version"))
	_, err = h.Content.Studies.Edit(c.Request().Context(), st.OwnerID, st.ID, version, func(in *content.StudyInput) error { return change(st, in) })
	switch {
	case err == nil:
		return core.Redirect(c, route.StudyEdit(lang, st.ID)+"#chapters-h")
	case errors.Is(err, content.ErrStudyChanged):
		fresh, gerr := h.ownStudy(c)
		if gerr != nil {
			return gerr
		}
		v := editorView(lang, fresh, 0)
		v.Error = h.Visit(c).L.T("st_changed_meanwhile")
		return h.renderEditor(c, http.StatusConflict, v)
	case errors.Is(err, content.ErrNotFound):
		return core.ErrNotFound
	}
	v := editorView(lang, st, editing)
	if editing > 0 || c.FormValue("chapter_title") != "" {
		v.Chapter = chapterForm(c)
	}
	return h.refuseEdit(c, v, err)
}

// studySettingsForm: POST /{lang}/studies/{id}/edit, the title, language
// and visibility.
func (h *Site) studySettingsForm(c echo.Context) error {
	return h.editStudy(c, 0, func(_ *content.Study, in *content.StudyInput) error {
		in.Title, in.Lang, in.Visibility = c.FormValue("title"), c.FormValue("lang"), c.FormValue("visibility")
		return nil
	})
}

// addChapterForm: POST /{lang}/studies/{id}/chapters adds a chapter at
// the end.
func (h *Site) addChapterForm(c echo.Context) error {
	return h.editStudy(c, 0, func(_ *content.Study, in *content.StudyInput) error {
		ch, err := h.formChapter(c, chapterForm(c))
		in.Chapters = append(in.Chapters, ch)
		return err
	})
}

// editChapterForm: POST /{lang}/studies/{id}/chapters/{n}/edit changes
// chapter n.
func (h *Site) editChapterForm(c echo.Context) error {
	n, _ := strconv.Atoi(c.Param("n"))
	if n < 1 {
		return core.ErrNotFound
	}
	return h.editStudy(c, n, func(_ *content.Study, in *content.StudyInput) error {
		if n > len(in.Chapters) {
			return content.ErrNotFound
		}
		ch, err := h.formChapter(c, chapterForm(c))
		in.Chapters[n-1] = ch
		return err
	})
}

// moveChapterForm: POST /{lang}/studies/{id}/chapters/{n}/move (field by,
// -1 or 1) swaps chapter n with its neighbour.
func (h *Site) moveChapterForm(c echo.Context) error {
	n, _ := strconv.Atoi(c.Param("n"))
	by, err := strconv.Atoi(c.FormValue("by"))
	if err != nil || by != -1 && by != 1 {
		return core.ErrBadRequest
	}
	return h.editStudy(c, 0, func(_ *content.Study, in *content.StudyInput) error {
		i, j := n-1, n-1+by
		if i < 0 || i >= len(in.Chapters) || j < 0 || j >= len(in.Chapters) {
			return content.ErrNotFound
		}
		in.Chapters[i], in.Chapters[j] = in.Chapters[j], in.Chapters[i]
		return nil
	})
}

// deleteChapterForm: POST /{lang}/studies/{id}/chapters/{n}/delete
// deletes chapter n (a study keeps one at least).
func (h *Site) deleteChapterForm(c echo.Context) error {
	n, _ := strconv.Atoi(c.Param("n"))
	return h.editStudy(c, 0, func(_ *content.Study, in *content.StudyInput) error {
		if n < 1 || n > len(in.Chapters) {
			return content.ErrNotFound
		}
		in.Chapters = slices.Delete(in.Chapters, n-1, n)
		return nil
	})
}

// deleteStudyForm: POST /{lang}/studies/{id}/delete deletes the owner's
// study and goes to the studies.
func (h *Site) deleteStudyForm(c echo.Context) error {
	err := h.Content.Studies.Delete(c.Request().Context(), h.UserID(c), c.Param("id"))
	if errors.Is(err, content.ErrNotFound) {
		return core.ErrNotFound
	}
	if err != nil {
		return err
	}
	return core.Redirect(c, route.Studies(core.LangOf(c)))
}
