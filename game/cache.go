package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"oware/engine"
)

// The cache of the game row (models.Game.MoveLabels, Resume, Rounds) lets
// a move rebuild the engine's game without replaying every move. The
// engine's repetition rule (RULES.md 2.6, 4.5) needs the positions since
// the last capture or the start of the round, which a Game keeps to itself
// and resets at each of them; so the row keeps a resume point: the state
// just before the last step that reset that history (a capture, or a
// round that ended and a next one that started), and the steps since.
// Replaying those few steps from there rebuilds the very same engine game
// as replaying every move from the start (Verify checks it); engine.Resume
// builds the game at the resume point and refuses (errStale here) a step
// whose outcome would need the history before it.

// state is what a resume point keeps of an engine's game besides its
// moves: the position, and the round with its starter and its moves.
type state struct {
	Position   engine.Position
	Round      int
	Starter    engine.Side
	RoundMoves int
}

// snapshot returns the state of eg.
func snapshot(eg *engine.Game) state {
	return state{Position: eg.Position, Round: eg.Round, Starter: eg.Starter, RoundMoves: eg.RoundMoves}
}

// resumePoint is where the engine's game is rebuilt from: a state whose
// repetition history is itself alone, and the steps played since (move
// labels, "=" for an agreement).
type resumePoint struct {
	From  state
	Steps string
}

// newResume returns the resume point of a game at its start.
func newResume(r engine.Rules, start engine.Position) resumePoint {
	return resumePoint{From: snapshot(engine.NewGame(r, start))}
}

// note moves the resume point on past a step just played from before. A
// step after which the engine's repetition history holds only the new
// position, and whose outcome does not depend on the history before it,
// starts a new resume point just before it: a capture (the engine forgets
// the history before it looks for a repetition), or a round that ended
// otherwise than by a repetition and a next one that started. Any other
// step is appended, which is always right: a replay from the resume point
// plays it again with the same history.
func (p *resumePoint) note(before state, mv engine.Move, agreement bool) {
	step := "="
	if !agreement {
		step = engine.Label(mv.Pit)
	}
	captured := !agreement && len(mv.Captures) > 0
	nextRound := mv.RoundOver && mv.Next != nil && mv.RoundReason != engine.ReasonRepetition
	if captured || nextRound {
		*p = resumePoint{From: before}
	}
	p.Steps += step
}

// encode writes the resume point as stored: its position string, round,
// starter, moves in the round and steps, separated by spaces
// ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S 1 S 0 CdB").
func (p resumePoint) encode(r engine.Rules) string {
	return r.FormatPosition(p.From.Position) + " " + strconv.Itoa(p.From.Round) + " " +
		string(p.From.Starter.Letter()) + " " + strconv.Itoa(p.From.RoundMoves) + " " + p.Steps
}

// decodeResume reads a stored resume point.
func decodeResume(r engine.Rules, s string) (resumePoint, error) {
	var f [5]string
	rest := s
	for i := range 4 {
		var ok bool
		if f[i], rest, ok = strings.Cut(rest, " "); !ok {
			return resumePoint{}, fmt.Errorf("bad resume point %q", s)
		}
	}
	f[4] = rest
	pos, err := r.ParsePosition(f[0])
	if err != nil {
		return resumePoint{}, err
	}
	round, err1 := strconv.Atoi(f[1])
	moves, err2 := strconv.Atoi(f[3])
	side := engine.South
	if f[2] == "N" {
		side = engine.North
	}
	if err1 != nil || err2 != nil || (f[2] != "S" && f[2] != "N") || round < 1 || moves < 0 {
		return resumePoint{}, fmt.Errorf("bad resume point %q", s)
	}
	return resumePoint{From: state{Position: pos, Round: round, Starter: side, RoundMoves: moves}, Steps: f[4]}, nil
}

// errStale: the row's cache does not describe the row (a row written
// before the cache existed, or by another writer).
var errStale = errors.New("game: the cached state is stale")

// resumeEngine builds g.Engine from the cache columns of the row it was
// read from (readRow): the moves before the resume point from the labels,
// then its steps played again. It checks that the cache agrees with the
// row (moves, agreements, position); errStale when it does not.
func (g *Game) resumeEngine(stored string) error {
	if stored == "" {
		return errStale
	}
	p, err := decodeResume(g.Rules, stored)
	if err != nil {
		return errStale
	}
	pits := make([]int, len(g.labels))
	for i := range g.labels {
		if pits[i], err = engine.ParseLabel(g.labels[i : i+1]); err != nil {
			return errStale
		}
	}
	moves := len(pits) - (len(p.Steps) - strings.Count(p.Steps, "="))
	agreed := len(g.agreements) - strings.Count(p.Steps, "=")
	if moves < 0 || agreed < 0 {
		return errStale
	}
	if g.Rounds, err = decodeRounds(g.Rules, g.roundsJSON); err != nil {
		return errStale
	}
	starts, err := roundStarts(g.Rules, g.Rounds, p.From.Round)
	if err != nil {
		return err
	}
	eg, err := engine.Resume(g.Rules, g.start, engine.State{Position: p.From.Position, Round: p.From.Round,
		Starter: p.From.Starter, RoundMoves: p.From.RoundMoves, Moves: pits[:moves], Agreements: g.agreements[:agreed],
		RoundStarts: starts})
	if err != nil {
		return errStale
	}
	g.Engine, g.resume, g.Last = eg, p, nil
	for i := range len(p.Steps) {
		var mv engine.Move
		if p.Steps[i] == '=' {
			mv, err = eg.Agree()
		} else if pit, perr := engine.ParseLabel(p.Steps[i : i+1]); perr != nil {
			err = perr
		} else {
			mv, err = eg.Play(pit)
		}
		if err != nil {
			return errStale
		}
		g.Last = &Step{Move: mv, Agreement: p.Steps[i] == '='}
	}
	if !slices.Equal(eg.Moves, pits) || !slices.Equal(eg.Agreements, g.agreements) || eg.Position != g.Position {
		return errStale
	}
	return nil
}

// roundStarts returns the starts of the rounds after the first up to
// round, which the engine keeps for the match repetition rule (RULES.md
// 4.8): the next of each round that ended before round, checked to follow
// from its settled end (RULES.md 4.6). errStale when one is missing or
// does not follow.
func roundStarts(r engine.Rules, rounds []RoundEnd, round int) ([]engine.Position, error) {
	if round <= 1 {
		return nil, nil
	}
	rr, ok := r.(engine.Rounds)
	if !ok || len(rounds) < round-1 {
		return nil, errStale
	}
	starts := make([]engine.Position, round-1)
	for i, e := range rounds[:round-1] {
		next, over, _ := rr.NextRound(e.End, e.Starter)
		if e.Next == nil || over || next != *e.Next {
			return nil, errStale
		}
		starts[i] = next
	}
	return starts, nil
}

// roundJSON is a RoundEnd as stored.
type roundJSON struct {
	Moves     int           `json:"moves"`
	Agreement bool          `json:"agreement,omitempty"`
	Reason    engine.Reason `json:"reason"`
	Totals    [2]int        `json:"totals"`
	Next      string        `json:"next,omitempty"`
	End       string        `json:"end"`
	Starter   string        `json:"starter"`
}

// encodeRounds writes the ends of a match's rounds as stored; "" for none.
func encodeRounds(r engine.Rules, rounds []RoundEnd) string {
	if len(rounds) == 0 {
		return ""
	}
	out := make([]roundJSON, len(rounds))
	for i, e := range rounds {
		out[i] = roundJSON{Moves: e.Moves, Agreement: e.Agreement, Reason: e.Reason, Totals: e.Totals,
			End: r.FormatPosition(e.End), Starter: string(e.Starter.Letter())}
		if e.Next != nil {
			out[i].Next = r.FormatPosition(*e.Next)
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// decodeRounds reads the stored ends of a match's rounds.
func decodeRounds(r engine.Rules, s string) ([]RoundEnd, error) {
	if s == "" {
		return nil, nil
	}
	var in []roundJSON
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, err
	}
	out := make([]RoundEnd, len(in))
	for i, e := range in {
		out[i] = RoundEnd{Moves: e.Moves, Agreement: e.Agreement, Reason: e.Reason, Totals: e.Totals, Starter: engine.North}
		if e.Starter == "S" {
			out[i].Starter = engine.South
		}
		end, err := r.ParsePosition(e.End)
		if err != nil {
			return nil, err
		}
		out[i].End = end
		if e.Next != "" {
			next, err := r.ParsePosition(e.Next)
			if err != nil {
				return nil, err
			}
			out[i].Next = &next
		}
	}
	return out, nil
}
