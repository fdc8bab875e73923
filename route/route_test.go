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

// TestShareBuilders: the paths of issue 36, as its contract writes them.
func TestShareBuilders(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{route.BoardPicture("abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "north", "C", 600),
			"/board.png?last=C&orientation=north&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S&rules=abapa&size=600"},
		{route.BoardPicture("wari", "p", "", "", 0), "/board.png?position=p&rules=wari"},
		{route.GameGIF("g1"), "/games/g1.gif"},
		{route.GamePlyPicture("cs", "g1", 12), "/cs/games/g1/ply/12.png"},
		{route.EmbedGame("g1"), "/embed/games/g1"},
		{route.EmbedPuzzle("p1"), "/embed/puzzles/p1"},
		{route.GamePreview("it", "g1", 7), "/it/games/g1/preview.png?v=7"},
		{route.WatchPreview("en", "k1", 7), "/en/watch/k1/preview.png?v=7"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
