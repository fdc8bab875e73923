package handlers

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/views"
)

// The import of a game record (OGN): paste or upload a record and step
// through it. Nothing is stored; the moves travel in the replay's URL.

// importPage is the form to paste or upload an OGN record.
func (h *handler) importPage(c echo.Context) error {
	return h.importAnswer(c, http.StatusOK, "", "")
}

// importAnswer renders the import form, with the record and an error.
func (h *handler) importAnswer(c echo.Context, status int, record, errText string) error {
	p := h.page(c, "title_import", "/import")
	return render(c, status, views.ImportPage(p, views.ImportView{Record: record, Error: errText, CSRF: csrfToken(c)}))
}

// recordError is the localized refusal of a bad record, naming its line
// and, for an illegal move, the move and why.
func recordError(l *localizer, err error) string {
	var re *engine.RecordError
	if !errors.As(err, &re) {
		return l.T("import_err", "Detail", l.T("err_bad_request"))
	}
	why := l.T(recordCauseKey(re.Err), "Word", re.Word)
	if re.Move > 0 {
		return l.T("import_err_move", "Line", re.Line, "Move", re.Move, "Label", re.Word, "Why", why)
	}
	return l.T("import_err_line", "Line", re.Line, "Detail", why)
}

// recordCauseKey is the message id of the cause of a record's error.
func recordCauseKey(err error) string {
	switch {
	case errors.Is(err, engine.ErrRecordSyntax):
		return "import_err_syntax"
	case errors.Is(err, engine.ErrBadRules):
		return "import_err_variant"
	case errors.Is(err, engine.ErrBadPosition):
		return "import_err_fen"
	case errors.Is(err, engine.ErrBadLabel):
		return "import_err_word"
	}
	var ue *userError
	if errors.As(refusal(err), &ue) {
		return ue.key
	}
	return "err_bad_request"
}

// importForm reads the pasted or uploaded record and shows its replay: the
// moves travel in the replay's URL (no storage, works without JavaScript).
func (h *handler) importForm(c echo.Context) error {
	text := c.FormValue("record")
	if fh, err := c.FormFile("file"); err == nil && fh.Size > 0 {
		f, err := fh.Open()
		if err != nil {
			return errBadRequest
		}
		b, err := io.ReadAll(io.LimitReader(f, 60<<10))
		f.Close()
		if err != nil {
			return errBadRequest
		}
		text = string(b)
	}
	text = strings.TrimPrefix(text, "\ufeff") // a byte order mark
	l := h.visit(c).l
	if strings.TrimSpace(text) == "" {
		return h.importAnswer(c, http.StatusUnprocessableEntity, text, l.T("import_err_empty"))
	}
	rec, err := engine.ParseRecord(text)
	if err != nil {
		return h.importAnswer(c, http.StatusUnprocessableEntity, text, recordError(l, err))
	}
	q := importQuery(rec, rec.Tag("South"), rec.Tag("North"))
	return c.Redirect(http.StatusSeeOther, importURL(langOf(c), q, len(rec.Moves)))
}

// importQuery returns the query of an imported record's replay without the
// ply: v (Variant), fen (when not the start), m (the move labels, with "="
// for each agreement), s and n (the players' names).
func importQuery(rec *engine.Record, south, north string) url.Values {
	q := url.Values{}
	q.Set("v", engine.VariantTag(rec.Rules))
	if rec.Start != rec.Rules.Start() {
		q.Set("fen", rec.Rules.FormatPosition(rec.Start))
	}
	var m strings.Builder
	agreements := rec.Agreements
	for i := 0; i <= len(rec.Moves); i++ {
		for len(agreements) > 0 && agreements[0] == i {
			m.WriteString("=")
			agreements = agreements[1:]
		}
		if i < len(rec.Moves) {
			m.WriteString(engine.Label(rec.Moves[i]))
		}
	}
	q.Set("m", m.String())
	if south != "" {
		q.Set("s", truncate(south, 40))
	}
	if north != "" {
		q.Set("n", truncate(north, 40))
	}
	return q
}

// importURL is the replay address of an imported record (query q of
// importQuery) at ply.
func importURL(lang string, q url.Values, ply int) string {
	q.Set("ply", strconv.Itoa(ply))
	return "/" + lang + "/import/replay?" + q.Encode()
}

// truncate cuts s to n runes.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// importReplay shows an imported record (from importURL's query) at a ply;
// the record is checked again by engine.ParseRecord.
func (h *handler) importReplay(c echo.Context) error {
	q := c.QueryParams()
	var b strings.Builder
	fmt.Fprintf(&b, "[Variant %q]\n", q.Get("v"))
	if fen := q.Get("fen"); fen != "" {
		fmt.Fprintf(&b, "[FEN %q]\n", fen)
	}
	for _, ch := range q.Get("m") {
		b.WriteRune(ch)
		b.WriteByte(' ')
	}
	l := h.visit(c).l
	rec, err := engine.ParseRecord(b.String())
	if err != nil {
		return h.importAnswer(c, http.StatusUnprocessableEntity, "", l.T("import_err_link"))
	}
	v, err := replayView(rec.Rules, rec.Start, rec.Moves, rec.Agreements, plyParam(c, len(rec.Moves)))
	if err != nil {
		return err
	}
	base := importQuery(rec, q.Get("s"), q.Get("n"))
	v.South, v.North = base.Get("s"), base.Get("n")
	if v.South == "" {
		v.South = "?"
	}
	if v.North == "" {
		v.North = "?"
	}
	if g := rec.Game(); g.Over {
		v.Result, v.Reason = g.Result.String(), views.ReasonKey(string(g.Reason))
	}
	lang := langOf(c)
	v.URL = func(ply int) string { return importURL(lang, base, ply) }
	return h.showReplay(c, h.page(c, "title_import_replay", "/import"), v)
}
