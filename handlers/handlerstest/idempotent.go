package handlerstest

import (
	"net/http"
)

// AtPly4 starts a game against the computer without JavaScript and plays
// C and D as South (each move's redirect waits for the reply): 4 plies.
// It returns the player and the game page then.
func (s *Site) AtPly4() (Seated, string) {
	s.T.Helper()
	p := s.VsComputer(nil, "en", "abapa", "1", "south")
	for _, pit := range []string{"C", "D"} {
		if code, _, _ := s.Move(p, pit, nil); code != http.StatusSeeOther {
			s.T.Fatalf("move %s: %d", pit, code)
		}
	}
	_, _, page := s.Get(p.C, p.Game)
	if got := MovesShown(page); len(got) != 4 {
		s.T.Fatalf("moves %q, want 4", got)
	}
	return p, page
}
