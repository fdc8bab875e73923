package tutor

import "oware/engine"

// PracticePrompt says what the practice g under r asks for, in the
// learner's language ("Play this position out against the computer (level
// 3) and win."; in Nam-nam, win or draw the match, RULES.md 4.7).
func PracticePrompt(l Localizer, r engine.Rules, g Goal) string {
	if g.Target == TargetCapture {
		return l.N("course_practice_capture", g.N, "Level", int(g.Level))
	}
	key := "course_practice_" + g.Target
	if _, rounds := r.(engine.Rounds); rounds {
		key += "_match"
	}
	return l.T(key, "Level", int(g.Level))
}

// JudgePractice judges the learner's practice game of g under r played
// from start to now (Goal.Met): decided once the game is over or the
// target reached, with the verdict's lines; while it is undecided, a line
// that says so. A Nam-nam match's last line gives the totals (captures
// and stores, RULES.md 4.6), an Oware game's the captures.
func JudgePractice(l Localizer, r engine.Rules, g Goal, start, now engine.Position, over bool, result engine.Result) (met, decided bool, lines []string) {
	met, decided = g.Met(start, now, over, result)
	switch {
	case met:
		lines = []string{l.T("course_practice_met")}
	case decided:
		lines = []string{l.T("course_practice_missed")}
	default:
		lines = []string{l.T("course_practice_playing")}
	}
	if over {
		prefix, seeds := "tut_ok_over_", [2]int{int(now.Captured[engine.South]), int(now.Captured[engine.North])}
		if rounds, ok := r.(engine.Rounds); ok {
			prefix, seeds = "course_practice_match_", rounds.Totals(now)
		}
		key := prefix + "draw"
		switch result {
		case engine.Winner(engine.South):
			key = prefix + "south"
		case engine.Winner(engine.North):
			key = prefix + "north"
		}
		lines = append(lines, l.T(key, "South", seeds[engine.South], "North", seeds[engine.North]))
	}
	return met, decided, lines
}
