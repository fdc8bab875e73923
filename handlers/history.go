package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"

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

// replayWindow is how many moves of the list a replay shows before and
// after the move shown, so that a page stays small however long the game.
const replayWindow = 30

// replayView replays moves from start under r and returns the view at ply
// (clamped to the game) with the moves within replayWindow of it. agreed
// lists the numbers of moves after which the players agreed to end a
// Nam-nam round (models.Game.Agreements).
func replayView(r engine.Rules, start engine.Position, moves, agreed []int, ply int) (views.ReplayView, error) {
	v := views.ReplayView{Rules: r.Name(), Position: start, Last: -1, Total: len(moves)}
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
			if mv.RoundOver && len(v.Moves) > 0 && v.Moves[len(v.Moves)-1].Ply == n {
				v.Moves[len(v.Moves)-1].RoundEnded = g.EndedRound(mv)
			}
		case n < ply-replayWindow || n > ply+replayWindow:
		default:
			m := views.ReplayMove{Ply: n, Number: mv.Number, Label: engine.Label(mv.Pit), Mover: mv.Mover, Captured: mv.Captured()}
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
	})
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="oware-`+g.ID+`.ogn"`)
	return c.Blob(http.StatusOK, "text/x-oware-ogn; charset=utf-8", []byte(text))
}

// maxHistoryPage bounds the page number of a player's history (a larger
// one would overflow the offset).
const maxHistoryPage = 1 << 20

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
