package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/engine/search"
	"oware/handlers/core"
)

// The analysis API: GET /api/v1/analysis?rules=R&position=P&depth=D (or
// movetime=MS) searches a position on the computer's pool, at full
// strength with the endgame tables, and answers exactly
// {"best","value","depth","pv","exact"}.

// defaultAnalysisTime is the time of an analysis that asks for none; the
// time asked is at most search.MaxAnalysisTime, which bounds every
// analysis (the depth asked is then the most it reaches).
const defaultAnalysisTime = time.Second

// analysisJSON is the answer of the analysis API, exactly.
type analysisJSON struct {
	Best  string   `json:"best"`  // the best move's label
	Value float64  `json:"value"` // seeds, from the mover's side
	Depth int      `json:"depth"` // plies searched
	PV    []string `json:"pv"`    // the principal variation, best first
	Exact bool     `json:"exact"` // the value is proven
}

// apiAnalysis: GET /api/v1/analysis?rules=R&fours=F&position=P&depth=D&movetime=MS.
// rules defaults to abapa, position to the start; without depth or
// movetime it searches defaultAnalysisTime. The searches (not the
// refusals) count against the client's limit.
func (h *API) apiAnalysis(c echo.Context) error {
	eg, budget, lim, err := h.analysisQuery(c)
	if err != nil {
		return err
	}
	var res search.Result
	err = h.Search(c, budget, func(ctx context.Context) (err error) {
		res, err = h.Games.Computer().Analyze(ctx, eg, lim)
		return err
	})
	if err != nil {
		return err
	}
	a := res.Analysis()
	return c.JSON(http.StatusOK, analysisJSON{Best: a.Best, Value: a.Value, Depth: a.Depth, PV: a.PV, Exact: a.Exact})
}

// analysisQuery reads the query of an analysis: the game to search (a
// Nam-nam one with a visitor's budget, returned too) and its limits.
func (h *API) analysisQuery(c echo.Context) (*engine.Game, *engine.Budget, search.Limits, error) {
	var lim search.Limits
	r, err := engine.NewRules(c.QueryParam("rules"), c.QueryParam("fours"))
	if err != nil {
		return nil, nil, lim, core.ErrAnalysisRules
	}
	r, budget := h.Budgeted(r)
	pos := r.Start()
	if s := c.QueryParam("position"); s != "" {
		if pos, err = r.ParsePosition(s); err != nil {
			return nil, nil, lim, core.ErrAnalysisPosition
		}
	}
	lim.MoveTime = search.MaxAnalysisTime
	if s := c.QueryParam("depth"); s != "" {
		d, err := strconv.Atoi(s)
		if err != nil || d < 1 || d > search.MaxDepth {
			return nil, nil, lim, core.ErrAnalysisDepth
		}
		lim.Depth = d
	}
	if s := c.QueryParam("movetime"); s != "" {
		ms, err := strconv.Atoi(s)
		if err != nil || ms < 1 || time.Duration(ms)*time.Millisecond > search.MaxAnalysisTime {
			return nil, nil, lim, core.ErrAnalysisMovetime
		}
		lim.MoveTime = time.Duration(ms) * time.Millisecond
	} else if lim.Depth == 0 {
		lim.MoveTime = defaultAnalysisTime
	}
	eg := engine.NewGame(r, pos)
	legal := eg.LegalMoves()
	if budget != nil && budget.Err() != nil {
		return nil, nil, lim, engine.ErrTooMuchWork
	}
	if legal == 0 {
		return nil, nil, lim, core.ErrAnalysisOver
	}
	return eg, budget, lim, nil
}
