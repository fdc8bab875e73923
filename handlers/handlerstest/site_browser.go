//go:build browser

package handlerstest

// ClockGame creates a game of two guests with the custom clock of
// minutes+increment (clockGameWith).
func (s *Site) ClockGame(minutes, increment string) (south, north Seated) {
	s.T.Helper()
	return s.ClockGameWith(s.Browser(), s.Browser(), minutes, increment)
}
