package tutor

import (
	"context"
	"strconv"

	"oware/engine"
	"oware/engine/puzzle"
)

// wrongLines say, from the position, why the legal move mv from pos
// (leaving after) does not meet g, whose accepted moves are accept: what
// it misses, and what the opponent's best capture in reply takes.
func wrongLines(l Localizer, r engine.Rules, pos engine.Position, g Goal, accept engine.Moves, mv engine.Move, after engine.Position) []string {
	lab := engine.Label(mv.Pit)
	opp := mv.Mover.Opponent()
	var lines []string
	switch g.Kind {
	case GoalCapture:
		if n := capturedBy(mv, mv.Mover); n == 0 {
			lines = append(lines, noCaptureHint(l, r, pos, mv))
		} else {
			lines = append(lines, l.N("goal_why_capture_few", n, "Label", lab, "Want", g.N))
		}
	case GoalFeed:
		lines = append(lines, l.T("goal_why_feed", "Label", lab))
	case GoalSave:
		if capturesPit(mv, opp, g.Pit) {
			lines = append(lines, l.T("goal_why_save_owner", "Label", lab, "Pit", engine.Label(g.Pit)))
		} else if reply, ok := Threat(r, after, mv.Mover, g.Pit); ok {
			lines = append(lines, l.N("goal_why_save", capturedBy(reply, opp), "Label", lab, "Reply", engine.Label(reply.Pit),
				"Pit", engine.Label(g.Pit), "Pits", capturePits(reply, opp)))
		}
		return lines
	case GoalBest:
		if vs, err := DeepValues(context.Background(), r, pos); err == nil {
			lines = append(lines, l.T("goal_why_best", "Label", lab, "Value", valueOf(vs, mv.Pit), "Best", labelList(accept),
				"BestValue", signed(vs[0].Value), "Depth", puzzle.DeepDepth))
		}
	case GoalBook:
		if vs, err := bookValues(r, pos); err == nil {
			lines = append(lines, l.T("goal_why_book", "Label", lab, "Value", valueOf(vs, mv.Pit), "Best", labelList(accept),
				"BestValue", signed(vs[0].Value)))
		}
	case GoalPlay:
		return append(lines, l.T("tut_hint_play", "Labels", labelList(accept)))
	default:
		lines = append(lines, l.T("tut_hint_other", "Label", lab))
	}
	if line := allowsLine(l, r, mv, after); line != "" {
		lines = append(lines, line)
	}
	return lines
}

// allowsLine names the opponent's reply to mv that captures the most, and
// its capture; "" when no reply captures (or the mover moves again, or the
// game is over).
func allowsLine(l Localizer, r engine.Rules, mv engine.Move, after engine.Position) string {
	opp := mv.Mover.Opponent()
	if mv.Over || mv.RoundOver || after.ToMove != opp {
		return ""
	}
	var best engine.Move
	most := 0
	for _, p := range r.LegalMoves(after).Pits() {
		if _, reply, err := r.Play(after, p); err == nil && capturedBy(reply, opp) > most {
			best, most = reply, capturedBy(reply, opp)
		}
	}
	if most == 0 {
		return ""
	}
	return l.N("goal_why_allows", most, "Label", engine.Label(mv.Pit), "Reply", engine.Label(best.Pit), "Pits", capturePits(best, opp))
}

// valueOf returns the value of pit among vs, signed ("+3").
func valueOf(vs []MoveValue, pit int) string {
	for _, v := range vs {
		if v.Pit == pit {
			return signed(v.Value)
		}
	}
	return "?"
}

// signed writes n with its sign: "+3", "0", "−2" (a minus sign).
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}
