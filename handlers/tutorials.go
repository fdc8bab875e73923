package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/locales"
	"oware/models"
	"oware/views"
)

// tutorialRoutes loads the tutorial sources into the database (see
// models.LoadTutorials) and registers the tutorial pages:
// /{lang}/tutorials (the index) and /{lang}/tutorials/{slug}/{step}, where
// a GET shows the step and a POST answers its task.
func (h *handler) tutorialRoutes(g *echo.Group) error {
	if err := h.loadTutorials(); err != nil {
		return err
	}
	g.GET("/tutorials", h.tutorialIndex)
	g.GET("/tutorials/:slug", h.tutorialStart)
	g.GET("/tutorials/:slug/:step", h.tutorialStep)
	g.POST("/tutorials/:slug/:step", h.tutorialAnswer)
	return nil
}

// tutorialStart sends /{lang}/tutorials/{slug} to the tutorial's first
// step; an unknown slug is a 404 at once.
func (h *handler) tutorialStart(c echo.Context) error {
	t, err := h.db.TutorialBySlug(c.Request().Context(), langOf(c), c.Param("slug"))
	if errors.Is(err, models.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, tutorialPath(langOf(c), t.Slug, 1))
}

// loadTutorials reads the embedded tutorial sources, checks every step's
// board with the engine (a bad one stops the start) and brings the
// tutorial tables up to date.
func (h *handler) loadTutorials() error {
	srcs, err := models.ReadTutorialSources(locales.TutorialSources)
	if err != nil {
		return err
	}
	for _, t := range srcs {
		for _, s := range t.Steps {
			if _, _, err := stepBoard(s); err != nil {
				return fmt.Errorf("tutorial %s/%s step %d: %w", t.Locale, t.Slug, s.Number, err)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n, err := h.db.LoadTutorials(ctx, srcs)
	if err != nil {
		return err
	}
	h.log.Info("tutorials loaded", "written", n, "sources", len(srcs))
	return nil
}

// stepBoard returns the rule set and the position of a step, checking its
// highlight and accept labels too.
func stepBoard(s models.TutorialStep) (engine.Rules, engine.Position, error) {
	r, err := tutorialRules(s.Rules)
	if err != nil {
		return nil, engine.Position{}, err
	}
	p, err := r.ParsePosition(s.Position)
	if err != nil {
		return nil, p, err
	}
	if _, err := parseLabels(s.Highlight); err != nil {
		return nil, p, err
	}
	if _, err := parseLabels(s.Accept); err != nil {
		return nil, p, err
	}
	return r, p, nil
}

// tutorialRules reads the rules of a step: a rule set key, for Nam-nam
// optionally with its table setting as in a game record's Variant tag
// ("namnam fours=owner").
func tutorialRules(s string) (engine.Rules, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return engine.RulesByName("")
	}
	fours := ""
	for _, f := range fields[1:] {
		key, value, _ := strings.Cut(f, "=")
		if key != "fours" || value == "" {
			return nil, fmt.Errorf("%w: unknown setting %q", engine.ErrBadRules, f)
		}
		fours = value
	}
	return engine.NewRules(fields[0], fours)
}

// parseLabels reads a space-separated list of pit labels.
func parseLabels(s string) (engine.Moves, error) {
	var m engine.Moves
	for _, f := range strings.Fields(s) {
		pit, err := engine.ParseLabel(f)
		if err != nil {
			return 0, err
		}
		m |= 1 << pit
	}
	return m, nil
}

func init() { addSitemapSource(tutorialSitemap) }

// tutorialSitemap lists every tutorial step for the sitemap (the slugs and
// steps are the same in every language).
func tutorialSitemap(ctx context.Context, h *handler) ([]string, error) {
	list, err := h.db.Tutorials(ctx, defaultLang)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, t := range list {
		for _, s := range t.Steps {
			paths = append(paths, "/tutorials/"+t.Slug+"/"+strconv.Itoa(s.Number))
		}
	}
	return paths, nil
}

// tutorialPath is the URL path of a tutorial step.
func tutorialPath(lang, slug string, step int) string {
	return "/" + lang + "/tutorials/" + slug + "/" + strconv.Itoa(step)
}

// tutorialIndex lists the tutorials of the request's language with the
// learner's progress.
func (h *handler) tutorialIndex(c echo.Context) error {
	lang := langOf(c)
	list, err := h.db.Tutorials(c.Request().Context(), lang)
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
			URL: tutorialPath(lang, t.Slug, step), Title: t.Title, Summary: t.Summary,
			Steps: len(t.Steps), Reached: min(pr.step, len(t.Steps)), Done: pr.done,
		})
	}
	p := h.page(c, "tut_index_title", "/tutorials")
	p.Description = p.L.T("tut_index_intro")
	return render(c, http.StatusOK, views.TutorialsIndex(p, cards))
}

// loadStep loads the tutorial and the step of the request's :slug and
// :step; an unknown tutorial or a step out of range is a 404.
func (h *handler) loadStep(c echo.Context) (*models.Tutorial, *models.TutorialStep, error) {
	t, err := h.db.TutorialBySlug(c.Request().Context(), langOf(c), c.Param("slug"))
	if errors.Is(err, models.ErrNotFound) {
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
		h.log.Error("tutorial progress", "err", err)
	}
	v, err := h.stepView(c, t, s)
	if err != nil {
		return err
	}
	return h.renderStep(c, t, s, v)
}

// tutorialAnswer checks the learner's answer to a step's task with the
// engine and shows the step again with the verdict: after a right move the
// board after it (sowing animated, captures shown), after a wrong one the
// same board and a hint that says why. Without JavaScript it is an
// ordinary form POST answered with the whole page.
func (h *handler) tutorialAnswer(c echo.Context) error {
	t, s, err := h.loadStep(c)
	if err != nil {
		return err
	}
	if s.Task == "" {
		return c.Redirect(http.StatusSeeOther, tutorialPath(langOf(c), t.Slug, s.Number))
	}
	v, err := h.stepView(c, t, s)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return &userError{http.StatusBadRequest, "err_bad_request"}
	}
	l := newLocalizer(h.bundle, langOf(c), h.log)
	r, pos, err := stepBoard(*s)
	if err != nil {
		return err
	}
	accept, _ := parseLabels(s.Accept)
	var a verdict
	if s.Task == "legal" {
		a = checkLegal(l, r, pos, form["pit"])
		v.Checked = a.checked
	} else {
		a = checkMove(l, r, pos, s.Task, accept, c.FormValue("pit"))
	}
	v.Feedback = &views.TutorialFeedback{Correct: a.correct, Lines: a.lines}
	if a.correct {
		v.Answered = true
		v.Board.Playable = 0
		if a.played {
			v.Position = a.after
			v.Board.Sowing = a.move.Sown
			v.Board.Last = a.move.Pit
			v.Board.Highlight = 0
			for _, cp := range a.move.Captures {
				v.Board.Highlight |= 1 << cp.Pit
			}
		}
	}
	return h.renderStep(c, t, s, v)
}

// stepView builds the view of step s of tutorial t, before any answer.
func (h *handler) stepView(c echo.Context, t *models.Tutorial, s *models.TutorialStep) (views.TutorialStepView, error) {
	lang := langOf(c)
	r, pos, err := stepBoard(*s)
	if err != nil {
		return views.TutorialStepView{}, err
	}
	text, err := renderPageMarkdown(s.Text)
	if err != nil {
		return views.TutorialStepView{}, err
	}
	hl, _ := parseLabels(s.Highlight)
	here := tutorialPath(lang, t.Slug, s.Number)
	v := views.TutorialStepView{
		TutorialTitle: t.Title, IndexURL: "/" + lang + "/tutorials",
		Number: s.Number, Total: len(t.Steps), Title: s.Title,
		TextHTML: text, Rules: r.Name(), Fours: foursOf(r), Position: pos, Task: s.Task,
		Board:  views.BoardOptions{Highlight: hl, Last: -1},
		Action: here, CSRF: csrfToken(c), ScriptURL: h.assets.URL("tutorial.js"),
	}
	_, rounds := r.(engine.Rounds)
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
	}
	if s.Number > 1 {
		v.PrevURL = tutorialPath(lang, t.Slug, s.Number-1)
	}
	if s.Number < len(t.Steps) {
		v.NextURL = tutorialPath(lang, t.Slug, s.Number+1)
	} else {
		v.PlayURL = "/" + lang + "/games/new"
		if rounds {
			v.PlayURL += "?rules=" + r.Name()
		}
	}
	return v, nil
}

// renderStep answers with the step: the inside of #tutorial for htmx, else
// the whole page.
func (h *handler) renderStep(c echo.Context, t *models.Tutorial, s *models.TutorialStep, v views.TutorialStepView) error {
	hdr := c.Request().Header
	if hdr.Get("HX-Request") == "true" && hdr.Get("HX-History-Restore-Request") != "true" {
		l := newLocalizer(h.bundle, langOf(c), h.log)
		v.PageTitle = s.Title + " · " + t.Title
		return render(c, http.StatusOK, views.TutorialStep(l, v))
	}
	p := h.page(c, "tut_index_title", "/tutorials/"+t.Slug+"/"+strconv.Itoa(s.Number))
	p.Title = s.Title + " · " + t.Title
	p.Description = t.Summary
	return render(c, http.StatusOK, views.TutorialStepPage(p, v))
}

// verdict is the engine's judgement of an answer.
type verdict struct {
	correct bool
	lines   []string // localized: what happened, or why it is wrong
	// played is set when a right answer was a move: move and after are it
	// and the position after it.
	played  bool
	move    engine.Move
	after   engine.Position
	checked engine.Moves // the pits ticked ("legal" task)
}

// checkMove judges the pit label sown for a "play", "capture" or "feed"
// task whose right answers are accept.
func checkMove(l *localizer, r engine.Rules, pos engine.Position, task string, accept engine.Moves, label string) verdict {
	pit, err := engine.ParseLabel(label)
	if err != nil {
		return verdict{lines: []string{l.T("tut_hint_bad_pit")}}
	}
	after, mv, err := r.Play(pos, pit)
	if err != nil {
		v := verdict{lines: []string{capitalize(illegalHint(l, r, pos, err, pit))}}
		if task == "play" {
			v.lines = append(v.lines, l.T("tut_hint_play", "Labels", labelList(accept)))
		}
		return v
	}
	if !accept.Has(pit) {
		var why string
		switch {
		case task == "capture" && capturedBy(mv, mv.Mover) == 0:
			why = noCaptureHint(l, r, pos, mv)
		case task == "play":
			why = l.T("tut_hint_play", "Labels", labelList(accept))
		default:
			why = l.T("tut_hint_other", "Label", label)
		}
		return verdict{lines: []string{why}}
	}
	return verdict{correct: true, played: true, move: mv, after: after, lines: moveLines(l, r, task, mv, after)}
}

// checkLegal judges the ticked pits of a "legal" task against the engine's
// legal moves.
func checkLegal(l *localizer, r engine.Rules, pos engine.Position, labels []string) verdict {
	var ticked engine.Moves
	for _, s := range labels {
		pit, err := engine.ParseLabel(s)
		if err != nil {
			return verdict{lines: []string{l.T("tut_hint_bad_pit")}}
		}
		ticked |= 1 << pit
	}
	legal := r.LegalMoves(pos)
	v := verdict{checked: ticked}
	if ticked == legal {
		v.correct = true
		v.lines = []string{l.T("tut_ok_legal", "Labels", labelList(legal))}
		return v
	}
	for _, pit := range (ticked &^ legal).Pits() {
		_, _, err := r.Play(pos, pit)
		v.lines = append(v.lines, l.T("tut_hint_not_legal", "Label", engine.Label(pit), "Why", illegalHint(l, r, pos, err, pit)))
	}
	if missed := (legal &^ ticked).Count(); missed > 0 {
		v.lines = append(v.lines, l.N("tut_hint_missed", missed))
	}
	return v
}

// illegalHint says why the engine refused to sow pit of pos under r.
func illegalHint(l *localizer, r engine.Rules, pos engine.Position, err error, pit int) string {
	lab := engine.Label(pit)
	_, rounds := r.(engine.Rounds)
	switch {
	case err == nil:
		return l.T("tut_hint_is_legal", "Label", lab)
	case errors.Is(err, engine.ErrBadPit):
		return l.T("tut_hint_bad_pit")
	case rounds && errors.Is(err, engine.ErrNotOwnPit) && pos.Owner[pit] == engine.Nobody:
		return l.T("tut_hint_nn_nobody", "Label", lab)
	case rounds && errors.Is(err, engine.ErrNotOwnPit):
		return l.T("tut_hint_nn_not_own", "Label", lab)
	case errors.Is(err, engine.ErrEndlessSowing):
		return l.T("tut_hint_endless", "Label", lab)
	case rounds && errors.Is(err, engine.ErrGameOver):
		return l.T("tut_hint_nn_round_over")
	case errors.Is(err, engine.ErrNotOwnPit):
		return l.T("tut_hint_not_own", "Label", lab)
	case errors.Is(err, engine.ErrEmptyPit):
		return l.T("tut_hint_empty", "Label", lab)
	case errors.Is(err, engine.ErrMustFeed):
		return l.T("tut_hint_must_feed", "Label", lab)
	case errors.Is(err, engine.ErrGrandSlamForbidden):
		return l.T("tut_hint_grand_slam_forbidden", "Label", lab)
	case errors.Is(err, engine.ErrGameOver):
		return l.T("tut_hint_game_over")
	}
	return err.Error()
}

// noCaptureHint says why the legal move mv from pos captured nothing for
// the mover.
func noCaptureHint(l *localizer, r engine.Rules, pos engine.Position, mv engine.Move) string {
	lab := engine.Label(mv.Pit)
	if _, rounds := r.(engine.Rounds); rounds {
		return namnamNoCaptureHint(l, r, pos, mv)
	}
	if len(mv.Sown) == 0 {
		return l.T("tut_hint_no_capture", "Label", lab)
	}
	last := mv.Sown[len(mv.Sown)-1]
	switch {
	case mv.GrandSlam:
		return l.T("tut_hint_grand_slam", "Label", lab)
	case engine.RowOf(last) == mv.Mover:
		return l.T("tut_hint_own_row", "Label", lab, "Last", engine.Label(last))
	}
	n := int(pos.Pits[last])
	for _, p := range mv.Sown {
		if p == last {
			n++
		}
	}
	return l.N("tut_hint_not_two_three", n, "Label", lab, "Last", engine.Label(last))
}

// moveLines describe a right move: the sowing, the captures or the grand
// slam, the seeds fed, an extra move, the end of the game.
func moveLines(l *localizer, r engine.Rules, task string, mv engine.Move, after engine.Position) []string {
	if rounds, ok := r.(engine.Rounds); ok {
		return namnamMoveLines(l, rounds, mv, after)
	}
	lab := engine.Label(mv.Pit)
	lines := []string{l.N("tut_ok_sown", len(mv.Sown), "Label", lab, "Last", engine.Label(mv.Sown[len(mv.Sown)-1]))}
	if task == "feed" {
		fed := 0
		for _, p := range mv.Sown {
			if engine.RowOf(p) != mv.Mover {
				fed++
			}
		}
		lines = append(lines, l.N("tut_ok_fed", fed))
	}
	switch {
	case mv.GrandSlam && len(mv.Captures) == 0:
		lines = append(lines, l.T("tut_ok_grand_slam_nothing"))
	case mv.GrandSlam:
		lines = append(lines, l.N("tut_ok_grand_slam_row", mv.Captured()))
	case len(mv.Captures) > 0:
		var pits []string
		for _, c := range mv.Captures {
			pits = append(pits, engine.Label(c.Pit))
		}
		lines = append(lines, l.N("tut_ok_captured", mv.Captured(), "Pits", strings.Join(pits, ", ")))
	}
	if mv.ExtraTurn && !mv.Over {
		lines = append(lines, l.T("tut_ok_extra_move"))
	}
	if mv.Over {
		key := "tut_ok_over_draw"
		switch mv.Result {
		case engine.Winner(engine.South):
			key = "tut_ok_over_south"
		case engine.Winner(engine.North):
			key = "tut_ok_over_north"
		}
		lines = append(lines, l.T(key, "South", int(after.Captured[engine.South]), "North", int(after.Captured[engine.North])))
	}
	return lines
}

// capturedBy returns the seeds the move captured for side (in Nam-nam's
// owner setting the opponent may capture during the mover's sowing).
func capturedBy(mv engine.Move, side engine.Side) int {
	n := 0
	for _, c := range mv.Captures {
		if c.By == side {
			n += c.Seeds
		}
	}
	return n
}

// capturePits lists the pits of the captures of mv made by side.
func capturePits(mv engine.Move, side engine.Side) string {
	var pits []string
	for _, c := range mv.Captures {
		if c.By == side {
			pits = append(pits, engine.Label(c.Pit))
		}
	}
	return strings.Join(pits, ", ")
}

// lastSown returns the pit the last seed of mv fell into, or -1 when the
// relay was too long to be recorded whole.
func lastSown(mv engine.Move) int {
	if len(mv.Sown) == 0 || mv.Steps > len(mv.Sown) {
		return -1
	}
	return mv.Sown[len(mv.Sown)-1]
}

// firstLap sows the first lap of pit in pos under the Nam-nam rules r
// and returns the pit its last seed fell into and the seeds it then holds.
func firstLap(r engine.Rules, pos engine.Position, pit int) (last, seeds int) {
	owner := foursOf(r) == "owner"
	pits := pos.Pits
	hand, at := int(pits[pit]), pit
	pits[pit] = 0
	for ; hand > 0; hand-- {
		at = (at + 1) % engine.NumPits
		pits[at]++
		if hand > 1 && owner && pits[at] == 4 && pos.Owner[at] != engine.Nobody {
			pits[at] = 0 // captured by the pit's owner on the way
		}
	}
	return at, int(pits[at])
}

// namnamNoCaptureHint says why the Nam-nam move mv from pos captured
// nothing for the mover: a relay ends only in an empty pit or with a four,
// so it ended in an empty pit; a first lap that made some other number
// than 4 went on.
func namnamNoCaptureHint(l *localizer, r engine.Rules, pos engine.Position, mv engine.Move) string {
	lab := engine.Label(mv.Pit)
	last := lastSown(mv)
	if last < 0 {
		return l.T("tut_hint_no_capture", "Label", lab)
	}
	var lines []string
	if first, n := firstLap(r, pos, mv.Pit); n != 1 && len(mv.Lifts) > 1 {
		lines = append(lines,
			l.N("tut_hint_nn_not_four", n, "Label", lab, "Last", engine.Label(first)),
			l.T("tut_hint_nn_relay_empty", "Last", engine.Label(last)))
	} else {
		lines = append(lines, l.T("tut_hint_nn_empty", "Label", lab, "Last", engine.Label(last)))
	}
	if n := capturedBy(mv, mv.Mover.Opponent()); n > 0 {
		lines = append(lines, l.N("tut_ok_nn_owner_took", n, "Pits", capturePits(mv, mv.Mover.Opponent())))
	}
	return strings.Join(lines, " ")
}

// namnamMoveLines describe a right Nam-nam move: the sowing and its relay,
// the fours captured and by whom, the end of the round and of the match.
func namnamMoveLines(l *localizer, r engine.Rounds, mv engine.Move, after engine.Position) []string {
	lab := engine.Label(mv.Pit)
	last := lastSown(mv)
	var lines []string
	switch {
	case last < 0:
		lines = append(lines, l.N("tut_ok_nn_long", mv.Steps, "Label", lab))
	case len(mv.Lifts) > 1:
		var lifts []string
		for _, p := range mv.Lifts[1:] {
			lifts = append(lifts, engine.Label(p))
		}
		lines = append(lines, l.N("tut_ok_nn_relay", mv.Steps, "Label", lab, "Pits", strings.Join(lifts, ", "), "Last", engine.Label(last)))
	default:
		lines = append(lines, l.N("tut_ok_sown", mv.Steps, "Label", lab, "Last", engine.Label(last)))
	}
	mine, theirs := capturedBy(mv, mv.Mover), capturedBy(mv, mv.Mover.Opponent())
	if mine > 0 {
		lines = append(lines, l.N("tut_ok_captured", mine, "Pits", capturePits(mv, mv.Mover)))
	}
	if theirs > 0 {
		lines = append(lines, l.N("tut_ok_nn_owner_took", theirs, "Pits", capturePits(mv, mv.Mover.Opponent())))
	}
	if last >= 0 && !mv.RoundOver && after.Pits[last] == 1 {
		lines = append(lines, l.T("tut_ok_nn_ends_empty", "Last", engine.Label(last)))
	}
	if !mv.RoundOver {
		return lines
	}
	totals := r.Totals(after)
	key := "tut_ok_nn_round_over_no_moves"
	if mv.RoundReason == engine.ReasonFewSeeds {
		key = "tut_ok_nn_round_over_few_seeds"
	}
	lines = append(lines, l.T(key, "South", totals[engine.South], "North", totals[engine.North]))
	// Who started this round only matters for equal totals, and then the
	// match cannot be over.
	_, over, result := r.NextRound(after, engine.South)
	switch {
	case over && result == engine.Winner(engine.South):
		lines = append(lines, l.T("tut_ok_nn_match_south", "South", totals[engine.South], "North", totals[engine.North]))
	case over:
		lines = append(lines, l.T("tut_ok_nn_match_north", "South", totals[engine.South], "North", totals[engine.North]))
	case totals[engine.North] < totals[engine.South]:
		lines = append(lines, l.T("tut_ok_nn_next_north"))
	case totals[engine.South] < totals[engine.North]:
		lines = append(lines, l.T("tut_ok_nn_next_south"))
	}
	return lines
}

// capitalize returns s with its first letter in upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// labelList writes the labels of m: "C", "E, F".
func labelList(m engine.Moves) string { return strings.Join(m.Labels(), ", ") }

// tutorialStepReached is a learner's progress in one tutorial.
type tutorialStepReached struct {
	step int  // the furthest step reached, 0 for none
	done bool // the last step was reached
}

// sessTutorials is the session value of a visitor's tutorial progress:
// "slug:step" or "slug:step:done" entries separated by spaces.
const sessTutorials = "tutorials"

// tutorialProgress returns the learner's progress by tutorial slug: a
// registered player's from the database, a visitor's from the session.
func (h *handler) tutorialProgress(c echo.Context) map[string]tutorialStepReached {
	out := map[string]tutorialStepReached{}
	if u := h.currentUser(c); u != nil {
		h.keepVisitorProgress(c, u)
		list, err := h.db.TutorialProgressOf(c.Request().Context(), u.ID)
		if err != nil {
			h.log.Error("tutorial progress", "err", err)
		}
		for _, p := range list {
			out[p.TutorialSlug] = tutorialStepReached{p.Step, p.Done}
		}
		return out
	}
	return sessionProgress(h.sessionValue(c, sessTutorials))
}

// sessionValue returns a string value of the visitor's session, or "".
func (h *handler) sessionValue(c echo.Context, key string) string {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	v, _ := s.Values[key].(string)
	return v
}

// sessionProgress reads the session value of a visitor's progress.
func sessionProgress(list string) map[string]tutorialStepReached {
	out := map[string]tutorialStepReached{}
	for _, e := range strings.Fields(list) {
		parts := strings.Split(e, ":")
		if len(parts) < 2 {
			continue
		}
		n, _ := strconv.Atoi(parts[1])
		out[parts[0]] = tutorialStepReached{n, len(parts) > 2 && parts[2] == "done"}
	}
	return out
}

// keepVisitorProgress moves the progress a player made as a visitor, before
// logging in, from the session into their account.
func (h *handler) keepVisitorProgress(c echo.Context, u *models.User) {
	list := h.sessionValue(c, sessTutorials)
	if list == "" {
		return
	}
	for slug, p := range sessionProgress(list) {
		if err := h.db.SaveTutorialProgress(c.Request().Context(), u.ID, slug, max(p.step, 1), p.done); err != nil {
			h.log.Error("tutorial progress", "err", err)
			return
		}
	}
	s, _ := h.sessions.Get(c.Request(), sessionName)
	delete(s.Values, sessTutorials)
	if err := s.Save(c.Request(), c.Response()); err != nil {
		h.log.Error("session", "err", err)
	}
}

// reachStep records that the learner reached step of the tutorial slug,
// which has total steps.
func (h *handler) reachStep(c echo.Context, slug string, step, total int) error {
	done := step == total
	if u := h.currentUser(c); u != nil {
		h.keepVisitorProgress(c, u)
		return h.db.SaveTutorialProgress(c.Request().Context(), u.ID, slug, step, done)
	}
	all := h.tutorialProgress(c)
	old := all[slug]
	if step <= old.step && (old.done || !done) {
		return nil
	}
	all[slug] = tutorialStepReached{max(step, old.step), done || old.done}
	var entries []string
	for k, p := range all {
		e := k + ":" + strconv.Itoa(p.step)
		if p.done {
			e += ":done"
		}
		entries = append(entries, e)
	}
	slices.Sort(entries)
	s, _ := h.sessions.Get(c.Request(), sessionName)
	s.Values[sessTutorials] = strings.Join(entries, " ")
	return s.Save(c.Request(), c.Response())
}
