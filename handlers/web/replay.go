package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// replayWindow is how many moves of the list a replay shows before and
// after the move shown, so that a page stays small however long the game.
const replayWindow = 30

// replayView replays moves from start under r and returns the view at ply
// (clamped to the game) with the moves within replayWindow of it. agreed
// lists the numbers of moves after which the players agreed to end a
// Nam-nam round (models.Game.Agreements). The replay of a stored game and
// of an imported record share it.
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
func (h *Site) showReplay(c echo.Context, p views.Page, v views.ReplayView) error {
	c.Response().Header().Add(echo.HeaderVary, "HX-Request")
	v.Script = h.Assets.URL("replay.js")
	// A review asked for or under way streams its progress.
	p.Live = v.Review != nil && v.Review.Status != game.ReviewDone
	if core.Htmx(c) {
		v.Partial = true
		if c.QueryParam("poll") != "" {
			// The review's progress: its section only, the whole panel
			// once done (the marks, the best move on the board).
			v.Poll = true
			if v.Review != nil && v.Review.Status == game.ReviewDone {
				c.Response().Header().Set("HX-Retarget", "#replay")
				c.Response().Header().Set("HX-Reselect", "#replay")
			}
		}
		return core.Render(c, http.StatusOK, views.ReplayPanel(p.L, v))
	}
	return core.Render(c, http.StatusOK, views.ReplayPage(p, v))
}

// finished loads the finished game of the request's :id; others are not
// found (their id is their invitation).
func (h *Site) finished(c echo.Context) (*game.Game, error) {
	g, err := h.Games.Load(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, err
	}
	if g.Status != game.Over {
		return nil, core.ErrNotFound
	}
	return g, nil
}

// replayPage steps through a finished game (?ply=N).
func (h *Site) replayPage(c echo.Context) error {
	g, err := h.finished(c)
	if err != nil {
		return err
	}
	eg := g.Engine
	v, err := replayView(g.Rules, eg.Start, eg.Moves, eg.Agreements, plyParam(c, len(eg.Moves)))
	if err != nil {
		return err
	}
	lang := core.LangOf(c)
	p, l := h.Page(c, "title_replay", route.Fill(route.GameReplayPattern, g.ID)), h.Visit(c).L
	v.South, v.North = core.PlayerName(l, g.Seats[engine.South]), core.PlayerName(l, g.Seats[engine.North])
	v.Bots = [2]bool{g.Seats[engine.South].Bot, g.Seats[engine.North].Bot}
	v.Result, v.Reason = g.Result.String(), views.ReasonKey(string(g.Reason))
	v.URL = func(ply int) string { return gameReplayAt(lang, g.ID, ply) }
	v.Record = route.GameRecord(lang, g.ID)
	v.Analysis = boardPath(lang, g.Rules, v.Position)
	v.Share = h.shareView(lang, g, v.Ply)
	p.Preview = gamePreviewOf(l, g, route.GamePlyPicture(lang, g.ID, v.Ply))
	if err := h.attachReview(c, &v, "g/"+g.ID, route.GameAnalysis(lang, g.ID), route.GameAnalysisEvents(lang, g.ID), route.GameLearn(lang, g.ID)); err != nil {
		return err
	}
	return h.showReplay(c, p, v)
}

// recordFile downloads a finished game as an OGN record.
func (h *Site) recordFile(c echo.Context) error {
	g, err := h.finished(c)
	if err != nil {
		return err
	}
	en := h.Localizers["en"]
	text := g.Record([]engine.Tag{
		{Name: "Event", Value: "Oware game " + g.ID},
		{Name: "Site", Value: h.Base},
		{Name: "Date", Value: g.CreatedAt.Format("2006.01.02")},
		{Name: "South", Value: core.PlayerName(en, g.Seats[engine.South])},
		{Name: "North", Value: core.PlayerName(en, g.Seats[engine.North])},
	})
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="oware-`+g.ID+`.ogn"`)
	return c.Blob(http.StatusOK, "text/x-oware-ogn; charset=utf-8", []byte(text))
}

// gameReplayAt is the replay of game id at ply: "/{lang}/games/{id}/replay?ply={ply}".
func gameReplayAt(lang, id string, ply int) string {
	return route.GameReplay(lang, id) + "?ply=" + strconv.Itoa(ply)
}
