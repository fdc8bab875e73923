package tutor

import (
	"errors"
	"strings"

	"oware/engine"
)

// illegalHint says why the engine refused to sow pit of pos under r.
func illegalHint(l Localizer, r engine.Rules, pos engine.Position, err error, pit int) string {
	lab := engine.Label(pit)
	_, rounds := r.(engine.Rounds)
	switch {
	case err == nil:
		return l.T("tut_hint_is_legal", "Label", lab)
	case errors.Is(err, engine.ErrBadPit):
		return l.T("tut_hint_bad_pit")
	case rounds && errors.Is(err, engine.ErrNotOwnPit) && pos.Owner[pit] == engine.Nobody:
		return l.T("tut_hint_nn_nobody", "Label", lab)
	case rounds && errors.Is(err, engine.ErrNotOwnPit):
		return l.T("tut_hint_nn_not_own", "Label", lab)
	case errors.Is(err, engine.ErrEndlessSowing):
		return l.T("tut_hint_endless", "Label", lab)
	case rounds && errors.Is(err, engine.ErrGameOver):
		return l.T("tut_hint_nn_round_over")
	case errors.Is(err, engine.ErrNotOwnPit):
		return l.T("tut_hint_not_own", "Label", lab)
	case errors.Is(err, engine.ErrEmptyPit):
		return l.T("tut_hint_empty", "Label", lab)
	case errors.Is(err, engine.ErrMustFeed):
		return l.T("tut_hint_must_feed", "Label", lab)
	case errors.Is(err, engine.ErrGrandSlamForbidden):
		return l.T("tut_hint_grand_slam_forbidden", "Label", lab)
	case errors.Is(err, engine.ErrGameOver):
		return l.T("tut_hint_game_over")
	}
	return err.Error()
}

// noCaptureHint says why the legal move mv from pos captured nothing for
// the mover.
func noCaptureHint(l Localizer, r engine.Rules, pos engine.Position, mv engine.Move) string {
	lab := engine.Label(mv.Pit)
	if _, rounds := r.(engine.Rounds); rounds {
		return namnamNoCaptureHint(l, pos, mv)
	}
	if len(mv.Sown) == 0 {
		return l.T("tut_hint_no_capture", "Label", lab)
	}
	last := mv.Sown[len(mv.Sown)-1]
	switch {
	case mv.GrandSlam:
		return l.T("tut_hint_grand_slam", "Label", lab)
	case engine.RowOf(last) == mv.Mover:
		return l.T("tut_hint_own_row", "Label", lab, "Last", engine.Label(last))
	}
	n := int(pos.Pits[last])
	for _, p := range mv.Sown {
		if p == last {
			n++
		}
	}
	return l.N("tut_hint_not_two_three", n, "Label", lab, "Last", engine.Label(last))
}

// moveLines describe a right move: the sowing, the captures or the grand
// slam, the seeds fed, an extra move, the end of the game.
func moveLines(l Localizer, r engine.Rules, task string, mv engine.Move, after engine.Position) []string {
	if rounds, ok := r.(engine.Rounds); ok {
		return namnamMoveLines(l, rounds, mv, after)
	}
	lab := engine.Label(mv.Pit)
	lines := []string{l.N("tut_ok_sown", len(mv.Sown), "Label", lab, "Last", engine.Label(mv.Sown[len(mv.Sown)-1]))}
	if task == "feed" {
		fed := 0
		for _, p := range mv.Sown {
			if engine.RowOf(p) != mv.Mover {
				fed++
			}
		}
		lines = append(lines, l.N("tut_ok_fed", fed))
	}
	switch {
	case mv.GrandSlam && len(mv.Captures) == 0:
		lines = append(lines, l.T("tut_ok_grand_slam_nothing"))
	case mv.GrandSlam:
		lines = append(lines, l.N("tut_ok_grand_slam_row", mv.Captured()))
	case len(mv.Captures) > 0:
		var pits []string
		for _, c := range mv.Captures {
			pits = append(pits, engine.Label(c.Pit))
		}
		lines = append(lines, l.N("tut_ok_captured", mv.Captured(), "Pits", strings.Join(pits, ", ")))
	}
	if mv.ExtraTurn && !mv.Over {
		lines = append(lines, l.T("tut_ok_extra_move"))
	}
	if mv.Over {
		key := "tut_ok_over_draw"
		switch mv.Result {
		case engine.Winner(engine.South):
			key = "tut_ok_over_south"
		case engine.Winner(engine.North):
			key = "tut_ok_over_north"
		}
		lines = append(lines, l.T(key, "South", int(after.Captured[engine.South]), "North", int(after.Captured[engine.North])))
	}
	return lines
}

// capturedBy returns the seeds the move captured for side (in Nam-nam's
// owner setting the opponent may capture during the mover's sowing).
func capturedBy(mv engine.Move, side engine.Side) int {
	n := 0
	for _, c := range mv.Captures {
		if c.By == side {
			n += c.Seeds
		}
	}
	return n
}

// capturePits lists the pits of the captures of mv made by side.
func capturePits(mv engine.Move, side engine.Side) string {
	var pits []string
	for _, c := range mv.Captures {
		if c.By == side {
			pits = append(pits, engine.Label(c.Pit))
		}
	}
	return strings.Join(pits, ", ")
}

// lastSown returns the pit the last seed of mv fell into, or -1 when the
// relay was too long to be recorded whole.
func lastSown(mv engine.Move) int {
	if len(mv.Sown) == 0 || mv.Steps > len(mv.Sown) {
		return -1
	}
	return mv.Sown[len(mv.Sown)-1]
}

// firstLap reads the first lap of the Nam-nam move mv from pos off the
// engine's record of its sowing: the lap sowed the seeds of mv.Pit, so its
// last seed fell into Sown[k-1] for k seeds. It returns that pit and, when
// the lap dropped a single seed there, the seeds it then held (its seeds
// before the move, plus that one); seeds is 0 when the lap went round the
// board into that pit more than once, where captures on the way may have
// changed it.
func firstLap(pos engine.Position, mv engine.Move) (last, seeds int) {
	k := int(pos.Pits[mv.Pit])
	last = mv.Sown[k-1]
	drops := 0
	for _, p := range mv.Sown[:k] {
		if p == last {
			drops++
		}
	}
	if drops > 1 {
		return last, 0
	}
	return last, int(pos.Pits[last]) + 1
}

// namnamNoCaptureHint says why the Nam-nam move mv from pos captured
// nothing for the mover: a relay ends only in an empty pit or with a four,
// so it ended in an empty pit; a first lap that made some other number
// than 4 went on.
func namnamNoCaptureHint(l Localizer, pos engine.Position, mv engine.Move) string {
	lab := engine.Label(mv.Pit)
	last := lastSown(mv)
	if last < 0 {
		return l.T("tut_hint_no_capture", "Label", lab)
	}
	var lines []string
	if len(mv.Lifts) > 1 {
		first, n := firstLap(pos, mv)
		if n > 0 {
			lines = append(lines, l.N("tut_hint_nn_not_four", n, "Label", lab, "Last", engine.Label(first)))
		} else {
			lines = append(lines, l.T("tut_hint_nn_not_four_round", "Label", lab, "Last", engine.Label(first)))
		}
		lines = append(lines, l.T("tut_hint_nn_relay_empty", "Last", engine.Label(last)))
	} else {
		lines = append(lines, l.T("tut_hint_nn_empty", "Label", lab, "Last", engine.Label(last)))
	}
	if n := capturedBy(mv, mv.Mover.Opponent()); n > 0 {
		lines = append(lines, l.N("tut_ok_nn_owner_took", n, "Pits", capturePits(mv, mv.Mover.Opponent())))
	}
	return strings.Join(lines, " ")
}

// namnamMoveLines describe a right Nam-nam move: the sowing and its relay,
// the fours captured and by whom, the end of the round and of the match.
func namnamMoveLines(l Localizer, r engine.Rounds, mv engine.Move, after engine.Position) []string {
	lab := engine.Label(mv.Pit)
	last := lastSown(mv)
	var lines []string
	switch {
	case last < 0:
		lines = append(lines, l.N("tut_ok_nn_long", mv.Steps, "Label", lab))
	case len(mv.Lifts) > 1:
		var lifts []string
		for _, p := range mv.Lifts[1:] {
			lifts = append(lifts, engine.Label(p))
		}
		lines = append(lines, l.N("tut_ok_nn_relay", mv.Steps, "Label", lab, "Pits", strings.Join(lifts, ", "), "Last", engine.Label(last)))
	default:
		lines = append(lines, l.N("tut_ok_sown", mv.Steps, "Label", lab, "Last", engine.Label(last)))
	}
	mine, theirs := capturedBy(mv, mv.Mover), capturedBy(mv, mv.Mover.Opponent())
	if mine > 0 {
		lines = append(lines, l.N("tut_ok_captured", mine, "Pits", capturePits(mv, mv.Mover)))
	}
	if theirs > 0 {
		lines = append(lines, l.N("tut_ok_nn_owner_took", theirs, "Pits", capturePits(mv, mv.Mover.Opponent())))
	}
	if last >= 0 && !mv.RoundOver && after.Pits[last] == 1 {
		lines = append(lines, l.T("tut_ok_nn_ends_empty", "Last", engine.Label(last)))
	}
	if !mv.RoundOver {
		return lines
	}
	totals := r.Totals(after)
	key := "tut_ok_nn_round_over_no_moves"
	if mv.RoundReason == engine.ReasonFewSeeds {
		key = "tut_ok_nn_round_over_few_seeds"
	}
	lines = append(lines, l.T(key, "South", totals[engine.South], "North", totals[engine.North]))
	// Who started this round only matters for equal totals, and then the
	// match cannot be over.
	_, over, result := r.NextRound(after, engine.South)
	switch {
	case over && result == engine.Winner(engine.South):
		lines = append(lines, l.T("tut_ok_nn_match_south", "South", totals[engine.South], "North", totals[engine.North]))
	case over:
		lines = append(lines, l.T("tut_ok_nn_match_north", "South", totals[engine.South], "North", totals[engine.North]))
	case totals[engine.North] < totals[engine.South]:
		lines = append(lines, l.T("tut_ok_nn_next_north"))
	case totals[engine.South] < totals[engine.North]:
		lines = append(lines, l.T("tut_ok_nn_next_south"))
	}
	return lines
}
