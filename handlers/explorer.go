package handlers

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/engine/endgame"
	"oware/route"
	"oware/views"
)

// The endgame explorer: GET /api/v1/explorer?rules=R&position=P and the
// page /{lang}/explorer show every legal move of a position within the
// endgame tables with its proven outcome, best first (endgame.ProbeMoves).

// The refusals of the explorer.
var (
	errExplorerRules    = &userError{http.StatusBadRequest, "exp_err_rules"}
	errExplorerPosition = &userError{http.StatusBadRequest, "exp_err_position"}
	errExplorerOver     = &userError{http.StatusUnprocessableEntity, "exp_err_over"}
	errExplorerNoTables = &userError{http.StatusUnprocessableEntity, "exp_err_no_tables"}
	errExplorerSeeds    = &userError{http.StatusUnprocessableEntity, "exp_err_seeds"}
)

// explorerJSON is the explorer's answer, exactly.
type explorerJSON struct {
	Position string         `json:"position"` // the position string asked for
	Seeds    int            `json:"seeds"`    // the seeds on the board
	Moves    []explorerMove `json:"moves"`    // every legal move, best first
}

// explorerMove is one move of the explorer: bounds of the capture
// difference at the end of the game, from the mover's side, counting the
// captures already made, and the result they prove.
type explorerMove struct {
	Move   string `json:"move"`   // the pit's label
	Lo     int    `json:"lo"`     // seeds
	Hi     int    `json:"hi"`     // seeds; equal to lo when exact
	Result string `json:"result"` // win, draw, loss or unknown
}

// moveResult is the result that bounds lo <= hi of a final capture
// difference prove for the mover.
func moveResult(lo, hi int) string {
	switch {
	case lo > 0:
		return "win"
	case hi < 0:
		return "loss"
	case lo == 0 && hi == 0:
		return "draw"
	}
	return "unknown"
}

// explored is a position the explorer looked at: its rule set, the
// position and the answer.
type explored struct {
	rules  engine.Oware
	pos    engine.Position
	parsed bool // rules and pos are set
	out    explorerJSON
}

// explore reads rules and position and returns the explorer's answer.
// A position the tables do not cover, or where the game is over, is a
// refusal saying so.
func (h *handler) explore(rulesName, position string) (explored, error) {
	var e explored
	if rulesName == "" {
		rulesName = "abapa"
	}
	r, err := engine.NewRules(rulesName, "")
	if err != nil {
		return e, errExplorerRules
	}
	o, ok := r.(engine.Oware)
	if !ok {
		return e, errExplorerNoTables // Nam-nam has no tables
	}
	p, err := o.ParsePosition(position)
	if err != nil {
		return e, errExplorerPosition
	}
	e.rules, e.pos, e.parsed = o, p, true
	e.out = explorerJSON{Position: position, Seeds: p.BoardSeeds(), Moves: []explorerMove{}}
	if o.LegalMoves(p) == 0 || int(p.Captured[engine.South]) > engine.TotalSeeds/2 || int(p.Captured[engine.North]) > engine.TotalSeeds/2 {
		return e, errExplorerOver
	}
	t := h.table(o)
	if t == nil {
		return e, errExplorerNoTables
	}
	moves, ok := t.ProbeMoves(&p)
	if !ok {
		return e, errExplorerSeeds
	}
	d := int(p.Captured[p.ToMove]) - int(p.Captured[p.ToMove.Opponent()])
	for _, m := range moves {
		lo, hi := d+m.Lo, d+m.Hi
		e.out.Moves = append(e.out.Moves, explorerMove{Move: engine.Label(m.Pit), Lo: lo, Hi: hi, Result: moveResult(lo, hi)})
	}
	return e, nil
}

// table returns the endgame table of rules that the computer uses, or nil.
func (h *handler) table(rules engine.Oware) *endgame.Table {
	pool := h.games.Computer()
	if pool == nil || pool.Tables() == nil {
		return nil
	}
	return pool.Tables().Table(rules)
}

// apiExplorer: GET /api/v1/explorer?rules=R&position=P.
func (h *handler) apiExplorer(c echo.Context) error {
	if c.QueryParam("position") == "" {
		return errExplorerPosition
	}
	e, err := h.explore(c.QueryParam("rules"), c.QueryParam("position"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, e.out)
}

// explorerPage: GET /{lang}/explorer?rules=R&position=P, the form and,
// for a position, its board and moves, each a link to the position after
// it (a refusal is shown on the page, with its status).
func (h *handler) explorerPage(c echo.Context) error {
	p := h.page(c, "exp_title", route.ExplorerPattern)
	p.Description = p.L.T("exp_intro")
	v := views.ExplorerView{Rules: c.QueryParam("rules"), Position: c.QueryParam("position")}
	if v.Rules == "" {
		v.Rules = "abapa"
	}
	status := http.StatusOK
	if v.Position != "" {
		e, err := h.explore(v.Rules, v.Position)
		var ue *userError
		switch {
		case errors.As(err, &ue):
			status, v.Error = ue.status, p.L.T(ue.key)
		case err != nil:
			return err
		}
		if e.parsed {
			v.Board, v.HasBoard = e.pos, true
			v.AnalysisURL = route.Analysis(p.Lang) + "?" + url.Values{"rules": {v.Rules}, "position": {v.Position}}.Encode()
		}
		for _, m := range e.out.Moves {
			v.Moves = append(v.Moves, explorerRow(p.Lang, e, m))
		}
	}
	return render(c, status, views.Explorer(p, v))
}

// explorerRow is one move of the explorer page, with the link to the
// position after it.
func explorerRow(lang string, e explored, m explorerMove) views.ExplorerMove {
	row := views.ExplorerMove{Move: m.Move, Lo: m.Lo, Hi: m.Hi, Result: m.Result}
	pit, err := engine.ParseLabel(m.Move)
	if err != nil {
		return row
	}
	after, _, err := e.rules.Play(e.pos, pit)
	if err != nil {
		return row
	}
	row.URL = route.Explorer(lang) + "?" + url.Values{"rules": {e.rules.Name()}, "position": {e.rules.FormatPosition(after)}}.Encode()
	return row
}
