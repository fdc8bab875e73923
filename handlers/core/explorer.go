package core

import (
	"oware/engine"
	"oware/engine/endgame"
)

// explorerJSON is the explorer's answer, exactly.
type explorerJSON struct {
	Position string         `json:"position"` // the position string asked for
	Seeds    int            `json:"seeds"`    // the seeds on the board
	Moves    []ExplorerMove `json:"moves"`    // every legal move, best first
}

// ExplorerMove is one move of the explorer: bounds of the capture
// difference at the end of the game, from the mover's side, counting the
// captures already made, and the result they prove.
type ExplorerMove struct {
	Move   string `json:"move"`   // the pit's label
	Lo     int    `json:"lo"`     // seeds
	Hi     int    `json:"hi"`     // seeds; equal to lo when exact
	Result string `json:"result"` // win, draw, loss or unknown
}

// MoveResult is the result that bounds lo <= hi of a final capture
// difference prove for the mover.
func MoveResult(lo, hi int) string {
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

// Explored is a position the explorer looked at: its rule set, the
// position and the answer.
type Explored struct {
	Rules  engine.Oware
	Pos    engine.Position
	Parsed bool // rules and pos are set
	Out    explorerJSON
}

// Explore reads rules and position and returns the explorer's answer.
// A position the tables do not cover, or where the game is over, is a
// refusal saying so.
func (h *Handlers) Explore(rulesName, position string) (Explored, error) {
	var e Explored
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
		return e, ErrExplorerPosition
	}
	e.Rules, e.Pos, e.Parsed = o, p, true
	e.Out = explorerJSON{Position: position, Seeds: p.BoardSeeds(), Moves: []ExplorerMove{}}
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
		e.Out.Moves = append(e.Out.Moves, ExplorerMove{Move: engine.Label(m.Pit), Lo: lo, Hi: hi, Result: MoveResult(lo, hi)})
	}
	return e, nil
}

// table returns the endgame table of rules that the computer uses, or nil.
func (h *Handlers) table(rules engine.Oware) *endgame.Table {
	pool := h.Games.Computer()
	if pool == nil || pool.Tables() == nil {
		return nil
	}
	return pool.Tables().Table(rules)
}
