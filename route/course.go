package route

import "strconv"

// The course (issue 32).
const (
	// TutorialPracticePattern starts a practice step's game against the
	// computer (POST).
	TutorialPracticePattern = TutorialStepPattern + "/practice"
)

// TutorialPractice starts the practice game of a lesson's step:
// "/{lang}/tutorials/{slug}/{step}/practice".
func TutorialPractice(lang, slug string, step int) string {
	return In(lang, TutorialPracticePattern, slug, strconv.Itoa(step))
}
