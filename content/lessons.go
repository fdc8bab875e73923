package content

import (
	"context"
	"fmt"
	"strings"

	"oware/engine"
	"oware/models"
	"oware/tutor"
)

// CheckLesson checks every step of the lesson t with the engine (its rule
// set, position and highlight; its task's goal, tutor.ParseGoal) and sets
// each task's Accept to the moves the engine finds meet the goal
// (tutor.Accepted). A goal no move (or every move) meets, or an accept
// written in the source that differs from the engine's, is an error that
// names the lesson and step.
func CheckLesson(ctx context.Context, t *models.Tutorial) error {
	for i := range t.Steps {
		s := &t.Steps[i]
		fail := func(err error) error {
			return fmt.Errorf("lesson %s/%s step %d (%s): %w", t.Locale, t.Slug, s.Number, s.Title, err)
		}
		r, pos, err := tutor.Board(s.Rules, s.Position, s.Highlight, s.Accept)
		if err != nil {
			return fail(err)
		}
		if s.Task == "" {
			continue
		}
		g, err := tutor.ParseGoal(s.Task)
		if err != nil {
			return fail(err)
		}
		written, _ := tutor.ParseLabels(s.Accept)
		got, err := tutor.Accepted(ctx, g, r, pos, written)
		if err != nil {
			return fail(err)
		}
		if s.Accept != "" && written != got {
			return fail(fmt.Errorf("accept %v, but the engine finds %v for %q", written.Labels(), got.Labels(), s.Task))
		}
		s.Accept = labels(got)
	}
	return nil
}

// labels writes m as a step's accept list ("D E F").
func labels(m engine.Moves) string { return strings.Join(m.Labels(), " ") }

// Lesson is a lesson of the course as its list gives it: the slug, the
// stage (models.Stages), the title in the list's language, and how many
// steps and tasks it has.
type Lesson struct {
	Slug, Stage, Title string
	Steps, Tasks       int
}

// Course returns the lessons of locale in course order (models.CourseOrder).
func (s *Service) Course(ctx context.Context, locale string) ([]Lesson, error) {
	list, err := s.db.Tutorials(ctx, locale)
	if err != nil {
		return nil, err
	}
	out := make([]Lesson, len(list))
	for i, t := range list {
		out[i] = Lesson{Slug: t.Slug, Stage: t.Stage, Title: t.Title, Steps: len(t.Steps), Tasks: len(TaskSteps(t))}
	}
	return out, nil
}

// TaskSteps returns the numbers of the steps of t that set a task, in
// order: the steps a learner answers right to finish the lesson.
func TaskSteps(t models.Tutorial) []int {
	var out []int
	for _, s := range t.Steps {
		if s.Task != "" {
			out = append(out, s.Number)
		}
	}
	return out
}

// AddSolved and SolvedAll keep a list of solved task steps ("2 3 6"), as
// the progress of an account (models) and of a visitor's session does.
var (
	AddSolved = models.AddSolved
	SolvedAll = models.SolvedAll
)
