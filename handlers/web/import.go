package web

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// importPage is the form to paste or upload an OGN record.
func (h *Site) importPage(c echo.Context) error {
	return h.importAnswer(c, http.StatusOK, "", "")
}

// importAnswer renders the import form, with the record and an error.
func (h *Site) importAnswer(c echo.Context, status int, record, errText string) error {
	p := h.Page(c, "title_import", route.ImportPattern)
	if len(record) > 64<<10 {
		record = "" // not sent back whole
	}
	return core.Render(c, status, views.ImportPage(p, views.ImportView{Record: record, Error: errText, CSRF: core.CsrfToken(c)}))
}

// importForm reads the pasted or uploaded record, keeps it and redirects
// to its replay.
func (h *Site) importForm(c echo.Context) error {
	if err := h.Imports.Check(c); err != nil {
		return err
	}
	l := core.NewLocalizer(h.Bundle, core.LangOf(c), h.Log)
	text, err := importText(c)
	switch {
	case errors.Is(err, engine.ErrRecordTooLarge) || core.BodyTooLarge(c):
		return h.importAnswer(c, http.StatusRequestEntityTooLarge, "", l.T("import_err", "Detail", tooLargeText(l)))
	case err != nil:
		return core.ErrBadRequest
	case strings.TrimSpace(text) == "":
		return h.importAnswer(c, http.StatusUnprocessableEntity, text, l.T("import_err_empty"))
	case !utf8.ValidString(text) || strings.ContainsRune(text, 0):
		// A binary file: nothing of it is shown again.
		return h.importAnswer(c, http.StatusUnprocessableEntity, "", l.T("import_err_not_text"))
	}
	rec, err := core.ReadRecord(text)
	if err != nil {
		return h.importAnswer(c, http.StatusUnprocessableEntity, text, recordError(l, err))
	}
	id, err := h.Games.SaveImport(c.Request().Context(), text)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, importURL(core.LangOf(c), id, len(rec.Moves)))
}

// importText returns the uploaded file, or else the pasted record (the
// body is bounded by maxImportBody, see limitBody).
func importText(c echo.Context) (string, error) {
	fh, err := c.FormFile("file")
	switch {
	case err == nil && fh.Size > engine.MaxRecordBytes:
		return "", engine.ErrRecordTooLarge
	case err == nil && fh.Size > 0:
		f, err := fh.Open()
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		return string(b), err
	case err != nil && !errors.Is(err, http.ErrMissingFile) && !errors.Is(err, http.ErrNotMultipart):
		return "", err
	}
	return c.FormValue("record"), nil
}

// tooLargeText is the localized bound of a record.
func tooLargeText(l *core.Localizer) string {
	return l.T("import_err_too_large", "KiB", engine.MaxRecordBytes>>10, "Moves", engine.MaxRecordMoves, "Notes", engine.MaxRecordNotes)
}

// recordError is the localized refusal of a bad record, naming its line
// and, in the move text, the move and why.
func recordError(l *core.Localizer, err error) string {
	var re *engine.RecordError
	if !errors.As(err, &re) {
		return l.T("import_err", "Detail", l.T("err_bad_request"))
	}
	why := recordCause(l, re)
	if re.Move > 0 && !errors.Is(re.Err, engine.ErrRecordTooLarge) { // a bound is no fault of a move
		return l.T("import_err_move", "Line", re.Line, "Number", re.Number.String(), "Label", re.Word, "Why", why)
	}
	return l.T("import_err_line", "Line", re.Line, "Detail", why)
}

// recordCause is the localized cause of a record's error.
func recordCause(l *core.Localizer, re *engine.RecordError) string {
	var mark *engine.CaptureMarkError
	switch err := re.Err; {
	case errors.As(err, &mark):
		return l.T("import_err_mark", "Mark", mark.Mark, "Captured", mark.Captured)
	case errors.Is(err, engine.ErrRecordTooLarge):
		return tooLargeText(l)
	case errors.Is(err, engine.ErrTooMuchWork):
		return l.T("import_err_work")
	case errors.Is(err, engine.ErrRecordSyntax):
		return l.T("import_err_syntax")
	case errors.Is(err, engine.ErrBadRules):
		return l.T("import_err_variant", "Word", re.Word)
	case errors.Is(err, engine.ErrBadPosition):
		return l.T("import_err_fen")
	case errors.Is(err, engine.ErrBadLabel):
		return l.T("import_err_word", "Word", re.Word)
	}
	var ue *core.UserError
	if errors.As(core.Refusal(re.Err), &ue) {
		return l.T(ue.Key)
	}
	return l.T("err_bad_request")
}

// importURL is the replay address of a kept record at ply.
func importURL(lang, id string, ply int) string {
	return route.ImportReplay(lang, id) + "?ply=" + strconv.Itoa(ply)
}

// importReplay shows a kept record at a ply: its position, a window of its
// moves and the comments at that ply.
func (h *Site) importReplay(c echo.Context) error {
	if err := h.Imports.Check(c); err != nil {
		return err
	}
	l := core.NewLocalizer(h.Bundle, core.LangOf(c), h.Log)
	record, err := h.Games.ImportRecord(c.Request().Context(), c.Param("id"))
	if errors.Is(err, game.ErrNotFound) {
		days := int(game.ImportLifetime.Hours() / 24)
		return h.importAnswer(c, http.StatusNotFound, "", l.T("import_err_gone", "Days", days))
	}
	if err != nil {
		return err
	}
	rec, err := core.ReadRecord(record)
	if err != nil { // a record kept by an older release, or out of work
		return h.importAnswer(c, http.StatusUnprocessableEntity, "", recordError(l, err))
	}
	v, err := replayView(rec.Rules, rec.Start, rec.Moves, rec.Agreements, plyParam(c, len(rec.Moves)))
	if err != nil {
		return err
	}
	v.South, v.North = importName(rec.Tag("South")), importName(rec.Tag("North"))
	if g := rec.Game(); g.Over {
		v.Result, v.Reason = g.Result.String(), views.ReasonKey(string(g.Reason))
	}
	for _, n := range rec.Notes {
		if len(v.Notes) < maxNotesShown && (n.Ply == v.Ply || n.Ply > len(rec.Moves) && v.Ply == len(rec.Moves)) {
			v.Notes = append(v.Notes, shortNote(n.Text))
		}
	}
	v.Ignored = rec.Ignored
	lang, id := core.LangOf(c), c.Param("id")
	v.URL = func(ply int) string { return importURL(lang, id, ply) }
	v.Analysis = boardPath(lang, rec.Rules, v.Position)
	if err := h.attachReview(c, &v, "i/"+id, route.ImportAnalysis(lang, id), route.ImportAnalysisEvents(lang, id), route.ImportLearn(lang, id)); err != nil {
		return err
	}
	return h.showReplay(c, h.Page(c, "title_import_replay", route.ImportPattern), v)
}

// The replay of a record shows at most maxNotesShown comments and
// variations at one ply, each cut to maxNoteRunes, so that a page stays
// small whatever the record holds.
const (
	maxNotesShown = 20
	maxNoteRunes  = 1000
)

// shortNote is a comment or variation as the replay shows it.
func shortNote(s string) string {
	if r := []rune(s); len(r) > maxNoteRunes {
		return string(r[:maxNoteRunes]) + "…"
	}
	return s
}

// importName is a player's name from a record as the replay shows it.
func importName(s string) string {
	if s == "" {
		return "?"
	}
	if r := []rune(s); len(r) > 40 {
		return string(r[:40])
	}
	return s
}
