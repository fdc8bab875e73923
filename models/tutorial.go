package models

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Tutorial is one interactive tutorial in one locale (table tutorials),
// loaded at start-up from locales/tutorials/<locale>/<nn>-<slug>.md.
type Tutorial struct {
	// ID is the row id, set by the database.
	ID uint `gorm:"primaryKey"`
	// Slug names the tutorial in URLs ("oware-step-by-step"); the same in
	// every locale.
	Slug string
	// Locale is "cs", "it" or "en".
	Locale string
	// Title and Summary come from the source's front matter.
	Title, Summary string
	// Stage is the course's stage the lesson belongs to (one of Stages),
	// from the front matter.
	Stage string
	// Ordinal is the lesson's place in its stage (the source's nn).
	Ordinal int
	// SourceHash is the sha256 hex of the source file; SaveTutorial skips
	// an unchanged source.
	SourceHash string
	// CreatedAt and UpdatedAt are set by SaveTutorial (UTC).
	CreatedAt, UpdatedAt time.Time
	// Steps are the steps in order, when loaded by TutorialBySlug or
	// Tutorials, and the steps SaveTutorial writes.
	Steps []TutorialStep `gorm:"constraint:OnDelete:CASCADE"`
}

// TutorialStep is one step of a tutorial (table tutorial_steps).
type TutorialStep struct {
	// ID is the row id, set by the database.
	ID uint `gorm:"primaryKey"`
	// TutorialID is the Tutorial's ID.
	TutorialID uint
	// Number is the step's place in the tutorial, from 1.
	Number int
	// Title is the step's heading; Text its body (Markdown).
	Title, Text string
	// Position is the RULES.md position string the board shows.
	Position string
	// Highlight is a space-separated list of pit labels to highlight.
	Highlight string
	// Task is the step's goal in its source form (tutor.ParseGoal: "play",
	// "legal", "best", "capture 3", "feed", "save b", "practice win
	// level=3"), "" for a step without a task.
	Task string
	// Accept is a space-separated list of the labels that answer the task
	// (for "legal": the set of legal moves): as written in the source, and
	// once loaded (content.Load) the engine's accepted moves.
	Accept string
	// Rules is the engine rule set of the step ("abapa", "wari", "warri",
	// "namnam"), for Nam-nam optionally with its table setting as in a
	// game record's Variant tag ("namnam fours=owner").
	Rules string
}

// TutorialProgress is how far a registered player got in a tutorial
// (table tutorial_progress). A visitor's progress lives in the session.
type TutorialProgress struct {
	// ID is the row id, set by the database.
	ID uint `gorm:"primaryKey"`
	// UserID is the player's User.ID.
	UserID *uint
	// TutorialSlug is the Tutorial's Slug (progress holds in every locale).
	TutorialSlug string
	// Step is the furthest step reached, from 1.
	Step int
	// Solved lists the numbers of the task steps answered right, in
	// order, separated by spaces ("3 5 6").
	Solved string
	// Done is set once every task step of the lesson was answered right
	// (SaveTutorialSolved).
	Done bool
	// CreatedAt and UpdatedAt are set by SaveTutorialProgress (UTC).
	CreatedAt, UpdatedAt time.Time
}

// TableName is the table of TutorialProgress.
func (TutorialProgress) TableName() string { return "tutorial_progress" }

// SaveTutorial stores t with its steps under (Slug, Locale): a new
// tutorial is inserted; a stored one whose SourceHash differs has its row
// updated and its steps replaced; an unchanged one is left alone. It
// reports whether anything was written. On return t.ID is the row id.
func (db *DB) SaveTutorial(ctx context.Context, t *Tutorial) (bool, error) {
	changed := false
	err := db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var old Tutorial
		err := tx.Where("slug = ? AND locale = ?", t.Slug, t.Locale).Take(&old).Error
		now := time.Now().UTC()
		steps := t.Steps
		switch {
		case errors.Is(err, gorm.ErrRecordNotFound):
			t.ID, t.CreatedAt, t.UpdatedAt = 0, now, now
			t.Steps = nil
			if err := tx.Omit("Steps").Create(t).Error; err != nil {
				return err
			}
		case err != nil:
			return err
		case old.SourceHash == t.SourceHash && old.Ordinal == t.Ordinal:
			t.ID, t.CreatedAt, t.UpdatedAt = old.ID, old.CreatedAt, old.UpdatedAt
			return nil
		default:
			t.ID, t.CreatedAt, t.UpdatedAt = old.ID, old.CreatedAt, now
			err := tx.Model(&Tutorial{}).Where("id = ?", old.ID).Updates(map[string]any{
				"title": t.Title, "summary": t.Summary, "stage": t.Stage, "ordinal": t.Ordinal,
				"source_hash": t.SourceHash, "updated_at": now,
			}).Error
			if err != nil {
				return err
			}
			if err := tx.Where("tutorial_id = ?", old.ID).Delete(&TutorialStep{}).Error; err != nil {
				return err
			}
		}
		for i := range steps {
			steps[i].ID, steps[i].TutorialID = 0, t.ID
		}
		t.Steps = steps
		changed = true
		if len(steps) == 0 {
			return nil
		}
		return tx.Create(&t.Steps).Error
	})
	return changed, err
}

// Tutorials returns the tutorials of a locale in course order (CourseOrder),
// with their steps.
func (db *DB) Tutorials(ctx context.Context, locale string) ([]Tutorial, error) {
	var list []Tutorial
	err := db.Gorm.WithContext(ctx).
		Preload("Steps", func(tx *gorm.DB) *gorm.DB { return tx.Order("number") }).
		Where("locale = ?", locale).Find(&list).Error
	slices.SortFunc(list, CourseOrder)
	return list, err
}

// Stages are the course's stages in their order (a lesson's Stage).
var Stages = []string{"rules", "tactics", "strategy", "endgames", "openings", "namnam"}

// CourseOrder orders lessons as the course takes them: by stage (Stages),
// then by their place in it (Ordinal), then by slug. A lesson of an
// unknown stage comes last.
func CourseOrder(a, b Tutorial) int {
	rank := func(t Tutorial) int {
		if i := slices.Index(Stages, t.Stage); i >= 0 {
			return i
		}
		return len(Stages)
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Ordinal, b.Ordinal); c != 0 {
		return c
	}
	return strings.Compare(a.Slug, b.Slug)
}

// TutorialBySlug returns the tutorial slug of a locale with its steps in
// order, or ErrNotFound.
func (db *DB) TutorialBySlug(ctx context.Context, locale, slug string) (*Tutorial, error) {
	var t Tutorial
	err := db.Gorm.WithContext(ctx).
		Preload("Steps", func(tx *gorm.DB) *gorm.DB { return tx.Order("number") }).
		Where("slug = ? AND locale = ?", slug, locale).Take(&t).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &t, nil
}

// TutorialProgressOf returns a registered player's progress in every
// tutorial they started.
func (db *DB) TutorialProgressOf(ctx context.Context, userID uint) ([]TutorialProgress, error) {
	var list []TutorialProgress
	err := db.Gorm.WithContext(ctx).Where("user_id = ?", userID).Order("tutorial_slug").Find(&list).Error
	return list, err
}

// SaveTutorialProgress records that the player reached step of the
// tutorial slug (done: its last step). Progress only grows: a lower step
// keeps the stored one, and done stays set.
func (db *DB) SaveTutorialProgress(ctx context.Context, userID uint, slug string, step int, done bool) error {
	save := func() error {
		return db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var p TutorialProgress
			err := tx.Where("user_id = ? AND tutorial_slug = ?", userID, slug).Take(&p).Error
			now := time.Now().UTC()
			if errors.Is(err, gorm.ErrRecordNotFound) {
				uid := userID
				return tx.Create(&TutorialProgress{UserID: &uid, TutorialSlug: slug, Step: step,
					Done: done, CreatedAt: now, UpdatedAt: now}).Error
			}
			if err != nil {
				return err
			}
			if step <= p.Step && (p.Done || !done) {
				return nil
			}
			return tx.Model(&TutorialProgress{}).Where("id = ?", p.ID).Updates(map[string]any{
				"step": max(step, p.Step), "done": done || p.Done, "updated_at": now,
			}).Error
		})
	}
	err := save()
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		err = save() // a concurrent request inserted the row first
	}
	return err
}

// SaveTutorialSolved records that the player answered task step of the
// lesson slug right (and reached it); tasks are the lesson's task steps.
// It returns whether the lesson is now done: every one of tasks solved.
// Progress only grows.
func (db *DB) SaveTutorialSolved(ctx context.Context, userID uint, slug string, step int, tasks []int) (bool, error) {
	done := false
	save := func() error {
		return db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var p TutorialProgress
			err := tx.Where("user_id = ? AND tutorial_slug = ?", userID, slug).Take(&p).Error
			now := time.Now().UTC()
			if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
				return err
			}
			solved := AddSolved(p.Solved, step)
			done = p.Done || SolvedAll(solved, tasks)
			if errors.Is(err, gorm.ErrRecordNotFound) {
				uid := userID
				return tx.Create(&TutorialProgress{UserID: &uid, TutorialSlug: slug, Step: step, Solved: solved,
					Done: done, CreatedAt: now, UpdatedAt: now}).Error
			}
			if solved == p.Solved && done == p.Done && step <= p.Step {
				return nil
			}
			return tx.Model(&TutorialProgress{}).Where("id = ?", p.ID).Updates(map[string]any{
				"step": max(step, p.Step), "solved": solved, "done": done, "updated_at": now,
			}).Error
		})
	}
	err := save()
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		err = save() // a concurrent request inserted the row first
	}
	return done, err
}

// AddSolved returns the list of solved steps with step added, in order
// ("3 5" and 4: "3 4 5").
func AddSolved(solved string, step int) string {
	var nums []int
	for _, f := range strings.Fields(solved) {
		if n, err := strconv.Atoi(f); err == nil && n != step {
			nums = append(nums, n)
		}
	}
	nums = append(nums, step)
	slices.Sort(nums)
	out := make([]string, len(nums))
	for i, n := range nums {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, " ")
}

// SolvedAll reports whether solved lists every step of tasks (a lesson
// without tasks is never done by its answers).
func SolvedAll(solved string, tasks []int) bool {
	have := strings.Fields(solved)
	for _, t := range tasks {
		if !slices.Contains(have, strconv.Itoa(t)) {
			return false
		}
	}
	return len(tasks) > 0
}

// ReadTutorialSources reads every tutorial source <locale>/<nn>-<slug>.md
// of fsys (the locales/tutorials folder), sorted by locale, then in course
// order (CourseOrder). Two lessons of one locale and stage with the same nn
// are an error.
func ReadTutorialSources(fsys fs.FS) ([]Tutorial, error) {
	srcs, err := readSources(fsys, ParseTutorialSource)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(srcs, func(a, b Tutorial) int {
		if c := strings.Compare(a.Locale, b.Locale); c != 0 {
			return c
		}
		return CourseOrder(a, b)
	})
	for i := 1; i < len(srcs); i++ {
		a, b := srcs[i-1], srcs[i]
		if a.Locale == b.Locale && a.Stage == b.Stage && a.Ordinal == b.Ordinal {
			return nil, fmt.Errorf("tutorial %s: %s and %s are both lesson %d of stage %s", a.Locale, a.Slug, b.Slug, a.Ordinal, a.Stage)
		}
	}
	return srcs, nil
}

// TutorialTasks are the kinds of task a step may set: the first word of
// its task line (tutor.ParseGoal reads the rest).
var TutorialTasks = []string{"play", "legal", "best", "book", "capture", "feed", "save", "practice"}

// ParseTutorialSource parses one tutorial source named <nn>-<slug>: front
// matter as a page's (title, summary) with the lesson's stage (one of
// Stages), then one step a "## " section: the heading is the step's title,
// a fenced "step" block gives its board (position, highlight, task,
// accept, rules: one "key: value" a line) and the rest of the section is
// its text. Nothing but blank lines may come before the first step. Only a
// "play" task needs accept (its answers); the engine finds the others'
// (content.Load checks a written accept against it).
func ParseTutorialSource(locale, name string, data []byte) (Tutorial, error) {
	t := Tutorial{Locale: locale}
	bad := func(msg string, args ...any) error {
		return fmt.Errorf("tutorial %s/%s.md: %s", locale, name, fmt.Sprintf(msg, args...))
	}
	num, slug, ok := strings.Cut(name, "-")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 || slug == "" {
		return t, bad("the file name is not <nn>-<slug>.md")
	}
	t.Slug, t.Ordinal = slug, n
	src, err := ParsePageSource(locale, name, data)
	if err != nil {
		return t, err
	}
	t.Title, t.Summary, t.Stage, t.SourceHash = src.Title, src.Summary, src.Stage, src.Hash
	if !slices.Contains(Stages, t.Stage) {
		return t, bad("stage %q: want one of %s", t.Stage, strings.Join(Stages, ", "))
	}
	sections := strings.Split("\n"+src.Body, "\n## ")
	if strings.TrimSpace(sections[0]) != "" {
		return t, bad("text before the first step (## heading)")
	}
	for i, sec := range sections[1:] {
		step, err := parseStep(i+1, sec)
		if err != nil {
			return t, bad("%v", err)
		}
		t.Steps = append(t.Steps, step)
	}
	if len(t.Steps) == 0 {
		return t, bad("no steps")
	}
	return t, nil
}

// parseStep parses one "## " section (without the "## ") as step number.
func parseStep(number int, sec string) (TutorialStep, error) {
	s := TutorialStep{Number: number, Rules: "abapa"}
	title, body, _ := strings.Cut(sec, "\n")
	s.Title = strings.TrimSpace(title)
	before, block, ok := strings.Cut(body, "```step\n")
	if !ok {
		return s, fmt.Errorf("step %d (%s): no ```step block", number, s.Title)
	}
	block, after, ok := strings.Cut(block, "```")
	if !ok {
		return s, fmt.Errorf("step %d (%s): ```step block not closed", number, s.Title)
	}
	s.Text = strings.TrimSpace(strings.TrimSpace(before) + "\n\n" + strings.TrimSpace(after))
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return s, fmt.Errorf("step %d: line %q is not key: value", number, line)
		}
		value = strings.Join(strings.Fields(value), " ")
		switch strings.TrimSpace(key) {
		case "position":
			s.Position = value
		case "highlight":
			s.Highlight = value
		case "task":
			s.Task = value
		case "accept":
			s.Accept = value
		case "rules":
			s.Rules = value
		default:
			return s, fmt.Errorf("step %d: unknown key %q", number, key)
		}
	}
	switch {
	case s.Title == "":
		return s, fmt.Errorf("step %d: no title", number)
	case s.Position == "":
		return s, fmt.Errorf("step %d: no position", number)
	case s.Task != "" && !slices.Contains(TutorialTasks, strings.Fields(s.Task)[0]):
		return s, fmt.Errorf("step %d: unknown task %q", number, s.Task)
	case s.Task == "play" && s.Accept == "":
		return s, fmt.Errorf("step %d: task play without accept", number)
	case s.Task == "" && s.Accept != "":
		return s, fmt.Errorf("step %d: accept without a task", number)
	}
	return s, nil
}

// LoadTutorials brings the tutorial tables up to date with the sources
// (SaveTutorial for each); it returns how many were written. Several
// instances may run it at once.
func (db *DB) LoadTutorials(ctx context.Context, sources []Tutorial) (int, error) {
	n := 0
	for i := range sources {
		t := sources[i]
		t.Steps = slices.Clone(t.Steps)
		changed, err := db.SaveTutorial(ctx, &t)
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			changed, err = db.SaveTutorial(ctx, &t) // another instance added it meanwhile
		}
		if err != nil {
			return n, fmt.Errorf("models: load tutorial %s/%s: %w", t.Locale, t.Slug, err)
		}
		if changed {
			n++
		}
	}
	return n, nil
}
