package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/content"
	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/tutor"
	"oware/views"
)

// tutorialStart sends /{lang}/tutorials/{slug} to the tutorial's first
// step; an unknown slug is a 404 at once.
func (h *Site) tutorialStart(c echo.Context) error {
	t, err := h.Content.Tutorial(c.Request().Context(), core.LangOf(c), c.Param("slug"))
	if errors.Is(err, content.ErrNotFound) {
		return core.ErrNotFound
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, route.TutorialStep(core.LangOf(c), t.Slug, 1))
}

// tutorialIndex lists the tutorials of the request's language with the
// learner's progress.
func (h *Site) tutorialIndex(c echo.Context) error {
	lang := core.LangOf(c)
	list, err := h.Content.Tutorials(c.Request().Context(), lang)
	if err != nil {
		return err
	}
	progress := h.tutorialProgress(c)
	var cards []views.TutorialCard
	for _, t := range list {
		pr := progress[t.Slug]
		step := min(max(pr.Step, 1), len(t.Steps))
		if pr.Done {
			step = 1
		}
		cards = append(cards, views.TutorialCard{
			URL: route.TutorialStep(lang, t.Slug, step), Title: t.Title, Summary: t.Summary,
			Steps: len(t.Steps), Reached: min(pr.Step, len(t.Steps)), Done: pr.Done, Stage: t.Stage,
		})
	}
	p := h.Page(c, "tut_index_title", route.TutorialsPattern)
	p.Description = p.L.T("tut_index_intro")
	return core.Render(c, http.StatusOK, views.TutorialsIndex(p, cards))
}

// loadStep loads the tutorial and the step of the request's :slug and
// :step; an unknown tutorial or a step out of range is a 404.
func (h *Site) loadStep(c echo.Context) (*content.Tutorial, *content.TutorialStep, error) {
	t, err := h.Content.Tutorial(c.Request().Context(), core.LangOf(c), c.Param("slug"))
	if errors.Is(err, content.ErrNotFound) {
		return nil, nil, core.ErrNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	n, err := strconv.Atoi(c.Param("step"))
	if err != nil || n < 1 || n > len(t.Steps) || strconv.Itoa(n) != c.Param("step") {
		return nil, nil, core.ErrNotFound
	}
	return t, &t.Steps[n-1], nil
}

// tutorialStep shows a step (the whole page, or for htmx navigation the
// inside of #tutorial) and records the learner's progress.
func (h *Site) tutorialStep(c echo.Context) error {
	t, s, err := h.loadStep(c)
	if err != nil {
		return err
	}
	if err := h.reachStep(c, t.Slug, s.Number); err != nil {
		h.Log.ErrorContext(c.Request().Context(), "tutorial progress", "err", err)
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
func (h *Site) tutorialAnswer(c echo.Context) error {
	t, s, err := h.loadStep(c)
	if err != nil {
		return err
	}
	v, err := h.stepView(c, t, s)
	if err != nil {
		return err
	}
	if s.Task == "" || v.Practice != nil {
		return core.Redirect(c, route.TutorialStep(core.LangOf(c), t.Slug, s.Number))
	}
	form, err := c.FormParams()
	if err != nil {
		return core.ErrBadRequest
	}
	r, pos, err := tutor.Board(s.Rules, s.Position, s.Highlight, s.Accept)
	if err != nil {
		return err
	}
	accept, _ := tutor.ParseLabels(s.Accept)
	l := h.Visit(c).L
	var a tutor.Verdict
	if s.Task == "legal" {
		a = tutor.CheckLegal(l, r, pos, form["pit"])
		v.Checked = a.Checked
	} else {
		a = tutor.CheckMove(l, r, pos, s.Task, accept, c.FormValue("pit"))
	}
	v.Feedback = &views.TutorialFeedback{Correct: a.Correct, Lines: a.Lines}
	if a.Correct {
		if err := h.solveStep(c, t, s.Number); err != nil {
			h.Log.ErrorContext(c.Request().Context(), "tutorial progress", "err", err)
		}
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
func (h *Site) stepView(c echo.Context, t *content.Tutorial, s *content.TutorialStep) (views.TutorialStepView, error) {
	lang := core.LangOf(c)
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
		Action: here, CSRF: core.CsrfToken(c), ScriptURL: h.Assets.URL("tutorial.js"),
		AnalysisURL: boardPath(lang, r, pos),
	}
	rounds := game.NamNam(r)
	if rounds {
		// Nam-nam: the board shows who owns each pit and the stores.
		v.Board.Match = &views.BoardMatch{}
	}
	goal, _ := tutor.ParseGoal(s.Task)
	switch goal.Kind {
	case tutor.GoalPractice:
		h.practiceView(c, &v, t, s, goal, r, pos)
	case tutor.GoalLegal:
		if rounds {
			// Any pit may be the mover's in Nam-nam: every pit is offered.
			v.Choices = 1<<engine.NumPits - 1
			break
		}
		v.Choices = rowMoves(pos.ToMove)
	case "":
	default:
		// Every pit is a button, so that a wrong one gets its hint.
		v.Board.Playable = 1<<engine.NumPits - 1
		if !rounds {
			// The opponent's row answers a click with its hint, but is no
			// keyboard stop: Tab goes through the mover's six pits only.
			v.Board.Untabbed = v.Board.Playable &^ rowMoves(pos.ToMove)
		}
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
func (h *Site) renderStep(c echo.Context, t *content.Tutorial, s *content.TutorialStep, v views.TutorialStepView) error {
	if core.Htmx(c) {
		v.PageTitle = s.Title + " · " + t.Title
		return core.Render(c, http.StatusOK, views.TutorialStep(h.Visit(c).L, v))
	}
	p := h.Page(c, "tut_index_title", route.Fill(route.TutorialStepPattern, t.Slug, strconv.Itoa(s.Number)))
	p.Title = s.Title + " · " + t.Title
	p.Description = t.Summary
	p.Preview = lessonPreview(h.Visit(c).L, t)
	return core.Render(c, http.StatusOK, views.TutorialStepPage(p, v))
}

// tutorialProgress returns the learner's progress by tutorial slug: a
// registered player's from the database, a visitor's from the session.
func (h *Site) tutorialProgress(c echo.Context) map[string]core.Progress {
	v := h.Visit(c)
	if h.User(c) == nil {
		return v.Sess.Tutorials()
	}
	h.keepVisitorProgress(c, h.User(c))
	list, err := h.Accounts.TutorialProgress(c.Request().Context(), h.User(c).ID)
	if err != nil {
		h.Log.ErrorContext(c.Request().Context(), "tutorial progress", "err", err)
	}
	out := map[string]core.Progress{}
	for _, p := range list {
		out[p.TutorialSlug] = core.Progress{Step: p.Step, Solved: p.Solved, Done: p.Done}
	}
	return out
}

// keepVisitorProgress moves the progress a player made as a visitor, before
// logging in, from the session into their account.
func (h *Site) keepVisitorProgress(c echo.Context, u *accounts.User) {
	sess := h.Visit(c).Sess
	all := sess.Tutorials()
	if len(all) == 0 {
		return
	}
	ctx := c.Request().Context()
	for slug, p := range all {
		err := h.Accounts.SaveTutorialProgress(ctx, u.ID, slug, max(p.Step, 1), false)
		var tasks []int
		if t, terr := h.Content.Tutorial(ctx, core.LangOf(c), slug); terr == nil {
			tasks = content.TaskSteps(*t)
		}
		for _, f := range strings.Fields(p.Solved) {
			n, _ := strconv.Atoi(f)
			if err == nil && n > 0 {
				_, err = h.Accounts.SaveTutorialSolved(ctx, u.ID, slug, n, tasks)
			}
		}
		if err != nil {
			h.Log.ErrorContext(ctx, "tutorial progress", "err", err)
			return
		}
	}
	sess.SetTutorials(nil)
	if err := sess.Save(); err != nil {
		h.Log.ErrorContext(c.Request().Context(), "session", "err", err)
	}
}

// reachStep records that the learner reached step of the lesson slug
// (a lesson is done by its answers, solveStep, not by its last step).
func (h *Site) reachStep(c echo.Context, slug string, step int) error {
	v := h.Visit(c)
	if h.User(c) != nil {
		h.keepVisitorProgress(c, h.User(c))
		return h.Accounts.SaveTutorialProgress(c.Request().Context(), h.User(c).ID, slug, step, false)
	}
	all := v.Sess.Tutorials()
	old := all[slug]
	if step <= old.Step {
		return nil
	}
	old.Step = step
	all[slug] = old
	v.Sess.SetTutorials(all)
	return v.Sess.Save()
}

// rowMoves is the set of side's six pits.
func rowMoves(side engine.Side) engine.Moves {
	var m engine.Moves
	for i := range engine.PitsPerRow {
		m |= 1 << (engine.RowStart(side) + i)
	}
	return m
}
