package tutor

import "oware/engine"

// PracticePrompt says what the practice g asks for, in the learner's
// language ("Play this position out against the computer (level 3) and
// win.").
func PracticePrompt(l Localizer, g Goal) string {
	if g.Target == TargetCapture {
		return l.N("course_practice_capture", g.N, "Level", int(g.Level))
	}
	return l.T("course_practice_"+g.Target, "Level", int(g.Level))
}

// JudgePractice judges the learner's practice game of g played from start
// to now (Goal.Met): decided once the game is over or the target reached,
// with the verdict's lines; while it is undecided, a line that says so.
func JudgePractice(l Localizer, g Goal, start, now engine.Position, over bool, result engine.Result) (met, decided bool, lines []string) {
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
		key := "tut_ok_over_draw"
		switch result {
		case engine.Winner(engine.South):
			key = "tut_ok_over_south"
		case engine.Winner(engine.North):
			key = "tut_ok_over_north"
		}
		lines = append(lines, l.T(key, "South", int(now.Captured[engine.South]), "North", int(now.Captured[engine.North])))
	}
	return met, decided, lines
}
