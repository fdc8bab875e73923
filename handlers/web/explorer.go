package web

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// explorerPage: GET /{lang}/explorer?rules=R&position=P, the form and,
// for a position, its board and moves, each a link to the position after
// it (a refusal is shown on the page, with its status).
func (h *Site) explorerPage(c echo.Context) error {
	p := h.Page(c, "exp_title", route.ExplorerPattern)
	p.Description = p.L.T("exp_intro")
	v := views.ExplorerView{Rules: c.QueryParam("rules"), Position: c.QueryParam("position")}
	if v.Rules == "" {
		v.Rules = "abapa"
	}
	status := http.StatusOK
	if v.Position != "" {
		e, err := h.Explore(v.Rules, v.Position)
		var ue *core.UserError
		switch {
		case errors.As(err, &ue):
			status, v.Error = ue.Status, p.L.T(ue.Key)
		case err != nil:
			return err
		}
		if e.Parsed {
			v.Board, v.HasBoard = e.Pos, true
			v.AnalysisURL = route.Analysis(p.Lang) + "?" + url.Values{"rules": {v.Rules}, "position": {v.Position}}.Encode()
		}
		for _, m := range e.Out.Moves {
			v.Moves = append(v.Moves, explorerRow(p.Lang, e, m))
		}
	}
	return core.Render(c, status, views.Explorer(p, v))
}

// explorerRow is one move of the explorer page, with the link to the
// position after it.
func explorerRow(lang string, e core.Explored, m core.ExplorerMove) views.ExplorerMove {
	row := views.ExplorerMove{Move: m.Move, Lo: m.Lo, Hi: m.Hi, Result: m.Result}
	pit, err := engine.ParseLabel(m.Move)
	if err != nil {
		return row
	}
	after, _, err := e.Rules.Play(e.Pos, pit)
	if err != nil {
		return row
	}
	row.URL = route.Explorer(lang) + "?" + url.Values{"rules": {e.Rules.Name()}, "position": {e.Rules.FormatPosition(after)}}.Encode()
	return row
}
