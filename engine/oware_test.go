package engine

import (
	"errors"
	"slices"
	"testing"
)

func mustParse(t testing.TB, r Rules, s string) Position {
	t.Helper()
	p, err := r.ParsePosition(s)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", s, err)
	}
	return p
}

func mustLabel(t testing.TB, s string) int {
	t.Helper()
	pit, err := ParseLabel(s)
	if err != nil {
		t.Fatal(err)
	}
	return pit
}

// moveCase is one move from a position, with its expected outcome derived by
// hand from RULES.md (the derivation is in the comment above each case).
type moveCase struct {
	name      string
	rules     string
	position  string
	move      string
	after     string
	captures  []Capture
	grandSlam bool
	extraTurn bool
	result    Result // NoResult: the game goes on
	reason    Reason
}

var moveCases = []moveCase{
	{
		// Seed 003: from the start South lifts the 4 seeds of pit 2 (C) and
		// sows them into pits 3, 4, 5 and 6.
		name: "sowing from pit 2", rules: "abapa",
		position: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", move: "C",
		after: "4-4-0-5-5-5-5-4-4-4-4-4-0-0-N",
	},
	{
		// 12 seeds from pit 0: pits 1..11 get one each (11 seeds), the origin
		// is skipped, the 12th seed goes to pit 1 (RULES.md 2.2). Last pit 1
		// is South's own: no capture.
		name: "origin skipped at 12 seeds", rules: "abapa",
		position: "12-0-0-0-0-0-4-4-4-4-4-4-6-6-S", move: "A",
		after: "0-2-1-1-1-1-5-5-5-5-5-5-6-6-N",
	},
	{
		// 23 seeds from pit 5: two laps give 2 to every other pit (22), the
		// 23rd goes to pit 6, which held 0 and now holds 3: captured. The pit
		// before it, 5, is South's: the chain stops at the end of North's row.
		name: "origin skipped at 23 seeds, chain stops at row end", rules: "abapa",
		position: "0-0-0-0-0-23-0-1-1-1-1-1-10-10-S", move: "F",
		after:    "2-2-2-2-2-0-0-3-3-3-3-3-13-10-N",
		captures: []Capture{{6, 3, South}},
	},
	{
		// Seed 003: South's last seed lands in pit 9 (1 -> 2), pit 8 holds 3
		// (2 -> 3): both captured, 5 seeds. Pit 7 holds 5: the chain stops.
		name: "capture chain stops at a pit that is not 2 or 3", rules: "abapa",
		position: "4-4-4-4-4-4-4-4-2-1-4-4-3-2-S", move: "F",
		after:    "4-4-4-4-4-0-5-5-0-0-4-4-8-2-N",
		captures: []Capture{{9, 2, South}, {8, 3, South}},
	},
	{
		// North sows pit 11 (2 seeds) into pits 0 and 1: pit 1 holds 2, pit 0
		// holds 3, both captured (5); the chain ends at pit 0, the start of
		// South's row.
		name: "North's chain stops at the start of South's row", rules: "abapa",
		position: "2-1-4-4-4-4-4-4-4-4-4-2-3-4-N", move: "f",
		after:    "0-0-4-4-4-4-4-4-4-4-4-0-3-9-S",
		captures: []Capture{{1, 2, North}, {0, 3, North}},
	},
	{
		// South sows pit 0 (2 seeds) into pits 1 and 2; pit 2 now holds 2 but
		// it is on South's own row: nothing is captured.
		name: "no capture on the own row", rules: "abapa",
		position: "2-0-1-4-4-4-4-4-4-4-4-4-5-4-S", move: "A",
		after: "0-1-2-4-4-4-4-4-4-4-4-4-5-4-N",
	},
	{
		// Seed 003: pit 5 holds 3; sowing 6, 7, 8 makes them 2, 3, 2 and
		// pits 9..11 are empty: the capture would take all of North's row.
		// Abapa: the move is legal and captures nothing.
		name: "grand slam, abapa", rules: "abapa",
		position: "5-5-5-5-5-3-1-2-1-0-0-0-8-8-S", move: "F",
		after: "5-5-5-5-5-0-2-3-2-0-0-0-8-8-N", grandSlam: true,
	},
	{
		// Warri: the grand slam takes all 7 seeds of North's row (South 15)
		// and South moves again; B..E can feed North, so play goes on.
		name: "grand slam, warri extra turn", rules: "warri",
		position: "5-5-5-5-5-3-1-2-1-0-0-0-8-8-S", move: "F",
		after:    "5-5-5-5-5-0-0-0-0-0-0-0-15-8-S",
		captures: []Capture{{8, 2, South}, {7, 3, South}, {6, 2, South}}, grandSlam: true, extraTurn: true,
	},
	{
		// Warri: the grand slam takes 7 (17 -> 24) and South moves again,
		// but its only seed, in pit 0, cannot reach North's row: the game
		// ends and South takes its own row (1): 25 to 23, reason cannot feed.
		// The letter stays S: South would move next.
		name: "grand slam, warri extra turn cannot feed", rules: "warri",
		position: "1-0-0-0-0-3-1-2-1-0-0-0-17-23-S", move: "F",
		after:    "0-0-0-0-0-0-0-0-0-0-0-0-25-23-S",
		captures: []Capture{{8, 2, South}, {7, 3, South}, {6, 2, South}}, grandSlam: true, extraTurn: true,
		result: SouthWins, reason: ReasonCannotFeed,
	},
	{
		// Wari: A (8 seeds, sowing 1..8) and F (3 seeds, sowing 6..8) are both
		// grand slams, so one must be played. F takes North's 7 seeds (10 ->
		// 17); North cannot move: the game ends and South also takes its own
		// row (pit 0: 8), 25 to 23.
		name: "forced grand slam, wari", rules: "wari",
		position: "8-0-0-0-0-3-1-2-1-0-0-0-10-23-S", move: "F",
		after:    "0-0-0-0-0-0-0-0-0-0-0-0-25-23-N",
		captures: []Capture{{8, 2, South}, {7, 3, South}, {6, 2, South}}, grandSlam: true,
		result: SouthWins, reason: ReasonGrandSlam,
	},
	{
		// North's row is empty; F (17) feeds: one lap gives 1 to every other
		// pit, 6 more seeds go to pits 6..11, which end holding 2 each: a
		// grand slam of 12. Abapa: nothing is captured.
		name: "feeding grand slam, abapa", rules: "abapa",
		position: "1-0-0-0-0-17-0-0-0-0-0-0-6-24-S", move: "F",
		after: "2-1-1-1-1-0-2-2-2-2-2-2-6-24-N", grandSlam: true,
	},
	{
		// Wari: F is the only move that feeds, so the grand slam is forced:
		// 12 captured (18), then South takes its own row (6): 24 to 24.
		name: "feeding grand slam, wari draw", rules: "wari",
		position: "1-0-0-0-0-17-0-0-0-0-0-0-6-24-S", move: "F",
		after:    "0-0-0-0-0-0-0-0-0-0-0-0-24-24-N",
		captures: []Capture{{11, 2, South}, {10, 2, South}, {9, 2, South}, {8, 2, South}, {7, 2, South}, {6, 2, South}}, grandSlam: true,
		result: Draw, reason: ReasonGrandSlam,
	},
	{
		// Warri: 12 captured (18), South moves again but no pit reaches North
		// (A 2, B..E 1): the game ends, South takes its row (6): 24 to 24.
		name: "feeding grand slam, warri cannot feed", rules: "warri",
		position: "1-0-0-0-0-17-0-0-0-0-0-0-6-24-S", move: "F",
		after:    "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
		captures: []Capture{{11, 2, South}, {10, 2, South}, {9, 2, South}, {8, 2, South}, {7, 2, South}, {6, 2, South}}, grandSlam: true, extraTurn: true,
		result: Draw, reason: ReasonCannotFeed,
	},
	{
		// Seed 003: South captures pits 9 (2) and 8 (3), 21 -> 26: 25 or more
		// wins at once; the seeds left on the board stay there.
		name: "25 seeds win", rules: "abapa",
		position: "0-0-0-0-0-4-4-4-2-1-0-0-21-12-S", move: "F",
		after:    "0-0-0-0-0-0-5-5-0-0-0-0-26-12-N",
		captures: []Capture{{9, 2, South}, {8, 3, South}},
		result:   SouthWins, reason: ReasonMajority,
	},
	{
		// North sows its last seed into pit 0; North's row is empty and
		// South's pits A, B, C (1 each) cannot reach it: the game ends, South
		// takes its row (3): 25 to 23.
		name: "cannot feed ends the game", rules: "abapa",
		position: "0-1-1-0-0-0-0-0-0-0-0-1-22-23-N", move: "f",
		after:  "0-0-0-0-0-0-0-0-0-0-0-0-25-23-S",
		result: SouthWins, reason: ReasonCannotFeed,
	},
	{
		// As above with 21 to 24 before: South's 3 seeds make 24 to 24.
		name: "24 to 24 is a draw", rules: "abapa",
		position: "0-1-1-0-0-0-0-0-0-0-0-1-21-24-N", move: "f",
		after:  "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
		result: Draw, reason: ReasonCannotFeed,
	},
}

func TestMoves(t *testing.T) {
	for _, c := range moveCases {
		t.Run(c.name, func(t *testing.T) {
			r, err := RulesByName(c.rules)
			if err != nil {
				t.Fatal(err)
			}
			p := mustParse(t, r, c.position)
			after, mv, err := r.Play(p, mustLabel(t, c.move))
			if err != nil {
				t.Fatalf("Play: %v", err)
			}
			if got := r.FormatPosition(after); got != c.after {
				t.Errorf("position after = %s, want %s", got, c.after)
			}
			if !slices.Equal(mv.Captures, c.captures) {
				t.Errorf("captures = %v, want %v", mv.Captures, c.captures)
			}
			if mv.GrandSlam != c.grandSlam || mv.ExtraTurn != c.extraTurn {
				t.Errorf("grand slam, extra turn = %v, %v; want %v, %v", mv.GrandSlam, mv.ExtraTurn, c.grandSlam, c.extraTurn)
			}
			if mv.Over != (c.result != NoResult) || mv.Result != c.result || mv.Reason != c.reason {
				t.Errorf("over, result, reason = %v, %v, %q; want %v, %q", mv.Over, mv.Result, mv.Reason, c.result, c.reason)
			}
		})
	}
}

func TestSownPits(t *testing.T) {
	r := Oware{}
	// Seed 003: the 4 seeds of pit 2 go into pits 3, 4, 5, 6.
	_, mv, err := r.Play(r.Start(), 2)
	if err != nil || !slices.Equal(mv.Sown, []int{3, 4, 5, 6}) {
		t.Errorf("sown = %v, %v; want [3 4 5 6]", mv.Sown, err)
	}
	// 12 seeds from pit 0: 1..11, then pit 0 is skipped and 1 gets the last.
	p := mustParse(t, r, "12-0-0-0-0-0-4-4-4-4-4-4-6-6-S")
	_, mv, _ = r.Play(p, 0)
	if want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1}; !slices.Equal(mv.Sown, want) {
		t.Errorf("sown = %v, want %v", mv.Sown, want)
	}
}

// legalCase lists the legal moves of a position, derived by hand.
type legalCase struct {
	name, rules, position, legal string
}

var legalCases = []legalCase{
	// Start: all six of South's pits.
	{"start", "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "A B C D E F"},
	{"start, North", "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N", "a b c d e f"},
	// Seed 003: North's row is empty; pit i reaches it with 6-i seeds or
	// more: A 1<6, B 2<5, C 2<4 cannot; D 3>=3, E 2>=2, F 1>=1 can.
	{"feeding", "abapa", "1-2-2-3-2-1-0-0-0-0-0-0-20-17-S", "D E F"},
	// Wari removes the grand slams D (5 seeds onto 6, 7, 8) and F; A, B, C
	// and E capture part of the row or nothing.
	{"wari removes grand slams", "wari", "5-5-5-5-5-3-1-2-1-0-0-0-8-8-S", "A B C E"},
	{"abapa keeps grand slams", "abapa", "5-5-5-5-5-3-1-2-1-0-0-0-8-8-S", "A B C D E F"},
	// Wari, after feeding: E feeds quietly, F feeds with a grand slam, A does
	// not feed.
	{"wari after feeding", "wari", "1-0-0-0-2-17-0-0-0-0-0-0-4-24-S", "E"},
	{"abapa feeding with a grand slam", "abapa", "1-0-0-0-2-17-0-0-0-0-0-0-4-24-S", "E F"},
	// Wari: only grand slams are left, so they are legal.
	{"wari forced grand slams", "wari", "8-0-0-0-0-3-1-2-1-0-0-0-10-23-S", "A F"},
	// Empty own row: no legal move.
	{"empty row", "abapa", "0-0-0-0-0-0-4-4-4-4-4-4-12-12-S", ""},
	// 25 captured: the game is over.
	{"25 captured", "abapa", "0-0-0-0-0-0-5-5-0-0-0-0-26-12-N", ""},
}

func TestLegalMoves(t *testing.T) {
	for _, c := range legalCases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := RulesByName(c.rules)
			got := r.LegalMoves(mustParse(t, r, c.position)).Labels()
			if want := fieldsOf(c.legal); !slices.Equal(got, want) {
				t.Errorf("legal = %v, want %v", got, want)
			}
		})
	}
}

func fieldsOf(s string) []string {
	var out []string
	for _, f := range slices.Collect(func(yield func(string) bool) {
		start := -1
		for i := 0; i <= len(s); i++ {
			if i == len(s) || s[i] == ' ' {
				if start >= 0 && !yield(s[start:i]) {
					return
				}
				start = -1
			} else if start < 0 {
				start = i
			}
		}
	}) {
		out = append(out, f)
	}
	return out
}

func TestIllegalMoves(t *testing.T) {
	cases := []struct {
		name, rules, position string
		pit                   int
		want                  error
	}{
		{"pit out of range", "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 12, ErrBadPit},
		{"negative pit", "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", -1, ErrBadPit},
		{"opponent's pit", "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 6, ErrNotOwnPit},
		{"South's pit on North's turn", "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N", 0, ErrNotOwnPit},
		{"empty pit", "abapa", "4-4-0-5-5-5-5-4-4-4-4-4-0-0-S", 2, ErrEmptyPit},
		{"does not feed", "abapa", "1-2-2-3-2-1-0-0-0-0-0-0-20-17-S", 0, ErrMustFeed},
		{"wari grand slam", "wari", "5-5-5-5-5-3-1-2-1-0-0-0-8-8-S", 5, ErrGrandSlamForbidden},
		{"wari feeding grand slam", "wari", "1-0-0-0-2-17-0-0-0-0-0-0-4-24-S", 5, ErrGrandSlamForbidden},
		{"game over at 25", "abapa", "0-0-0-0-0-0-5-5-0-0-0-0-26-12-N", 6, ErrGameOver},
		{"no move left", "abapa", "0-0-0-0-0-0-4-4-4-4-4-4-12-12-S", 0, ErrGameOver},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := RulesByName(c.rules)
			p := mustParse(t, r, c.position)
			after, _, err := r.Play(p, c.pit)
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
			if after != p {
				t.Errorf("position changed on an illegal move")
			}
		})
	}
}

func TestRepetition(t *testing.T) {
	// One seed each: South's at pit 5, North's at pit 11. F puts South's seed
	// into pit 6; North must feed with f (pit 6's single seed cannot reach);
	// then each player moves their single seed one pit at a time, never
	// landing on a seed, until South's is back in pit 5 and North's in pit
	// 11 with South to move: the start position comes back after 12 moves.
	// Each takes the seed on their row: 24 to 24.
	r := Oware{}
	start := mustParse(t, r, "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
	moves, _ := ParseMoves("F f A a B b C c D d E")
	g, err := ReplayGame(r, start, moves)
	if err != nil {
		t.Fatal(err)
	}
	if g.Over {
		t.Fatalf("over after 11 moves: %v", g.Reason)
	}
	mv, err := g.Play(mustLabel(t, "e"))
	if err != nil {
		t.Fatal(err)
	}
	if !mv.Over || mv.Reason != ReasonRepetition || mv.Result != Draw || mv.FinalCaptures != [2]int{1, 1} {
		t.Errorf("move = %+v, want over by repetition, draw, final captures 1 and 1", mv)
	}
	if got := r.FormatPosition(g.Position); got != "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S" {
		t.Errorf("final position %s", got)
	}
	if _, err := g.Play(5); !errors.Is(err, ErrGameOver) {
		t.Errorf("play after the end: %v, want ErrGameOver", err)
	}
	// Perft sees the same repetition: 12 plies from the start is one leaf,
	// reached by the only line of play, and the game that ended there is
	// not counted again at depth 13.
	if n := r.Perft(start, 12); n != 1 {
		t.Errorf("perft 12 = %d, want 1", n)
	}
	if n := r.Perft(start, 13); n != 0 {
		t.Errorf("perft 13 = %d, want 0 (the game ended at ply 12)", n)
	}
}

// TestCloneGoesOnAsTheOriginal: a clone taken one move before the
// repetition of TestRepetition sees it too (it kept the history), and
// playing on the clone leaves the original as it was.
func TestCloneGoesOnAsTheOriginal(t *testing.T) {
	r := Oware{}
	moves, _ := ParseMoves("F f A a B b C c D d E")
	g, err := ReplayGame(r, mustParse(t, r, "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S"), moves)
	if err != nil {
		t.Fatal(err)
	}
	c := g.Clone()
	mv, err := c.Play(mustLabel(t, "e"))
	if err != nil || !mv.Over || mv.Reason != ReasonRepetition {
		t.Fatalf("clone: move = %+v, %v; want over by repetition", mv, err)
	}
	if g.Over || len(g.Moves) != 11 || len(c.Moves) != 12 {
		t.Errorf("original changed: over %v, %d moves (clone %d)", g.Over, len(g.Moves), len(c.Moves))
	}
	// After E South's seed is back in pit 5, North's in pit 10, North to move.
	if got := r.FormatPosition(g.Position); got != "0-0-0-0-0-1-0-0-0-0-1-0-23-23-N" {
		t.Errorf("original position %s, want 0-0-0-0-0-1-0-0-0-0-1-0-23-23-N", got)
	}
}

func TestAgreementAndResignation(t *testing.T) {
	r := Oware{}
	// After C from the start: South's row 4+4+0+5+5+5 = 23, North's 25.
	g, _ := ReplayGame(r, r.Start(), []int{2})
	if _, err := g.Agree(); err != nil {
		t.Fatal(err)
	}
	if g.Result != NorthWins || g.Reason != ReasonAgreement || g.Position.Captured != [2]uint8{23, 25} {
		t.Errorf("agreement: %v %v %v", g.Result, g.Reason, g.Position.Captured)
	}
	if err := g.Resign(South); !errors.Is(err, ErrGameOver) {
		t.Errorf("resign after the end: %v", err)
	}
	g = NewGame(r, r.Start())
	if err := g.Resign(North); err != nil || g.Result != SouthWins || g.Reason != ReasonResignation {
		t.Errorf("resign: %v %v %v", err, g.Result, g.Reason)
	}
}

func TestNewGameAlreadyOver(t *testing.T) {
	r := Oware{}
	// South to move with an empty row: no legal move; North takes its 24.
	g := NewGame(r, mustParse(t, r, "0-0-0-0-0-0-4-4-4-4-4-4-12-12-S"))
	if !g.Over || g.Reason != ReasonNoMoves || g.Result != NorthWins || g.Position.Captured != [2]uint8{12, 36} {
		t.Errorf("game = over %v, %v, %v, %v", g.Over, g.Reason, g.Result, g.Position.Captured)
	}
}

func TestParsePositionErrors(t *testing.T) {
	r := Oware{}
	bad := map[string]string{
		"":                                               "empty",
		"4-4-4-4-4-4-4-4-4-4-4-4-0-S":                    "wrong length",
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-0-S":                "wrong length",
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-X":                  "unknown side",
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-s":                  "lower-case side",
		"4-4-4-4-4-4-4-4-4-4-4-5-0-0-S":                  "49 seeds",
		"4-4-4-4-4-4-4-4-4-4-4-3-0-0-S":                  "47 seeds",
		"-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S":                 "negative count",
		"4-4-4-4-4-4-4-4-4-4-4--4-0-8-S":                 "negative count inside",
		"4-4-4-4-4-4-4-4-4-4-4-4-+0-0-S":                 "sign",
		"4-4-4-4-4-4-4-4-4-4-4-4-0x0-0-S":                "not a number",
		"4-4-4-4-4-4-4-4-4-4-4-4- 0-0-S":                 "space",
		"48-0-0-0-0-0-0-0-0-0-0-0-0-999-S":               "huge count",
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-":                 "trailing dash",
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0": "Nam-nam form under Oware rules",
	}
	for s, why := range bad {
		if _, err := r.ParsePosition(s); !errors.Is(err, ErrBadPosition) {
			t.Errorf("%s (%q): err = %v, want ErrBadPosition", why, s, err)
		}
	}
	for _, s := range []string{"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "0-0-0-0-0-0-0-0-0-0-0-0-24-24-N", "48-0-0-0-0-0-0-0-0-0-0-0-0-0-S"} {
		p, err := r.ParsePosition(s)
		if err != nil || r.FormatPosition(p) != s {
			t.Errorf("round trip %q: %q, %v", s, r.FormatPosition(p), err)
		}
	}
}

func TestLabels(t *testing.T) {
	for pit, want := range []string{"A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"} {
		if got := Label(pit); got != want {
			t.Errorf("Label(%d) = %s, want %s", pit, got, want)
		}
		if got, err := ParseLabel(want); err != nil || got != pit {
			t.Errorf("ParseLabel(%s) = %d, %v", want, got, err)
		}
	}
	for _, s := range []string{"", "G", "g", "1", "AA", "é", " A"} {
		if _, err := ParseLabel(s); !errors.Is(err, ErrBadLabel) {
			t.Errorf("ParseLabel(%q) = %v, want ErrBadLabel", s, err)
		}
	}
	if got, err := ParseMoves("1. F d 2. E b"); err != nil || !slices.Equal(got, []int{5, 9, 4, 7}) {
		t.Errorf("ParseMoves = %v, %v", got, err)
	}
}

func TestRulesByName(t *testing.T) {
	for _, name := range []string{"abapa", "wari", "warri"} {
		r, err := RulesByName(name)
		if err != nil || r.Name() != name {
			t.Errorf("RulesByName(%q) = %v, %v", name, r, err)
		}
	}
	if _, err := RulesByName("oware"); !errors.Is(err, ErrBadRules) {
		t.Errorf("unknown rules: %v", err)
	}
}

// TestRuleSets: the rule sets are the three grand slam settings of RULES.md
// 2.5, the standard first, and Nam-nam (section 4); each key names its rule
// set.
func TestRuleSets(t *testing.T) {
	if got, want := RuleSets(), []string{"abapa", "wari", "warri", "namnam"}; !slices.Equal(got, want) {
		t.Errorf("RuleSets() = %q, want %q", got, want)
	}
	if got, want := OwareRuleSets(), []string{"abapa", "wari", "warri"}; !slices.Equal(got, want) {
		t.Errorf("OwareRuleSets() = %q, want %q", got, want)
	}
	for _, name := range RuleSets() {
		if r, err := RulesByName(name); err != nil || r.Name() != name {
			t.Errorf("RulesByName(%q) = %v, %v", name, r, err)
		}
	}
	RuleSets()[0] = "changed"
	if RuleSets()[0] != "abapa" {
		t.Error("a caller changed the list")
	}
}

func TestPerftGameOverIsALeafAtItsOwnDepth(t *testing.T) {
	// South to move with 23 captured; North has a seed in a and in b.
	// Ply 1: F sows into a (1 -> 2) and captures 2 (b keeps a seed: no
	// grand slam): 25, the game is over; A sows into B. Ply 2 (after A):
	// North plays a (into b) or b (into c). Ply 3: after a, South plays B
	// or F (into the empty a); after b, B or F, which makes a 2 again and
	// wins at ply 3. Ply 4: after A a B, North has only b; after A a F, a
	// and b; after A b B, a and c. So 2, 2, 4 and 5 positions at plies 1-4:
	// the games won at plies 1 and 3 are not counted again deeper.
	r := Oware{}
	p := mustParse(t, r, "1-0-0-0-0-1-1-1-0-0-0-0-23-21-S")
	for depth, want := range []uint64{1, 2, 2, 4, 5} {
		if got := r.Perft(p, depth); got != want {
			t.Errorf("perft %d = %d, want %d", depth, got, want)
		}
	}
	// A finished game has no position after it.
	over := mustParse(t, r, "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S")
	if got := r.Perft(over, 1); got != 0 {
		t.Errorf("perft 1 of a finished game = %d, want 0", got)
	}
}

func TestMoveNumbers(t *testing.T) {
	// Warri: South's grand slam F takes North's row and South moves again
	// (E, sowing F, a, b, c, d), then North plays a. Moves are numbered in
	// pairs of plies whoever played them: F is 1., E 1… and a 2.
	r := Oware{GrandSlam: Warri}
	g := NewGame(r, mustParse(t, r, "5-5-5-5-5-3-1-2-1-0-0-0-8-8-S"))
	want := []MoveNumber{{1, 1, true}, {1, 1, false}, {1, 2, true}}
	for i, label := range []string{"F", "E", "a"} {
		mv, err := g.Play(mustLabel(t, label))
		if err != nil {
			t.Fatal(err)
		}
		if mv.Number != want[i] {
			t.Errorf("%s: number %+v, want %+v", label, mv.Number, want[i])
		}
	}
	if s := []string{want[0].String(), want[1].String(), NumberMove(3, 13).String()}; s[0] != "1." || s[1] != "1…" || s[2] != "7…" {
		t.Errorf("texts %q, want 1., 1… and 7…", s)
	}
}
