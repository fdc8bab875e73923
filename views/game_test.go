package views

import (
	"strings"
	"testing"

	"oware/engine"
	"oware/play"
)

// gameAt returns a view of an abapa game in status with the captures
// south and north, seen from seat.
func gameAt(t *testing.T, status play.Status, result engine.Result, reason engine.Reason, south, north uint8, seat engine.Side) GameView {
	t.Helper()
	r, _ := engine.RulesByName("abapa")
	p := r.Start()
	p.Captured = [2]uint8{south, north}
	if status == play.Over { // the seeds not captured lie in North's pit a
		p.Pits = [engine.NumPits]uint8{6: 48 - south - north}
	}
	return GameView{Status: status, Result: result, Reason: reason, Position: p, Seat: seat, EndOffer: engine.Nobody, RematchOffer: engine.Nobody}
}

// TestStatus: the status line says whose turn it is from the viewer's
// seat and, once the game is over, the result from the viewer's side with
// the score (South's and North's captures, the viewer's first), coloured
// by class; plain's texts are the message id followed by its data.
func TestStatus(t *testing.T) {
	for _, c := range []struct {
		v                      GameView
		text, class, why, name string
	}{
		{gameAt(t, play.Waiting, engine.NoResult, "", 0, 0, South), "st_waiting_join", "waiting", "", "creator waits"},
		{gameAt(t, play.Waiting, engine.NoResult, "", 0, 0, engine.Nobody), "status_waiting_watch", "waiting", "", "spectator waits"},
		{gameAt(t, play.Playing, engine.NoResult, "", 0, 0, South), "st_your_turn", "turn-mine", "", "South to move, South sees"},
		{gameAt(t, play.Playing, engine.NoResult, "", 0, 0, North), "st_waiting_forSideside_south", "turn-theirs", "", "South to move, North sees"},
		{gameAt(t, play.Playing, engine.NoResult, "", 0, 0, engine.Nobody), "st_to_moveSideside_south", "turn-theirs", "", "spectator"},
		{gameAt(t, play.Over, engine.SouthWins, "25-seeds", 26, 22, South), "st_wonMe26Them22", "won", "gp_end_majority_noneSideside_southSeeds26", "winner"},
		{gameAt(t, play.Over, engine.SouthWins, "25-seeds", 26, 22, North), "st_lostMe22Them26", "lost", "gp_end_majority_noneSideside_southSeeds26", "loser"},
		{gameAt(t, play.Over, engine.SouthWins, "25-seeds", 26, 22, engine.Nobody), "st_side_wonSideside_southWinner26Loser22", "won", "gp_end_majority_noneSideside_southSeeds26", "spectator of a win"},
		// RULES.md 2.6: a majority leaves the other seeds on the board; the
		// other ends give each row's seeds to its owner.
		{gameAt(t, play.Over, engine.SouthWins, "25-seeds", 25, 3, North), "st_lostMe3Them25", "lost", "gp_end_majority 20 [Side side_south Seeds 25]", "a majority, 20 seeds left"},
		{gameAt(t, play.Over, engine.NorthWins, "cannot-feed", 23, 25, North), "st_wonMe25Them23", "won", "gp_end_cannot_feedSideside_south", "South cannot feed"},
		{gameAt(t, play.Over, engine.NorthWins, "resignation", 3, 0, South), "st_lost_resign", "lost", "", "South resigned"},
		{gameAt(t, play.Over, engine.NorthWins, "resignation", 3, 0, North), "st_won_resignSideside_south", "won", "", "North won by resignation"},
		{gameAt(t, play.Over, engine.NorthWins, "resignation", 3, 0, engine.Nobody), "st_side_won_resignSideside_northLoserside_south", "won", "", "spectator of a resignation"},
		{gameAt(t, play.Over, engine.Draw, "repetition", 20, 20, South), "st_draw_repetition", "draw", "gp_end_repetition", "draw by repetition"},
		{gameAt(t, play.Over, engine.Draw, "agreement", 20, 20, North), "st_draw_agreement", "draw", "gp_end_agreement", "draw by agreement"},
		{gameAt(t, play.Over, engine.Draw, "25-seeds", 24, 24, North), "st_drawSouth24North24", "draw", "reason_majority", "24 to 24"},
		// On time: no score (it was "You won by 0 to 0 · time ran out").
		{gameAt(t, play.Over, engine.NorthWins, "timeout", 0, 0, North), "st_won_time", "won", "", "North won on time"},
		{gameAt(t, play.Over, engine.NorthWins, "timeout", 0, 0, South), "st_lost_time", "lost", "", "South lost on time"},
		{gameAt(t, play.Over, engine.SouthWins, "timeout", 4, 9, engine.Nobody), "st_side_won_timeSideside_south", "won", "", "spectator of a win on time"},
	} {
		text, class, why := status(plain{}, c.v)
		if text != c.text || class != c.class || why != c.why {
			t.Errorf("%s: %q %q %q, want %q %q %q", c.name, text, class, why, c.text, c.class, c.why)
		}
	}
	// Nam-nam: the score is the match's totals, not the captures.
	v := gameAt(t, play.Over, engine.SouthWins, "cannot-fill", 2, 1, South)
	v.Match = &MatchView{Totals: [2]int{45, 3}}
	if text, _, why := status(plain{}, v); text != "st_wonMe45Them3" || why != "reason_cannot_fill" {
		t.Errorf("Nam-nam: %q %q", text, why)
	}
}

// TestRefresh: without JavaScript, a page reloads itself while its viewer
// waits for the other player, never while the viewer can act or after the
// game.
func TestRefresh(t *testing.T) {
	playable := gameAt(t, play.Playing, engine.NoResult, "", 0, 0, South)
	playable.Playable = 1 << 2
	offered := gameAt(t, play.Playing, engine.NoResult, "", 0, 0, North)
	offered.EndOffer = South
	rematch := gameAt(t, play.Over, engine.SouthWins, "resignation", 0, 0, South)
	rematch.RematchOffer = South
	for name, c := range map[string]struct {
		v    GameView
		want int
	}{
		"creator waits for the opponent": {gameAt(t, play.Waiting, engine.NoResult, "", 0, 0, South), 10},
		"the player to move":             {playable, 0},
		"the opponent waits":             {gameAt(t, play.Playing, engine.NoResult, "", 0, 0, North), 10},
		"an offer to answer":             {offered, 0},
		"a spectator":                    {gameAt(t, play.Playing, engine.NoResult, "", 0, 0, engine.Nobody), 10},
		"game over":                      {gameAt(t, play.Over, engine.SouthWins, "resignation", 0, 0, South), 0},
		"waiting for the rematch answer": {rematch, 10},
	} {
		if got := c.v.refresh(); got != c.want {
			t.Errorf("%s: %d, want %d", name, got, c.want)
		}
	}
}

// TestMoveListMarksTheLastMove: the last move of the list is marked as the
// current one, also when it opens a pair; each pair has its id (mv-N),
// where live events replace it.
func TestMoveListMarksTheLastMove(t *testing.T) {
	for moves, want := range map[string]string{
		"C d B": `<li id="mv-1">1. C d</li><li id="mv-2">2. <mark aria-current="true">B</mark></li>`,
		"C d":   `<li id="mv-1">1. C <mark aria-current="true">d</mark></li>`,
		"d":     `<li id="mv-1">1. <mark aria-current="true">d</mark></li>`, // North started: engine.NumberMove counts from the round's first move
	} {
		var b strings.Builder
		if err := moveList(movePairs(strings.Fields(moves))).Render(t.Context(), &b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s: %s, want %s", moves, b.String(), want)
		}
	}
}

// TestSeedDots: a pit draws one dot a seed up to maxSeedDots, in rows of
// 2, 3 or 4; its count is always written.
func TestSeedDots(t *testing.T) {
	for n, want := range map[int]struct {
		dots  int
		class string
	}{0: {0, "cup r2"}, 4: {4, "cup r2"}, 5: {5, "cup r3"}, 9: {9, "cup r3"}, 12: {12, "cup r4"}, 30: {12, "cup r4"}} {
		r, _ := engine.RulesByName("abapa")
		p := r.Start()
		p.Pits[0] = uint8(n)
		var b strings.Builder
		if err := Board(plain{}, p, BoardOptions{Last: -1}).Render(t.Context(), &b); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		before := html[:strings.Index(html, `<span class="label" aria-hidden="true">A</span>`)]
		cell := before[strings.LastIndex(before, `<span class="cup`):] // pit A's cup and count
		if got := strings.Count(cell, "<i></i>"); got != want.dots || !strings.HasPrefix(cell, `<span class="`+want.class+`"`) {
			t.Errorf("%d seeds: %d dots in %s", n, got, cell)
		}
		if !strings.Contains(cell, `<span class="count" aria-hidden="true">`+itoa(n)+`</span>`) {
			t.Errorf("%d seeds: no count in %s", n, cell)
		}
	}
}

// TestTimeControlLabel: whole minutes stay "5+3"; a part of a minute is
// written in seconds ("0.5+0" read as a version number).
func TestTimeControlLabel(t *testing.T) {
	for tc, want := range map[string]string{
		"5+3": "5+3", "0.5+0": "clk_control_secondsSeconds30Increment0", "1.5+2": "clk_control_min_secondsMinutes1Seconds30Increment2",
		"0.25+1": "clk_control_secondsSeconds15Increment1", "none": "clk_none", "": "clk_none",
	} {
		if got := TimeControlLabel(plain{}, tc); got != want {
			t.Errorf("%q: %q, want %q", tc, got, want)
		}
	}
}
