package views

import (
	"testing"

	"oware/engine"
	"oware/play"
)

// TestComputerThinking: a player waiting for the computer reads that it
// thinks, and without JavaScript the page reloads after 3 s with its own
// note; a spectator of such a game waits as for people.
func TestComputerThinking(t *testing.T) {
	waits := gameAt(t, play.Playing, engine.NoResult, "", 0, 0, North) // South, the computer, to move
	waits.Computer = 5
	if text, class, _ := status(plain{}, waits); text != "st_computer_thinking" || class != "turn-theirs" {
		t.Errorf("status %q %q", text, class)
	}
	if r, k := waits.refresh(), waits.reloadKey(); r != 3 || k != "cp_reload_note" {
		t.Errorf("refresh %d, note %q", r, k)
	}
	watches := gameAt(t, play.Playing, engine.NoResult, "", 0, 0, engine.Nobody)
	watches.Computer = 5
	if r, k := watches.refresh(), watches.reloadKey(); r != 10 || k != "reload_note" {
		t.Errorf("a spectator: refresh %d, note %q", r, k)
	}
	plays := gameAt(t, play.Playing, engine.NoResult, "", 0, 0, South)
	plays.Computer, plays.Playable = 5, 1<<2
	if text, _, _ := status(plain{}, plays); text != "st_your_turn" || plays.refresh() != 0 {
		t.Errorf("the player to move: %q, refresh %d", text, plays.refresh())
	}
}
