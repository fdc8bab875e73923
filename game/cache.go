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
// repetition history is itself alone, and how many moves and agreements
// were played before it. The steps since (the moves and agreements after
// those) are replayed from the game's moves, so the stored point has the
// same size however many steps follow it.
type resumePoint struct {
	From          state
	Moves, Agreed int
}

// newResume returns the resume point of a game at its start.
func newResume(r engine.Rules, start engine.Position) resumePoint {
	return resumePoint{From: snapshot(engine.NewGame(r, start))}
}

// note moves the resume point on past a step just played from before,
// after moves moves and agreed agreements. A step after which the
// engine's repetition history holds only the new position, and whose
// outcome does not depend on the history before it, starts a new resume
// point just before it: a capture (the engine forgets the history before
// it looks for a repetition), or a round that ended otherwise than by a
// repetition and a next one that started. Any other step stays after the
// point, which is always right: a replay from the resume point plays it
// again with the same history.
func (p *resumePoint) note(before state, mv engine.Move, agreement bool, moves, agreed int) {
	captured := !agreement && len(mv.Captures) > 0
	nextRound := mv.RoundOver && mv.Next != nil && mv.RoundReason != engine.ReasonRepetition
	if captured || nextRound {
		*p = resumePoint{From: before, Moves: moves, Agreed: agreed}
	}
}

// encode writes the resume point as stored: its position string, round,
// starter, moves in the round, and "@" with the moves and agreements
// before it, separated by spaces ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S 1 S 0 @0,0").
func (p resumePoint) encode(r engine.Rules) string {
	return r.FormatPosition(p.From.Position) + " " + strconv.Itoa(p.From.Round) + " " +
		string(p.From.Starter.Letter()) + " " + strconv.Itoa(p.From.RoundMoves) +
		" @" + strconv.Itoa(p.Moves) + "," + strconv.Itoa(p.Agreed)
}

// decodeResume reads a stored resume point of a game of the moves pits
// and the agreements agreed. A point stored before 7 December 2026 ends
// with its steps (the labels of the moves after it, "=" for an
// agreement, "CdB") instead of "@moves,agreements": the counts follow
// from them, and they must be the game's last steps.
func decodeResume(r engine.Rules, s string, pits, agreed []int) (resumePoint, error) {
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
	p := resumePoint{From: state{Position: pos, Round: round, Starter: side, RoundMoves: moves}}
	if counts, ok := strings.CutPrefix(f[4], "@"); ok {
		m, a, _ := strings.Cut(counts, ",")
		var err1, err2 error
		p.Moves, err1 = strconv.Atoi(m)
		p.Agreed, err2 = strconv.Atoi(a)
		if err1 != nil || err2 != nil || p.Moves < 0 || p.Agreed < 0 || p.Moves > len(pits) || p.Agreed > len(agreed) {
			return resumePoint{}, fmt.Errorf("bad resume point %q", s)
		}
		return p, nil
	}
	eq := strings.Count(f[4], "=")
	p.Moves, p.Agreed = len(pits)-(len(f[4])-eq), len(agreed)-eq
	if p.Moves < 0 || p.Agreed < 0 {
		return resumePoint{}, fmt.Errorf("bad resume point %q", s)
	}
	if steps, err := p.stepLabels(pits, agreed); err != nil || steps != f[4] {
		return resumePoint{}, fmt.Errorf("bad resume point %q", s)
	}
	return p, nil
}

// stepLabels returns the steps after p of the game of the moves pits and
// the agreements agreed: the labels of the moves, "=" for an agreement.
func (p resumePoint) stepLabels(pits, agreed []int) (string, error) {
	var b strings.Builder
	err := p.steps(pits, agreed, func(pit int, agreement bool) error {
		if agreement {
			b.WriteByte('=')
		} else {
			b.WriteString(engine.Label(pit))
		}
		return nil
	})
	return b.String(), err
}

// steps calls f for each step after p of the game of the moves pits and
// the agreements agreed, in the order ReplayMatch plays them (the
// agreements made after i moves come before move i+1), and returns f's
// first error; errStale when an agreement after p is out of that order.
func (p resumePoint) steps(pits, agreed []int, f func(pit int, agreement bool) error) error {
	j := p.Agreed
	for i := p.Moves; i <= len(pits); i++ {
		for ; j < len(agreed) && agreed[j] == i; j++ {
			if err := f(0, true); err != nil {
				return err
			}
		}
		if i < len(pits) {
			if err := f(pits[i], false); err != nil {
				return err
			}
		}
	}
	if j != len(agreed) {
		return errStale
	}
	return nil
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
	pits := make([]int, len(g.labels))
	var err error
	for i := range g.labels {
		if pits[i], err = engine.ParseLabel(g.labels[i : i+1]); err != nil {
			return errStale
		}
	}
	p, err := decodeResume(g.Rules, stored, pits, g.agreements)
	if err != nil {
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
		Starter: p.From.Starter, RoundMoves: p.From.RoundMoves, Moves: pits[:p.Moves], Agreements: g.agreements[:p.Agreed],
		RoundStarts: starts})
	if err != nil {
		return errStale
	}
	g.Engine, g.resume, g.Last = eg, p, nil
	err = p.steps(pits, g.agreements, func(pit int, agreement bool) error {
		var mv engine.Move
		var err error
		if agreement {
			mv, err = eg.Agree()
		} else {
			mv, err = eg.Play(pit)
		}
		g.Last = &Step{Move: mv, Agreement: agreement}
		return err
	})
	if err != nil || !slices.Equal(eg.Moves, pits) || !slices.Equal(eg.Agreements, g.agreements) || eg.Position != g.Position {
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
