package handlers

// TutorialRules is tutorialRules for the tests of package handlers_test:
// the rules of a tutorial step ("abapa", "namnam fours=owner").
var TutorialRules = tutorialRules
