package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"oware/engine"
	"oware/locales"
	"oware/models"
	"oware/tutor"
)

// The bounds of studies (README's Limits).
const (
	// MaxStudies is how many studies an account keeps.
	MaxStudies = 50
	// MaxStudyChapters is how many chapters a study has.
	MaxStudyChapters = 30
	// MaxStudyTitle is the length of a study's or a chapter's title, in
	// characters.
	MaxStudyTitle = 100
	// MaxChapterText is the length of a chapter's Markdown text, in
	// characters.
	MaxChapterText = 4000
	// MaxStudyList is how many studies a list shows.
	MaxStudyList = 50
	// MaxStudyQuery is the length of a search, in characters; its first
	// maxQueryWords words are looked for.
	MaxStudyQuery = 100
	// MaxBestTasks is how many tasks of a study ask for the best move
	// (each a deep search of up to a few seconds when saved).
	MaxBestTasks = 10
)

// maxQueryWords is how many words of a search are looked for.
const maxQueryWords = 6

// The visibilities of a study.
const (
	Public   = "public"   // listed and searchable
	Unlisted = "unlisted" // seen by whoever has the link
	Private  = "private"  // seen by its owner only
)

// The goals of a chapter's task (Task.Goal).
const (
	GoalBest    = "best"    // a best move by the engine
	GoalCapture = "capture" // a move that captures at least N seeds
	GoalFeed    = "feed"    // a move that gives the opponent's empty row seeds
	GoalSave    = "save"    // a move after which no reply captures pit Pit
)

// Task is a chapter's question: play a move that meets Goal. Accept is
// the author's answer, the labels of the moves that meet it; saving a
// study checks it against the engine's.
type Task struct {
	Goal   string   `json:"goal"`
	N      int      `json:"n,omitempty"`   // GoalCapture: the seeds, at least 1
	Pit    string   `json:"pit,omitempty"` // GoalSave: the mover's pit to keep
	Accept []string `json:"accept"`
}

// Chapter is one position of a study with its text and, optionally, a
// task. Rules is a rule set as a tutorial step writes it ("abapa" when
// empty, tutor.ParseRules); Position a position string of those rules;
// Text Markdown, shown sanitized.
type Chapter struct {
	Title    string `json:"title"`
	Rules    string `json:"rules"`
	Position string `json:"position"`
	Text     string `json:"text"`
	Task     *Task  `json:"task"`
}

// StudyInput is what an author writes: the study without its id, owner
// and times.
type StudyInput struct {
	Title      string    `json:"title"`
	Lang       string    `json:"lang"`
	Visibility string    `json:"visibility"`
	Chapters   []Chapter `json:"chapters"`
}

// Study is a stored study.
type Study struct {
	ID      string
	OwnerID uint
	Owner   string // the owner's name
	StudyInput
	Hidden     bool   // by an operator
	ForkedFrom string // the id of the study this was copied from, or ""
	Version    int    // counts its writes (Edit's check)
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// StudyError is why a study cannot be saved: the message catalog's id
// (locales/studies.<lang>.toml) and its data as name, value pairs, with
// the chapter it is about (from 1; 0 for the study itself).
type StudyError struct {
	Chapter int
	ID      string
	Data    []any
	// Task, when set, is the task whose goal the message names ({{.Goal}}).
	Task *Task
	// Unmet, when set, is the engine's reason instead of ID's.
	Unmet *tutor.Unmet
}

func (e *StudyError) Error() string {
	if e.Unmet != nil {
		return fmt.Sprintf("study: chapter %d: %s", e.Chapter, e.Unmet.Text)
	}
	return fmt.Sprintf("study: chapter %d: %s %v", e.Chapter, e.ID, e.Data)
}

// Reason is the error in l's language, with the chapter named.
func (e *StudyError) Reason(l tutor.Localizer) string {
	data := e.Data
	if e.Task != nil {
		goal := l.T("st_goal_"+e.Task.Goal, "Pit", e.Task.Pit)
		if e.Task.Goal == GoalCapture {
			goal = l.N("st_goal_capture", e.Task.N)
		}
		data = append(slices.Clone(data), "Goal", goal)
	}
	msg := l.T(e.ID, data...)
	if e.Unmet != nil {
		msg = e.Unmet.Localize(l)
	}
	if e.Chapter == 0 {
		return msg
	}
	return l.T("st_err_in_chapter", "Number", e.Chapter, "Why", msg)
}

// ErrStudyChanged: the study changed since the version an edit started
// from (models.ErrConflict); nothing was written.
var ErrStudyChanged = models.ErrConflict

// ErrStudyLimit: the account has MaxStudies studies already.
var ErrStudyLimit = &StudyError{ID: "st_err_count", Data: []any{"Max", MaxStudies}}

// Studies is the service of the studies: it checks what authors write
// (the bounds, the positions, every task's accepted moves against the
// engine's, tutor.Accepted), stores it and says who may read it. It is
// safe for concurrent use.
type Studies struct {
	db  *models.DB
	now func() time.Time
}

// NewStudies returns the studies of db.
func NewStudies(db *models.DB) *Studies { return &Studies{db: db, now: time.Now} }

// Create checks in and stores it as a new study of account owner. Errors:
// a *StudyError (ErrStudyLimit at MaxStudies), or the storage's.
func (s *Studies) Create(ctx context.Context, owner uint, in StudyInput) (*Study, error) {
	return s.create(ctx, owner, in, nil)
}

func (s *Studies) create(ctx context.Context, owner uint, in StudyInput, from *string) (*Study, error) {
	row, err := s.row(ctx, in)
	if err != nil {
		return nil, err
	}
	row.OwnerID, row.ForkedFrom = owner, from
	ok, err := s.db.CreateStudy(ctx, row, MaxStudies, s.now())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrStudyLimit
	}
	return s.Get(ctx, row.ID, owner)
}

// Get returns study id as account viewer (0: a visitor) may read it:
// ErrNotFound for a private or hidden study of someone else.
func (s *Studies) Get(ctx context.Context, id string, viewer uint) (*Study, error) {
	row, err := s.db.StudyByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if row.OwnerID != viewer && (row.Visibility == Private || row.Hidden) {
		return nil, ErrNotFound
	}
	return fromRow(row)
}

// Edit applies change to the study id of account owner as it was at
// version and stores the result, checked as Create checks. Errors:
// ErrNotFound (no such study of owner), ErrStudyChanged (it changed
// since version), a *StudyError, or what change returns.
func (s *Studies) Edit(ctx context.Context, owner uint, id string, version int, change func(*StudyInput) error) (*Study, error) {
	st, err := s.Get(ctx, id, owner)
	if err != nil {
		return nil, err
	}
	if st.OwnerID != owner {
		return nil, ErrNotFound
	}
	if st.Version != version {
		return nil, ErrStudyChanged
	}
	in := st.StudyInput
	in.Chapters = slices.Clone(in.Chapters)
	if err := change(&in); err != nil {
		return nil, err
	}
	row, err := s.row(ctx, in)
	if err != nil {
		return nil, err
	}
	row.ID, row.OwnerID, row.Version = id, owner, version
	if err := s.db.UpdateStudy(ctx, row, s.now()); err != nil {
		return nil, err
	}
	return s.Get(ctx, id, owner)
}

// Delete deletes the study id of account owner (ErrNotFound when owner
// has none of that id).
func (s *Studies) Delete(ctx context.Context, owner uint, id string) error {
	return s.db.DeleteStudy(ctx, id, owner)
}

// Fork copies study id, as account owner may read it, into a new private
// study of owner that names it as its origin. Errors as Get and Create.
func (s *Studies) Fork(ctx context.Context, owner uint, id string) (*Study, error) {
	st, err := s.Get(ctx, id, owner)
	if err != nil {
		return nil, err
	}
	in := st.StudyInput
	in.Visibility = Private
	return s.create(ctx, owner, in, &st.ID)
}

// Hide hides study id from everyone but its owner (hidden true), or shows
// it again; ErrNotFound when there is no such study.
func (s *Studies) Hide(ctx context.Context, id string, hidden bool) error {
	return s.db.HideStudy(ctx, id, hidden)
}

// Search returns the public studies in lang whose title or chapters hold
// every word of query (any case; its first MaxStudyQuery characters and
// maxQueryWords words), the latest changed first, at most MaxStudyList.
func (s *Studies) Search(ctx context.Context, lang, query string) ([]Study, error) {
	if r := []rune(query); len(r) > MaxStudyQuery {
		query = string(r[:MaxStudyQuery])
	}
	words := strings.Fields(strings.ToLower(query))
	if len(words) > maxQueryWords {
		words = words[:maxQueryWords]
	}
	rows, err := s.db.PublicStudies(ctx, lang, words, MaxStudyList)
	return fromRows(rows, err)
}

// Mine returns account owner's studies, the latest changed first, at most
// MaxStudies.
func (s *Studies) Mine(ctx context.Context, owner uint) ([]Study, error) {
	rows, err := s.db.StudiesOf(ctx, owner, MaxStudies)
	return fromRows(rows, err)
}

func fromRows(rows []models.Study, err error) ([]Study, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Study, 0, len(rows))
	for i := range rows {
		st, err := fromRow(&rows[i])
		if err != nil {
			return nil, err
		}
		out = append(out, *st)
	}
	return out, nil
}

func fromRow(row *models.Study) (*Study, error) {
	st := &Study{ID: row.ID, OwnerID: row.OwnerID, Owner: row.Owner, Hidden: row.Hidden, Version: row.Version,
		CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt}
	st.Title, st.Lang, st.Visibility = row.Title, row.Lang, row.Visibility
	if row.ForkedFrom != nil {
		st.ForkedFrom = *row.ForkedFrom
	}
	if err := json.Unmarshal([]byte(row.Chapters), &st.Chapters); err != nil {
		return nil, fmt.Errorf("content: study %s: chapters: %w", row.ID, err)
	}
	return st, nil
}

// row checks in and returns it as a row to store (without id and owner).
func (s *Studies) row(ctx context.Context, in StudyInput) (*models.Study, error) {
	in.Title = strings.TrimSpace(in.Title)
	if err := s.check(ctx, &in); err != nil {
		return nil, err
	}
	chapters, err := json.Marshal(in.Chapters)
	if err != nil {
		return nil, err
	}
	text := []string{in.Title}
	for _, c := range in.Chapters {
		text = append(text, c.Title, c.Text)
	}
	return &models.Study{Title: in.Title, Lang: in.Lang, Visibility: in.Visibility,
		Chapters: string(chapters), Search: strings.ToLower(strings.Join(text, "\n"))}, nil
}

// check checks a study: its title, language, visibility, the count of
// its chapters and each chapter (normalized in place).
func (s *Studies) check(ctx context.Context, in *StudyInput) error {
	switch {
	case in.Title == "":
		return &StudyError{ID: "st_err_title_empty"}
	case utf8.RuneCountInString(in.Title) > MaxStudyTitle:
		return &StudyError{ID: "st_err_title_long", Data: []any{"Max", MaxStudyTitle}}
	case !slices.Contains(locales.Langs, in.Lang):
		return &StudyError{ID: "st_err_lang", Data: []any{"Lang", in.Lang}}
	case in.Visibility != Public && in.Visibility != Unlisted && in.Visibility != Private:
		return &StudyError{ID: "st_err_visibility"}
	case len(in.Chapters) == 0:
		return &StudyError{ID: "st_err_no_chapters"}
	case len(in.Chapters) > MaxStudyChapters:
		return &StudyError{ID: "st_err_chapters", Data: []any{"Max", MaxStudyChapters}}
	}
	best := 0
	for _, c := range in.Chapters {
		if c.Task != nil && c.Task.Goal == GoalBest {
			best++
		}
	}
	if best > MaxBestTasks {
		return &StudyError{ID: "st_err_best_tasks", Data: []any{"Max", MaxBestTasks}}
	}
	for i := range in.Chapters {
		if err := s.checkChapter(ctx, &in.Chapters[i]); err != nil {
			var se *StudyError
			if errors.As(err, &se) {
				se.Chapter = i + 1
			}
			return err
		}
	}
	return nil
}

// checkChapter checks one chapter: its title and text, its rules and
// position, and its task against the engine.
func (s *Studies) checkChapter(ctx context.Context, c *Chapter) error {
	c.Title = strings.TrimSpace(c.Title)
	c.Rules = strings.TrimSpace(c.Rules)
	c.Position = strings.TrimSpace(c.Position)
	switch {
	case c.Title == "":
		return &StudyError{ID: "st_err_chapter_title_empty"}
	case utf8.RuneCountInString(c.Title) > MaxStudyTitle:
		return &StudyError{ID: "st_err_title_long", Data: []any{"Max", MaxStudyTitle}}
	case utf8.RuneCountInString(c.Text) > MaxChapterText:
		return &StudyError{ID: "st_err_text_long", Data: []any{"Max", MaxChapterText}}
	}
	r, err := tutor.ParseRules(c.Rules)
	if err != nil {
		return &StudyError{ID: "st_err_rules", Data: []any{"Rules", c.Rules}}
	}
	if c.Rules == "" {
		c.Rules = r.Name()
	}
	pos, err := r.ParsePosition(c.Position)
	if err != nil {
		return &StudyError{ID: "st_err_position"}
	}
	c.Position = r.FormatPosition(pos)
	if c.Task == nil {
		return nil
	}
	return s.checkTask(ctx, r, pos, c.Task)
}

// checkTask checks that a task's accepted moves are legal and are the
// very moves the engine finds meet its goal.
func (s *Studies) checkTask(ctx context.Context, r engine.Rules, pos engine.Position, t *Task) error {
	pit := -1
	switch t.Goal {
	case GoalBest, GoalFeed:
		t.N, t.Pit = 0, ""
	case GoalCapture:
		t.Pit = ""
		if t.N < 1 || t.N > engine.NumPits*4 {
			return &StudyError{ID: "st_err_capture_n"}
		}
	case GoalSave:
		t.N = 0
		p, err := engine.ParseLabel(strings.TrimSpace(t.Pit))
		if err != nil {
			return &StudyError{ID: "st_err_save_pit", Data: []any{"Label", t.Pit}}
		}
		pit, t.Pit = p, engine.Label(p)
	default:
		return &StudyError{ID: "st_err_goal", Data: []any{"Goal", t.Goal}}
	}
	var accept engine.Moves
	for _, label := range t.Accept {
		p, err := engine.ParseLabel(strings.TrimSpace(label))
		if err != nil {
			return &StudyError{ID: "st_err_accept_label", Data: []any{"Label", label}}
		}
		if !r.LegalMoves(pos).Has(p) {
			return &StudyError{ID: "st_err_accept_illegal", Data: []any{"Label", engine.Label(p)}}
		}
		accept |= 1 << p
	}
	if accept == 0 {
		return &StudyError{ID: "st_err_accept_empty"}
	}
	t.Accept = accept.Labels()
	want, err := tutor.Accepted(ctx, t.goal(pit), r, pos, accept)
	var unmet *tutor.Unmet
	if errors.As(err, &unmet) {
		return &StudyError{Unmet: unmet}
	}
	if err != nil {
		return err
	}
	if wrong := accept &^ want; wrong != 0 {
		return &StudyError{ID: "st_err_accept_wrong", Task: t, Data: []any{"Labels", labelList(wrong), "Engine", labelList(want)}}
	}
	if missing := want &^ accept; missing != 0 {
		return &StudyError{ID: "st_err_accept_missing", Task: t, Data: []any{"Labels", labelList(missing), "Engine", labelList(want)}}
	}
	return nil
}

// goal is t as tutor's goal, pit the pit of GoalSave (-1 for another).
func (t *Task) goal(pit int) tutor.Goal {
	return tutor.Goal{Kind: t.Goal, N: t.N, Pit: pit}
}

// Answer judges label, a pit sown as the answer to c's task, with the
// engine: right when it is one of the task's accepted moves; a wrong
// answer's lines say what it misses or allows (tutor.CheckMove), in l's
// language. c is a stored chapter (checked when saved).
func Answer(l tutor.Localizer, c Chapter, label string) (tutor.Verdict, error) {
	if c.Task == nil {
		return tutor.Verdict{}, errors.New("content: the chapter has no task")
	}
	r, pos, err := tutor.Board(c.Rules, c.Position, "", strings.Join(c.Task.Accept, " "))
	if err != nil {
		return tutor.Verdict{}, err
	}
	accept, _ := tutor.ParseLabels(strings.Join(c.Task.Accept, " "))
	pit := -1
	if c.Task.Goal == GoalSave {
		pit, _ = engine.ParseLabel(c.Task.Pit)
	}
	return tutor.CheckMove(l, r, pos, c.Task.goal(pit).String(), accept, label), nil
}

// labelList writes the labels of m: "C", "E, F".
func labelList(m engine.Moves) string { return strings.Join(m.Labels(), ", ") }
