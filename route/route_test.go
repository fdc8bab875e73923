package route_test

import (
	"testing"

	"oware/route"
)

// TestBuilders: the builders write the paths of the site's contracts
// (the paths below are the ones links, mails and the API have always
// used), path-escaping their arguments.
func TestBuilders(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{route.Home("en"), "/en/"},
		{route.Game("cs", "abcdefghijkl"), "/cs/games/abcdefghijkl"},
		{route.GameMoves("it", "x1"), "/it/games/x1/moves"},
		{route.GameTakebackAccept("en", "x1"), "/en/games/x1/takeback/accept"},
		{route.Join("x1"), "/join/x1"},
		{route.Player("en", "a b/c"), "/en/players/a%20b%2Fc"},
		{route.TutorialStep("en", "sowing", 3), "/en/tutorials/sowing/3"},
		{route.ChallengeCancel("en", "c9"), "/en/lobby/challenges/c9/cancel"},
		{route.ResetToken("en", "tok"), "/en/password-reset/tok"},
		{route.Fill(route.VariantPattern, "abapa"), "/variants/abapa"},
		{route.Fill(route.HomePattern), "/"},
		{route.In("en", "/players/:x"), "/en/players/:x"}, // a filled path keeps a name starting with ':'
		{route.Theme(), "/theme"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
