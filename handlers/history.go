package handlers

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/models"
	"oware/views"
)

// historyPage is how many games a player's page lists.
const historyPage = 20

// playerPage lists a player's finished games with totals, filters and
// pagination.
func (h *handler) playerPage(c echo.Context) error {
	ctx := c.Request().Context()
	u, err := h.db.UserByName(ctx, c.Param("name"))
	if errors.Is(err, models.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	f := models.HistoryFilter{Rules: c.QueryParam("rules"), Result: c.QueryParam("result"), Limit: historyPage}
	if _, err := engine.RulesByName(f.Rules); err != nil {
		f.Rules = ""
	}
	if !slices.Contains([]string{"won", "lost", "drawn"}, f.Result) {
		f.Result = ""
	}
	pg, _ := strconv.Atoi(c.QueryParam("page"))
	pg = min(max(pg, 1), maxHistoryPage) // past the end: "no games match"
	f.Offset = (pg - 1) * historyPage
	games, total, err := h.db.History(ctx, u.ID, f)
	if err != nil {
		return err
	}
	totals, err := h.db.PlayerTotals(ctx, u.ID)
	if err != nil {
		return err
	}
	names, err := h.opponents(c, games)
	if err != nil {
		return err
	}
	lang := langOf(c)
	v := views.PlayerView{Name: u.Username, Rules: f.Rules, Result: f.Result,
		RuleSets: slices.Clone(views.RuleSets), Total: int(total)}
	for _, t := range totals {
		v.Totals = append(v.Totals, views.TotalsRow{Rules: t.Rules, Won: t.Won, Lost: t.Lost, Drawn: t.Drawn})
		if !slices.Contains(v.RuleSets, t.Rules) {
			v.RuleSets = append(v.RuleSets, t.Rules)
		}
	}
	for _, g := range games {
		row := views.HistoryRow{ID: g.ID, Date: g.UpdatedAt.Format("2006-01-02"), Rules: g.Rules,
			Reason: reasonKey(g.Reason), Moves: g.MoveCount, Side: "south", Outcome: "drawn"}
		opp := g.NorthUserID
		if g.NorthUserID != nil && *g.NorthUserID == u.ID {
			row.Side, opp = "north", g.SouthUserID
		}
		if g.Result != "draw" {
			row.Outcome = map[bool]string{true: "won", false: "lost"}[g.Result == row.Side]
		}
		if opp != nil {
			if o := names[*opp]; o == nil || o.Deleted() {
				row.OpponentDeleted = true
			} else {
				row.Opponent = o.Username
			}
		}
		v.Games = append(v.Games, row)
	}
	if len(games) > 0 {
		v.From, v.To = f.Offset+1, f.Offset+len(games)
	}
	link := func(n int) string {
		q := url.Values{}
		if f.Rules != "" {
			q.Set("rules", f.Rules)
		}
		if f.Result != "" {
			q.Set("result", f.Result)
		}
		if n > 1 {
			q.Set("page", strconv.Itoa(n))
		}
		if len(q) == 0 {
			return views.PlayerURL(lang, u.Username)
		}
		return views.PlayerURL(lang, u.Username) + "?" + q.Encode()
	}
	if pg > 1 {
		v.Prev = link(pg - 1)
	}
	if int64(f.Offset+len(games)) < total {
		v.Next = link(pg + 1)
	}
	if me := h.currentUser(c); me != nil && me.ID == u.ID {
		if v.Open, err = h.openGames(c, u); err != nil {
			return err
		}
	}
	p := h.page(c, "title_player", "/players/"+url.PathEscape(u.Username))
	p.Title = p.L.T("title_player", "Name", u.Username)
	return render(c, http.StatusOK, views.PlayerPage(p, v))
}

// opponents loads the accounts seated in the games.
func (h *handler) opponents(c echo.Context, games []models.HistoryGame) (map[uint]*models.User, error) {
	var ids []uint
	for _, g := range games {
		for _, id := range []*uint{g.SouthUserID, g.NorthUserID} {
			if id != nil {
				ids = append(ids, *id)
			}
		}
	}
	return h.db.UsersByID(c.Request().Context(), ids)
}

// reasonKey returns the message id of an engine.Reason.
func reasonKey(r string) string { return views.ReasonKey(r) }

// playerNames returns the names of g's players as the pages show them
// (a username, "guest" or "deleted player") in the localizer's language.
func (h *handler) playerNames(c echo.Context, l *localizer, g *models.Game) (south, north string, err error) {
	users, err := h.db.UsersByID(c.Request().Context(), nonNil(g.SouthUserID, g.NorthUserID))
	if err != nil {
		return "", "", err
	}
	name := func(id *uint) string {
		if id == nil {
			return l.T("hist_guest")
		}
		if u := users[*id]; u != nil && !u.Deleted() {
			return u.Username
		}
		return l.T("hist_deleted_player")
	}
	return name(g.SouthUserID), name(g.NorthUserID), nil
}

// nonNil returns the ids that are set.
func nonNil(ids ...*uint) []uint {
	var out []uint
	for _, id := range ids {
		if id != nil {
			out = append(out, *id)
		}
	}
	return out
}

// replayView replays moves from start under r and returns the view at ply
// (clamped to the game). agreed lists the numbers of moves after which the
// players agreed to end a Nam-nam round (models.Game.Agreements).
func replayView(r engine.Rules, start engine.Position, moves, agreed []int, ply int) (views.ReplayView, error) {
	v := views.ReplayView{Rules: r.Name(), Position: start, Last: -1}
	rounds, isRounds := r.(engine.Rounds)
	show := func(g *engine.Game) {
		v.Position = g.Position
		if isRounds {
			v.Match.Round, v.Match.Totals = g.Round, rounds.Totals(g.Position)
		}
	}
	if isRounds {
		v.Match = &views.BoardMatch{Round: 1, Totals: rounds.Totals(start)}
	}
	ply = min(max(ply, 0), len(moves))
	_, err := engine.ReplayMatch(r, start, moves, agreed, func(g *engine.Game, mv engine.Move, agreement bool) {
		n := len(g.Moves)
		switch {
		case agreement && n == 0:
			if ply == 0 {
				show(g)
			}
		case agreement:
			if mv.RoundOver {
				v.Moves[n-1].RoundEnded = g.EndedRound(mv)
			}
		default:
			m := views.ReplayMove{Ply: n, Label: engine.Label(mv.Pit), Mover: mv.Mover, Captured: mv.Captured()}
			if mv.RoundOver {
				m.RoundEnded = g.EndedRound(mv)
			}
			v.Moves = append(v.Moves, m)
			if n == ply {
				show(g)
				v.Last = mv.Pit
			}
		}
	})
	v.Ply = ply
	return v, err
}

// plyParam reads the query's ply; missing means the end (len moves).
func plyParam(c echo.Context, moves int) int {
	s := c.QueryParam("ply")
	if s == "" {
		return moves
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return moves
	}
	return n
}

// showReplay renders the replay page, or only its panel for htmx.
func (h *handler) showReplay(c echo.Context, p views.Page, v views.ReplayView) error {
	c.Response().Header().Add(echo.HeaderVary, "HX-Request")
	v.Script = h.assets.URL("replay.js")
	if c.Request().Header.Get("HX-Request") != "" && c.Request().Header.Get("HX-History-Restore-Request") == "" {
		v.Partial = true
		return render(c, http.StatusOK, views.ReplayPanel(p.L, v))
	}
	return render(c, http.StatusOK, views.ReplayPage(p, v))
}

// finishedGame loads the finished game of the request's :id and reads it
// for the engine; others are not found (their id is their invitation).
func (h *handler) finishedGame(c echo.Context) (*models.Game, replayInput, error) {
	g, err := h.loadGame(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, replayInput{}, err
	}
	if g.Status != "over" {
		return nil, replayInput{}, errNotFound
	}
	in, err := replayInputOf(g)
	return g, in, err
}

// replayPage steps through a finished game (?ply=N).
func (h *handler) replayPage(c echo.Context) error {
	g, in, err := h.finishedGame(c)
	if err != nil {
		return err
	}
	v, err := replayView(in.rules, in.start, in.pits, in.agreements, plyParam(c, len(in.pits)))
	if err != nil {
		return err
	}
	lang := langOf(c)
	p := h.page(c, "title_replay", "/games/"+g.ID+"/replay")
	l := newLocalizer(h.bundle, lang, h.log)
	if v.South, v.North, err = h.playerNames(c, l, g); err != nil {
		return err
	}
	v.Result, v.Reason = g.Result, reasonKey(g.Reason)
	base := gamePath(lang, g.ID)
	v.URL = func(ply int) string { return base + "/replay?ply=" + strconv.Itoa(ply) }
	v.Record = base + "/record.ogn"
	return h.showReplay(c, p, v)
}

// recordFile downloads a finished game as an OGN record.
func (h *handler) recordFile(c echo.Context) error {
	g, _, err := h.finishedGame(c)
	if err != nil {
		return err
	}
	eg, err := replay(g)
	if err != nil {
		return err
	}
	// The result tag counts the final captures: apply an end that is not
	// a move (resignation, agreement) before writing.
	switch engine.Reason(g.Reason) {
	case engine.ReasonResignation:
		loser := engine.South
		if g.Result == "south" {
			loser = engine.North
		}
		if !eg.Over {
			_ = eg.Resign(loser)
		}
	case engine.ReasonAgreement:
		if !eg.Over {
			_, _ = eg.Agree()
		}
	}
	l := newLocalizer(h.bundle, "en", h.log)
	south, north, err := h.playerNames(c, l, g)
	if err != nil {
		return err
	}
	text := engine.FormatRecord(eg, []engine.Tag{
		{Name: "Event", Value: "Oware game " + g.ID},
		{Name: "Site", Value: h.base},
		{Name: "Date", Value: g.CreatedAt.Format("2006.01.02")},
		{Name: "South", Value: south},
		{Name: "North", Value: north},
		{Name: "Termination", Value: termination(g)},
	})
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="oware-`+g.ID+`.ogn"`)
	return c.Blob(http.StatusOK, "application/x-oware-ogn; charset=utf-8", []byte(text))
}

// maxHistoryPage bounds the page number of a player's history (a larger
// one would overflow the offset).
const maxHistoryPage = 1 << 20

// termination is the Termination tag: how the game ended and who won,
// e.g. "resignation; north wins" (the Result tag only holds the captures).
func termination(g *models.Game) string {
	switch g.Result {
	case "south", "north":
		return g.Reason + "; " + g.Result + " wins"
	case "draw":
		return g.Reason + "; draw"
	}
	return g.Reason
}

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
	if errors.As(engineError(err), &ue) {
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
	l := newLocalizer(h.bundle, langOf(c), h.log)
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
	l := newLocalizer(h.bundle, langOf(c), h.log)
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
		v.Result, v.Reason = g.Result.String(), reasonKey(string(g.Reason))
	}
	lang := langOf(c)
	v.URL = func(ply int) string { return importURL(lang, base, ply) }
	return h.showReplay(c, h.page(c, "title_import_replay", "/import"), v)
}

// addPlayerNames shows the players' names on the game page once both
// seats are taken, when an account holds one of them.
func (h *handler) addPlayerNames(c echo.Context, v *views.GameView, g *models.Game) error {
	if g.Status == "waiting" || (g.SouthUserID == nil && g.NorthUserID == nil) {
		return nil
	}
	var err error
	v.SouthName, v.NorthName, err = h.playerNames(c, newLocalizer(h.bundle, langOf(c), h.log), g)
	return err
}

// openGames lists the games of u that are not over, for u's own page.
func (h *handler) openGames(c echo.Context, u *models.User) ([]views.OpenGame, error) {
	games, err := h.db.OpenGames(c.Request().Context(), u.ID)
	if err != nil {
		return nil, err
	}
	var ids []uint
	for _, g := range games {
		ids = append(ids, nonNil(g.SouthUserID, g.NorthUserID)...)
	}
	users, err := h.db.UsersByID(c.Request().Context(), ids)
	if err != nil {
		return nil, err
	}
	var out []views.OpenGame
	for _, g := range games {
		me := engine.South
		if g.NorthUserID != nil && *g.NorthUserID == u.ID {
			me = engine.North
		}
		out = append(out, openGameOf(&g, me, users))
	}
	slices.SortStableFunc(out, byTurn)
	return out, nil
}

// openGameOf describes game g (not over) for the player in seat me; users
// are the accounts that may hold the other seat.
func openGameOf(g *models.Game, me engine.Side, users map[uint]*models.User) views.OpenGame {
	o := views.OpenGame{ID: g.ID, Rules: g.Rules, Waiting: g.Status == "waiting"}
	opp := g.NorthUserID
	if me == engine.North {
		opp = g.SouthUserID
	}
	if opp != nil && users[*opp] != nil && !users[*opp].Deleted() {
		o.Opponent = users[*opp].Username
	}
	if r, err := rulesOf(g); err == nil && g.Status == "playing" {
		if p, err := r.ParsePosition(g.Position); err == nil {
			o.YourTurn = p.ToMove == me
		}
	}
	return o
}
