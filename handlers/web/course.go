package web

import (
	"context"

	"github.com/labstack/echo/v4"

	"oware/content"
	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/tutor"
	"oware/views"
)

// The course (issue 32): a lesson is done when its task steps were
// answered right; a practice step is played out against the computer.

// solveStep records that the learner answered task step s of lesson t
// right: an account's in the database, a visitor's in the session.
func (h *Site) solveStep(c echo.Context, t *content.Tutorial, step int) error {
	tasks := content.TaskSteps(*t)
	if u := h.User(c); u != nil {
		h.keepVisitorProgress(c, u)
		_, err := h.Accounts.SaveTutorialSolved(c.Request().Context(), u.ID, t.Slug, step, tasks)
		return err
	}
	sess := h.Visit(c).Sess
	all := sess.Tutorials()
	p := all[t.Slug]
	p.Step = max(p.Step, step)
	p.Solved = content.AddSolved(p.Solved, step)
	p.Done = p.Done || content.SolvedAll(p.Solved, tasks)
	all[t.Slug] = p
	sess.SetTutorials(all)
	return sess.Save()
}

// practiceView fills in the practice of step s (goal g) of lesson t: its
// prompt, the form that starts the game and, when the visitor's last
// practice game is this step's, its link and, once decided, the verdict
// (a met goal solves the step).
func (h *Site) practiceView(c echo.Context, v *views.TutorialStepView, t *content.Tutorial, s *content.TutorialStep, g tutor.Goal, r engine.Rules, start engine.Position) {
	lang := core.LangOf(c)
	l := h.Visit(c).L
	v.Practice = &views.PracticeView{Goal: tutor.PracticePrompt(l, r, g), Action: route.TutorialPractice(lang, t.Slug, s.Number)}
	v.Board.Playable, v.HintURL = 0, ""
	slug, step, id := h.Visit(c).Sess.Practice()
	if slug != t.Slug || step != s.Number {
		return
	}
	gm, err := h.Games.Load(c.Request().Context(), id)
	if err != nil {
		return // the game is gone: the step offers a new one
	}
	v.Practice.GameURL = route.Game(lang, gm.ID)
	met, decided, lines := tutor.JudgePractice(l, r, g, start, gm.Position, gm.Status == game.Over, gm.Result)
	if !decided && gm.Status != game.Over {
		v.Practice.Verdict = nil
		return
	}
	v.Practice.Verdict = &views.TutorialFeedback{Correct: met, Lines: lines}
	if met {
		if err := h.solveStep(c, t, s.Number); err != nil {
			h.Log.ErrorContext(c.Request().Context(), "tutorial progress", "err", err)
		}
	}
}

// tutorialPractice starts the practice game of a step: the step's
// position against the computer at the goal's level, the learner in the
// seat of the side to move; then the game's page.
func (h *Site) tutorialPractice(c echo.Context) error {
	t, s, err := h.loadStep(c)
	if err != nil {
		return err
	}
	g, err := tutor.ParseGoal(s.Task)
	if err != nil || g.Kind != tutor.GoalPractice {
		return core.ErrNotFound
	}
	r, pos, err := tutor.Board(s.Rules, s.Position, s.Highlight, s.Accept)
	if err != nil {
		return err
	}
	if err := h.RoomForSeat(c); err != nil {
		return err
	}
	gm, token, err := h.Games.Create(c.Request().Context(), game.Settings{
		Rules: r.Name(), Fours: game.Fours(r), Seat: pos.ToMove.String(), UserID: h.UserID(c), Computer: g.Level,
		Start: s.Position,
	})
	if err != nil {
		return err
	}
	if err := h.KeepSeat(c, gm.ID, game.HashToken(token)); err != nil {
		return err
	}
	sess := h.Visit(c).Sess
	sess.SetPractice(t.Slug, s.Number, gm.ID)
	if err := sess.Save(); err != nil {
		return err
	}
	return core.Redirect(c, route.Game(core.LangOf(c), gm.ID))
}

// courseContinue returns the home page's way back into the course: the
// lesson last worked on and not done (the first not done after it when it
// is), at its furthest step; nil before any lesson.
func (h *Site) courseContinue(ctx context.Context, c echo.Context) *views.CourseContinue {
	lang := core.LangOf(c)
	progress := h.tutorialProgress(c)
	if len(progress) == 0 {
		return nil
	}
	list, err := h.Content.Tutorials(ctx, lang)
	if err != nil {
		h.Log.ErrorContext(ctx, "course", "err", err)
		return nil
	}
	out := &views.CourseContinue{All: len(list)}
	for _, t := range list {
		p := progress[t.Slug]
		if p.Done {
			out.Done++
			continue
		}
		if out.URL == "" && (p.Step > 0 || out.Done > 0) {
			step := min(max(p.Step, 1), len(t.Steps))
			out.URL, out.Lesson, out.Step, out.Total = route.TutorialStep(lang, t.Slug, step), t.Title, step, len(t.Steps)
		}
	}
	if out.URL == "" {
		return nil
	}
	return out
}

// lessonsDone returns the lessons of the course account id has done, for
// its profile; nil before the first.
func (h *Site) lessonsDone(ctx context.Context, lang string, id uint) (*views.LessonsDone, error) {
	progress, err := h.Accounts.TutorialProgress(ctx, id)
	if err != nil {
		return nil, err
	}
	done := 0
	for _, p := range progress {
		if p.Done {
			done++
		}
	}
	if done == 0 {
		return nil, nil
	}
	list, err := h.Content.Tutorials(ctx, lang)
	if err != nil {
		return nil, err
	}
	return &views.LessonsDone{Done: done, All: len(list), URL: route.Tutorials(lang)}, nil
}

// practiceBanner returns the game page's line for g when it is the
// visitor's last practice game (seated in it), nil otherwise.
func (h *Site) practiceBanner(c echo.Context, g *game.Game, seat engine.Side) *views.PracticeBanner {
	slug, step, id := h.Visit(c).Sess.Practice()
	if seat == engine.Nobody || id != g.ID {
		return nil
	}
	lang := core.LangOf(c)
	t, err := h.Content.Tutorial(c.Request().Context(), lang, slug)
	if err != nil || step < 1 || step > len(t.Steps) {
		return nil
	}
	s := t.Steps[step-1]
	goal, err := tutor.ParseGoal(s.Task)
	if err != nil || goal.Kind != tutor.GoalPractice {
		return nil
	}
	r, _, err := tutor.Board(s.Rules, s.Position, s.Highlight, s.Accept)
	if err != nil {
		return nil
	}
	return &views.PracticeBanner{Goal: tutor.PracticePrompt(h.Visit(c).L, r, goal), StepURL: route.TutorialStep(lang, slug, step)}
}
