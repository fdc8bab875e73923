package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/content"
	"oware/engine"
	"oware/game"
	"oware/route"
	"oware/tutor"
	"oware/views"
)

// tutorialStart sends /{lang}/tutorials/{slug} to the tutorial's first
// step; an unknown slug is a 404 at once.
func (h *handler) tutorialStart(c echo.Context) error {
	t, err := h.content.Tutorial(c.Request().Context(), langOf(c), c.Param("slug"))
	if errors.Is(err, content.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, route.TutorialStep(langOf(c), t.Slug, 1))
}

// tutorialIndex lists the tutorials of the request's language with the
// learner's progress.
func (h *handler) tutorialIndex(c echo.Context) error {
	lang := langOf(c)
	list, err := h.content.Tutorials(c.Request().Context(), lang)
	if err != nil {
		return err
	}
	progress := h.tutorialProgress(c)
	var cards []views.TutorialCard
	for _, t := range list {
		pr := progress[t.Slug]
		step := min(max(pr.step, 1), len(t.Steps))
		if pr.done {
			step = 1
		}
		cards = append(cards, views.TutorialCard{
			URL: route.TutorialStep(lang, t.Slug, step), Title: t.Title, Summary: t.Summary,
			Steps: len(t.Steps), Reached: min(pr.step, len(t.Steps)), Done: pr.done,
		})
	}
	p := h.page(c, "tut_index_title", route.TutorialsPattern)
	p.Description = p.L.T("tut_index_intro")
	return render(c, http.StatusOK, views.TutorialsIndex(p, cards))
}

// loadStep loads the tutorial and the step of the request's :slug and
// :step; an unknown tutorial or a step out of range is a 404.
func (h *handler) loadStep(c echo.Context) (*content.Tutorial, *content.TutorialStep, error) {
	t, err := h.content.Tutorial(c.Request().Context(), langOf(c), c.Param("slug"))
	if errors.Is(err, content.ErrNotFound) {
		return nil, nil, errNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	n, err := strconv.Atoi(c.Param("step"))
	if err != nil || n < 1 || n > len(t.Steps) || strconv.Itoa(n) != c.Param("step") {
		return nil, nil, errNotFound
	}
	return t, &t.Steps[n-1], nil
}

// tutorialStep shows a step (the whole page, or for htmx navigation the
// inside of #tutorial) and records the learner's progress.
func (h *handler) tutorialStep(c echo.Context) error {
	t, s, err := h.loadStep(c)
	if err != nil {
		return err
	}
	if err := h.reachStep(c, t.Slug, s.Number, len(t.Steps)); err != nil {
		h.log.ErrorContext(c.Request().Context(), "tutorial progress", "err", err)
	}
	v, err := h.stepView(c, t, s)
	if err != nil {
		return err
	}
	return h.renderStep(c, t, s, v)
}

// tutorialAnswer checks the learner's answer to a step's task with the
// engine (package tutor) and shows the step again with the verdict: after
// a right move the board after it (sowing animated, captures shown), after
// a wrong one the same board and a hint that says why. Without JavaScript
// it is an ordinary form POST answered with the whole page.
func (h *handler) tutorialAnswer(c echo.Context) error {
	t, s, err := h.loadStep(c)
	if err != nil {
		return err
	}
	if s.Task == "" {
		return redirect(c, route.TutorialStep(langOf(c), t.Slug, s.Number))
	}
	v, err := h.stepView(c, t, s)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return errBadRequest
	}
	r, pos, err := tutor.Board(s.Rules, s.Position, s.Highlight, s.Accept)
	if err != nil {
		return err
	}
	accept, _ := tutor.ParseLabels(s.Accept)
	l := h.visit(c).l
	var a tutor.Verdict
	if s.Task == "legal" {
		a = tutor.CheckLegal(l, r, pos, form["pit"])
		v.Checked = a.Checked
	} else {
		a = tutor.CheckMove(l, r, pos, s.Task, accept, c.FormValue("pit"))
	}
	v.Feedback = &views.TutorialFeedback{Correct: a.Correct, Lines: a.Lines}
	if a.Correct {
		v.Answered = true
		v.Board.Playable = 0
		if a.Played {
			v.Position = a.After
			v.Board.Sowing = a.Move.Sown
			v.Board.Last = a.Move.Pit
			v.Board.Highlight = 0
			for _, cp := range a.Move.Captures {
				v.Board.Highlight |= 1 << cp.Pit
			}
		}
	}
	return h.renderStep(c, t, s, v)
}

// stepView builds the view of step s of tutorial t, before any answer.
func (h *handler) stepView(c echo.Context, t *content.Tutorial, s *content.TutorialStep) (views.TutorialStepView, error) {
	lang := langOf(c)
	r, pos, err := tutor.Board(s.Rules, s.Position, s.Highlight, s.Accept)
	if err != nil {
		return views.TutorialStepView{}, err
	}
	text, err := content.Markdown(s.Text)
	if err != nil {
		return views.TutorialStepView{}, err
	}
	hl, _ := tutor.ParseLabels(s.Highlight)
	here := route.TutorialStep(lang, t.Slug, s.Number)
	v := views.TutorialStepView{
		TutorialTitle: t.Title, IndexURL: route.Tutorials(lang),
		Number: s.Number, Total: len(t.Steps), Title: s.Title,
		TextHTML: text, Rules: r.Name(), Fours: game.Fours(r), Position: pos, Task: s.Task,
		Board:  views.BoardOptions{Highlight: hl, Last: -1},
		Action: here, CSRF: csrfToken(c), ScriptURL: h.assets.URL("tutorial.js"),
		AnalysisURL: boardPath(lang, r, pos),
	}
	rounds := game.NamNam(r)
	if rounds {
		// Nam-nam: the board shows who owns each pit and the stores.
		v.Board.Match = &views.BoardMatch{}
	}
	switch s.Task {
	case "legal":
		if rounds {
			// Any pit may be the mover's in Nam-nam: every pit is offered.
			v.Choices = 1<<engine.NumPits - 1
			break
		}
		for i := range engine.PitsPerRow {
			v.Choices |= 1 << (engine.RowStart(pos.ToMove) + i)
		}
	case "":
	default:
		// Every pit is a button, so that a wrong one gets its hint.
		v.Board.Playable = 1<<engine.NumPits - 1
		// Without JavaScript the answer page scrolls to the verdict.
		v.Board.Action, v.Board.Target, v.Board.CSRF = here+"#feedback", "#tutorial", v.CSRF
		v.HintURL = route.In(lang, route.TutorialHintPattern, t.Slug, strconv.Itoa(s.Number)) // a move answers it: the computer can hint one
	}
	v.Puzzles = tutorialPuzzles(lang, t.Slug)
	if s.Number > 1 {
		v.PrevURL = route.TutorialStep(lang, t.Slug, s.Number-1)
	}
	if s.Number < len(t.Steps) {
		v.NextURL = route.TutorialStep(lang, t.Slug, s.Number+1)
	} else {
		v.PlayURL = route.NewGame(lang)
		if rounds {
			v.PlayURL += "?rules=" + r.Name()
		}
	}
	return v, nil
}

// renderStep answers with the step: the inside of #tutorial for htmx, else
// the whole page.
func (h *handler) renderStep(c echo.Context, t *content.Tutorial, s *content.TutorialStep, v views.TutorialStepView) error {
	if htmx(c) {
		v.PageTitle = s.Title + " · " + t.Title
		return render(c, http.StatusOK, views.TutorialStep(h.visit(c).l, v))
	}
	p := h.page(c, "tut_index_title", route.Fill(route.TutorialStepPattern, t.Slug, strconv.Itoa(s.Number)))
	p.Title = s.Title + " · " + t.Title
	p.Description = t.Summary
	return render(c, http.StatusOK, views.TutorialStepPage(p, v))
}

// tutorialProgress returns the learner's progress by tutorial slug: a
// registered player's from the database, a visitor's from the session.
func (h *handler) tutorialProgress(c echo.Context) map[string]progress {
	v := h.visit(c)
	if h.user(c) == nil {
		return v.sess.tutorials()
	}
	h.keepVisitorProgress(c, h.user(c))
	list, err := h.accounts.TutorialProgress(c.Request().Context(), h.user(c).ID)
	if err != nil {
		h.log.ErrorContext(c.Request().Context(), "tutorial progress", "err", err)
	}
	out := map[string]progress{}
	for _, p := range list {
		out[p.TutorialSlug] = progress{p.Step, p.Done}
	}
	return out
}

// keepVisitorProgress moves the progress a player made as a visitor, before
// logging in, from the session into their account.
func (h *handler) keepVisitorProgress(c echo.Context, u *accounts.User) {
	sess := h.visit(c).sess
	all := sess.tutorials()
	if len(all) == 0 {
		return
	}
	for slug, p := range all {
		if err := h.accounts.SaveTutorialProgress(c.Request().Context(), u.ID, slug, max(p.step, 1), p.done); err != nil {
			h.log.ErrorContext(c.Request().Context(), "tutorial progress", "err", err)
			return
		}
	}
	sess.setTutorials(nil)
	if err := sess.save(); err != nil {
		h.log.ErrorContext(c.Request().Context(), "session", "err", err)
	}
}

// reachStep records that the learner reached step of the tutorial slug,
// which has total steps.
func (h *handler) reachStep(c echo.Context, slug string, step, total int) error {
	done := step == total
	v := h.visit(c)
	if h.user(c) != nil {
		h.keepVisitorProgress(c, h.user(c))
		return h.accounts.SaveTutorialProgress(c.Request().Context(), h.user(c).ID, slug, step, done)
	}
	all := v.sess.tutorials()
	old := all[slug]
	if step <= old.step && (old.done || !done) {
		return nil
	}
	all[slug] = progress{max(step, old.step), done || old.done}
	v.sess.setTutorials(all)
	return v.sess.save()
}
