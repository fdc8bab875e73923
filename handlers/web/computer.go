package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/engine/search"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/tutor"
	"oware/views"
)

// The computer opponent's pages: a new game against it, hints in its
// games and in tutorials, and the wait of a move without JavaScript.

// replyWait is how long a move without JavaScript waits for the
// computer's reply before the redirect, so that the page shows it at once
// when it comes that soon (the search runs on the pool, never here).
const replyWait = 3 * time.Second

// newComputerForm shows the settings of a game against the computer
// (?rules= and ?level= choose them).
func (h *Site) newComputerForm(c echo.Context) error {
	level, err := search.ParseLevel(c.QueryParam("level"))
	if err != nil {
		level = search.MinLevel
	}
	return h.renderComputerForm(c, http.StatusOK, c.QueryParam("rules"), int(level), "")
}

// renderComputerForm shows the computer form with status, "Play a bot"
// with the refusal errKey ("" for none).
func (h *Site) renderComputerForm(c echo.Context, status int, rules string, level int, errKey string) error {
	bots, err := h.botsOnline(c, errKey)
	if err != nil {
		return err
	}
	p := h.Page(c, "cp_title", route.ComputerPattern)
	return core.Render(c, status, views.NewComputerPage(p, core.CsrfToken(c), rules, level, int(game.MaxHintLevel), bots))
}

// createComputerForm starts a game against the computer at the posted
// level and shows it.
func (h *Site) createComputerForm(c echo.Context) error {
	level, err := search.ParseLevel(c.FormValue("level"))
	if err != nil {
		return core.ErrBadLevel
	}
	return h.startGame(c, game.Settings{Computer: level})
}

// awaitComputer waits a little, after a move without JavaScript, for the
// computer's reply in g, so that the page after the redirect shows it.
func (h *Site) awaitComputer(c echo.Context, g *game.Game) {
	if g.ComputerToMove() == engine.Nobody {
		return
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), replyWait)
	defer cancel()
	h.Games.Computer().Await(ctx, g.ID)
}

// hintForm gives the player a hint in a game against the computer (at
// most game.MaxHints); the game page shows it until the game changes.
func (h *Site) hintForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	if _, err = h.Games.Hint(c.Request().Context(), g, seat); err != nil || !core.Htmx(c) {
		return h.answer(c, g, seat, err)
	}
	// A hint leaves the game's version as it is: its panel goes without
	// X-Game-Version, which would keep the page from swapping it in.
	v := h.gameView(g, h.viewerOf(c, g, seat))
	v.OOB = true
	return core.Render(c, http.StatusOK, views.GamePanel(h.Visit(c).L, v))
}

// addAids fills in what v shows of the computer opponent, the hints and
// the takebacks for viewer w.
func (h *Site) addAids(v *views.GameView, g *game.Game, w viewer) {
	if cs := g.ComputerSide(); cs != engine.Nobody {
		v.Computer = int(g.Seats[cs].Computer)
	}
	v.HintsLeft = -1
	if w.seat == engine.Nobody {
		return
	}
	v.HintsLeft = g.HintsLeft(w.seat)
	if hint, ok := g.LastHint(); ok && g.Status == game.Playing && g.Position.ToMove == w.seat {
		v.Hint = hintText(h.Localizers[w.lang], hint, w.seat)
		if pit, err := engine.ParseLabel(hint.Label); err == nil {
			v.HintPits = 1 << pit
		}
	}
	switch side, asked := g.TakebackOffer(); {
	case asked && side == w.seat:
		v.Takeback = "asked"
	case asked:
		v.Takeback = "answer"
	case g.MayAskTakeback(w.seat):
		v.Takeback = "ask"
	}
}

// hintText words a hint for the player to move, mover: "Sow C: it
// captures 5 seeds", and the distance of the forced win it starts when
// proven ("; it wins by force in 5 plies").
func hintText(l *core.Localizer, h game.Hint, mover engine.Side) string {
	switch {
	case h.Plies > 0 && h.Reason == search.ReasonForcedWin && h.Seeds > 0:
		return l.N("rv_why_forced_win_in", h.Plies, "Label", h.Label) + l.N("rv_why_margin", h.Seeds)
	case h.Plies > 0 && h.Reason == search.ReasonForcedWin:
		return l.N("rv_why_forced_win_in", h.Plies, "Label", h.Label)
	case h.Plies > 0 && h.Reason != search.ReasonWins:
		return hintReason(l, h, mover) + l.N("rv_why_in_plies", h.Plies)
	}
	return hintReason(l, h, mover)
}

// hintReason words why the hint's move is good.
func hintReason(l *core.Localizer, h game.Hint, mover engine.Side) string {
	switch h.Reason {
	case search.ReasonWins:
		return l.T("cp_why_wins", "Label", h.Label)
	case search.ReasonOnlyMove:
		return l.T("cp_why_only_move", "Label", h.Label)
	case search.ReasonOnlyFeed:
		return l.T("cp_why_only_feed", "Label", h.Label, "Side", l.T("side_"+mover.Opponent().String()))
	case search.ReasonGrandSlam:
		return l.N("cp_why_grand_slam", h.Seeds, "Label", h.Label)
	case search.ReasonCaptures:
		return l.N("cp_why_captures", h.Seeds, "Label", h.Label)
	case search.ReasonAvoidsLoss:
		return l.N("cp_why_avoids_loss", h.Seeds, "Label", h.Label)
	case search.ReasonForcedWin:
		if h.Seeds == 0 {
			return l.T("rv_why_forced_win", "Label", h.Label)
		}
		return l.N("rv_why_forced_win_by", h.Seeds, "Label", h.Label)
	case search.ReasonThreatens:
		return l.N("rv_why_threatens", h.Seeds, "Label", h.Label)
	case search.ReasonFeeds:
		return l.T("rv_why_feeds", "Label", h.Label, "Side", l.T("side_"+mover.Opponent().String()))
	}
	return l.T("cp_why_best", "Label", h.Label)
}

// stepReason words the hint of a move a tutorial step asks for, which the
// search does not prefer: the seeds it captures, or that the step is
// about it.
func stepReason(l *core.Localizer, r engine.Rules, pos engine.Position, pit int) string {
	label := engine.Label(pit)
	if _, mv, err := r.Play(pos, pit); err == nil && mv.Captured() > 0 {
		return l.N("cp_why_captures", mv.Captured(), "Label", label)
	}
	return l.T("cp_why_tutorial", "Label", label)
}

// tutorialHint shows a step with a hint: the best move the search finds
// when the step accepts it, else the first move the step accepts (a step
// teaches one idea, which need not be the strongest move).
func (h *Site) tutorialHint(c echo.Context) error {
	t, s, err := h.loadStep(c)
	if err != nil {
		return err
	}
	v, err := h.stepView(c, t, s)
	if err != nil {
		return err
	}
	if v.HintURL == "" {
		return core.Redirect(c, route.TutorialStep(core.LangOf(c), t.Slug, s.Number))
	}
	r, pos, err := tutor.Board(s.Rules, s.Position, s.Highlight, s.Accept)
	if err != nil {
		return err
	}
	accept, _ := tutor.ParseLabels(s.Accept)
	found, err := h.Games.Computer().Hint(c.Request().Context(), engine.NewGame(r, pos))
	if err != nil {
		return err
	}
	l := h.Visit(c).L
	pit := found.Pit
	if accept.Has(pit) {
		v.Hint = hintText(l, game.Hint{Label: found.Label, Reason: found.Reason, Seeds: found.Seeds}, pos.ToMove)
	} else {
		pit = accept.Pits()[0]
		v.Hint = stepReason(l, r, pos, pit)
	}
	v.Board.Highlight = 1 << pit
	return h.renderStep(c, t, s, v)
}
