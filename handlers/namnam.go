package handlers

// Nam-nam (RULES.md 4, issue 7): a match of rounds. The engine knows the
// rules; this file rebuilds the match from the stored moves and agreements,
// fills the match part of the game view and lets a player start the next
// round (dismiss the round summary).

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/models"
	"oware/views"
)

// namnamRoutes adds the Nam-nam pages under the language prefix.
func (h *handler) namnamRoutes(g *echo.Group) {
	g.POST("/games/:id/round/next", h.nextRoundForm)
}

// rulesOf returns the rule set of g with its table settings.
func rulesOf(g *models.Game) (engine.Rules, error) {
	return engine.NewRules(g.Rules, g.Fours)
}

// foursOf returns the fours setting of r as stored: "last" or "owner" for
// Nam-nam, "" for the Oware rule sets.
func foursOf(r engine.Rules) string {
	if n, ok := r.(engine.NamNam); ok {
		return n.Fours.String()
	}
	return ""
}

// addAgreement appends the number of moves played to the comma-separated
// list of agreements (models.Game.Agreements).
func addAgreement(list string, moves int) string {
	if list != "" {
		list += ","
	}
	return list + strconv.Itoa(moves)
}

// parseAgreements reads models.Game.Agreements.
func parseAgreements(list string) ([]int, error) {
	var plies []int
	if list == "" {
		return nil, nil
	}
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad agreements %q", list)
		}
		plies = append(plies, n)
	}
	return plies, nil
}

// matchRecord is what a replay tells beyond the engine's Game.
type matchRecord struct {
	ends []engine.Move // the moves (or agreements) that ended each round, in order
	// starts are the numbers of moves played when each round after the
	// first started.
	starts []int
	last   *engine.Move // the last move played; nil when none, or when an agreement followed it
}

// replayInput is a stored game as engine.ReplayMatch takes it.
type replayInput struct {
	rules      engine.Rules
	start      engine.Position
	pits       []int // the moves
	agreements []int // models.Game.Agreements
}

// replayInputOf reads the stored game g for the engine.
func replayInputOf(g *models.Game) (replayInput, error) {
	r, err := rulesOf(g)
	if err != nil {
		return replayInput{}, err
	}
	in := replayInput{rules: r, pits: make([]int, len(g.Moves))}
	if in.start, err = r.ParsePosition(g.StartPosition); err != nil {
		return replayInput{}, err
	}
	if in.agreements, err = parseAgreements(g.Agreements); err != nil {
		return replayInput{}, err
	}
	for i, m := range g.Moves {
		in.pits[i] = m.Pit
	}
	return in, nil
}

// replayMatch rebuilds the engine's game of g: its moves, with Game.Agree
// applied after the number of moves each agreement lists. The engine moves
// a Nam-nam match on to its next rounds by itself.
func replayMatch(g *models.Game) (*engine.Game, matchRecord, error) {
	var rec matchRecord
	in, err := replayInputOf(g)
	if err != nil {
		return nil, rec, err
	}
	eg, err := engine.ReplayMatch(in.rules, in.start, in.pits, in.agreements, func(eg *engine.Game, mv engine.Move, agreement bool) {
		if mv.RoundOver {
			rec.ends = append(rec.ends, mv)
			if agreement || !mv.Over {
				rec.starts = append(rec.starts, len(eg.Moves))
			}
		}
		rec.last = nil
		if !agreement {
			rec.last = &mv
		}
	})
	if err != nil {
		return nil, rec, err
	}
	return eg, rec, nil
}

// roundSeen returns the last round whose start seat has seen.
func roundSeen(g *models.Game, seat engine.Side) int {
	if seat == engine.North {
		return g.NorthRoundSeen
	}
	return g.SouthRoundSeen
}

// addMatch fills the Nam-nam part of v (a no-op for Oware): the round, the
// totals, the summary of every round played and, until a seated viewer
// starts the next round, the summary of the last one (their board is not
// playable meanwhile; spectators see it between rounds). The last move's
// sowing is animated unless it ended a round (the board then shows the
// start of the next round).
func (h *handler) addMatch(v *views.GameView, g *models.Game, seat engine.Side) error {
	if g.Rules != "namnam" {
		return nil
	}
	eg, rec, err := replayMatch(g)
	if err != nil {
		return fmt.Errorf("replay game %s: %w", g.ID, err)
	}
	rounds := eg.Rules.(engine.Rounds)
	m := &views.MatchView{
		Fours: g.Fours, Round: eg.Round, Starter: eg.Starter, RoundMoves: eg.RoundMoves,
		Totals: rounds.Totals(eg.Position), BetweenRounds: eg.BetweenRounds(),
		NextURL: v.Base + "/round/next",
	}
	for i, mv := range rec.ends {
		m.Rounds = append(m.Rounds, roundSummary(i+1, mv))
	}
	from := 0
	for _, to := range append(rec.starts, len(g.Moves)) {
		round := []string{}
		for _, mv := range g.Moves[from:to] {
			round = append(round, mv.Label)
		}
		m.Moves, from = append(m.Moves, round), to
	}
	if !eg.Over && len(m.Rounds) > 0 {
		last := m.Rounds[len(m.Rounds)-1]
		switch {
		case seat == engine.Nobody:
			if eg.BetweenRounds() {
				m.Summary = &last
			}
		case roundSeen(g, seat) < eg.Round:
			m.Summary, m.CanStart = &last, true
			v.Playable = 0
		}
	}
	if rec.last != nil && !rec.last.RoundOver {
		m.Sown = rec.last.Sown
	} else {
		v.LastPit = -1 // the board shows the start of a round
	}
	v.Match = m
	return nil
}

// roundSummary tells how round n ended with mv (a move or an agreement).
func roundSummary(n int, mv engine.Move) views.RoundSummary {
	s := views.RoundSummary{Round: n, Reason: string(mv.RoundReason), Totals: mv.Totals, Starter: engine.Nobody}
	if mv.Next != nil {
		s.Next = true
		s.Starter = mv.Next.ToMove
		s.Stores = [2]int{int(mv.Next.Store[engine.South]), int(mv.Next.Store[engine.North])}
		for _, o := range mv.Next.Owner {
			if o == engine.Nobody {
				s.Unowned++
			} else {
				s.Pits[o]++
			}
		}
	}
	return s
}

// nextRoundForm starts the next round for the player: the summary of the
// round before is no longer shown to them, and their board is playable.
func (h *handler) nextRoundForm(c echo.Context) error {
	g, seat, err := h.seated(c)
	if err != nil {
		return err
	}
	return h.answer(c, g, seat, h.startRound(c.Request().Context(), g, seat))
}

// startRound records that seat has seen the start of the current round.
func (h *handler) startRound(ctx context.Context, g *models.Game, seat engine.Side) error {
	if g.Rules != "namnam" {
		return errBadRequest
	}
	if err := checkPlaying(g); err != nil {
		return err
	}
	eg, err := replay(g)
	if err != nil {
		return fmt.Errorf("replay game %s: %w", g.ID, err)
	}
	if roundSeen(g, seat) >= eg.Round {
		return nil
	}
	if seat == engine.North {
		g.NorthRoundSeen = eg.Round
	} else {
		g.SouthRoundSeen = eg.Round
	}
	return h.save(ctx, g, nil)
}

// titleKey returns the message id of a game page's title: the Nam-nam one
// ("nn_title_game") for a Nam-nam match, else key.
func titleKey(g *models.Game, key string) string {
	if g.Rules == "namnam" {
		return "nn_" + key
	}
	return key
}
