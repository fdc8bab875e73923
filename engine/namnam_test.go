package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// namnamCase is one Nam-nam move with its outcome derived by hand from
// RULES.md section 4 (the derivation is in the comment above each case).
type namnamCase struct {
	name     string
	fours    FoursRule
	position string
	move     string
	after    string
	lifts    []int
	captures []Capture
	round    Reason // the round ends for this reason; "" = it goes on
}

var namnamCases = []namnamCase{
	{
		// A's 2 seeds go to pit 1 and to pit 2, which was empty: the move
		// ends. (North can go on: a's single seed goes to the empty pit 7.)
		name:     "relay ends in an empty pit",
		position: "2-0-0-4-4-4-1-0-4-4-4-4-9-8-S-SSSSSSNNNNNN-0-0", move: "A",
		after: "0-1-1-4-4-4-1-0-4-4-4-4-9-8-N-SSSSSSNNNNNN-0-0",
		lifts: []int{0},
	},
	{
		// A's 2 seeds: pit 1 (0 -> 1), pit 2 (1 -> 2): held 1, so its 2
		// seeds are lifted: pit 3 (0 -> 1), pit 4 (2 -> 3): held 2, lifted
		// (3 seeds): pit 5 (0 -> 1), pit 6 (1 -> 2), pit 7 (0 -> 1): was
		// empty, the move ends. Nothing is captured.
		name:     "relay through several lifts",
		position: "2-0-1-0-2-0-1-0-4-4-4-1-15-14-S-SSSSSSNNNNNN-0-0", move: "A",
		after: "0-1-0-1-0-1-2-1-4-4-4-1-15-14-N-SSSSSSNNNNNN-0-0",
		lifts: []int{0, 2, 4},
	},
	{
		// F's seed lands in pit 6, which held 3: South captures the 4.
		name:     "four on the opponent's row",
		position: "1-0-0-4-0-1-3-1-0-0-4-0-17-17-S-SSSSSSNNNNNN-0-0", move: "F",
		after:    "1-0-0-4-0-0-0-1-0-0-4-0-21-17-N-SSSSSSNNNNNN-0-0",
		lifts:    []int{5},
		captures: []Capture{{6, 4, South}},
	},
	{
		// A's seed lands in pit 1, South's own, which held 3: South
		// captures the 4 (a four is taken on any pit).
		name:     "four on the mover's own row",
		position: "1-3-0-4-0-0-0-1-0-0-4-0-17-18-S-SSSSSSNNNNNN-0-0", move: "A",
		after:    "0-0-0-4-0-0-0-1-0-0-4-0-21-18-N-SSSSSSNNNNNN-0-0",
		lifts:    []int{0},
		captures: []Capture{{1, 4, South}},
	},
	{
		// Second-round ownership: pit 10 belongs to nobody, pit 11 to South.
		// North's d (pit 9) drops its seed into pit 10, which held 3: North
		// captures the 4.
		name:     "four on a pit owned by nobody",
		position: "4-0-0-0-0-1-0-4-0-1-3-4-14-14-N-SSSSSSNNNNxS-2-1", move: "d",
		after:    "4-0-0-0-0-1-0-4-0-0-0-4-14-18-S-SSSSSSNNNNxS-2-1",
		lifts:    []int{9},
		captures: []Capture{{10, 4, North}},
	},
	{
		// fours=owner: E's 3 seeds go to pit 5 (0 -> 1), pit 6 (3 -> 4, seeds
		// still in hand: North, its owner, captures the 4) and pit 7 (0 -> 1,
		// was empty: the move ends).
		name: "owner setting: mid-sowing four to the pit's owner", fours: FoursOwner,
		position: "4-0-0-0-3-0-3-0-0-0-0-0-19-19-S-SSSSSSNNNNNN-0-0", move: "E",
		after:    "4-0-0-0-0-1-0-1-0-0-0-0-19-23-N-SSSSSSNNNNNN-0-0",
		lifts:    []int{4},
		captures: []Capture{{6, 4, North}},
	},
	{
		// The same move with fours=last: the mid-sowing four stays.
		name: "last setting: mid-sowing four stays", fours: FoursLast,
		position: "4-0-0-0-3-0-3-0-0-0-0-0-19-19-S-SSSSSSNNNNNN-0-0", move: "E",
		after: "4-0-0-0-0-1-4-1-0-0-0-0-19-19-N-SSSSSSNNNNNN-0-0",
		lifts: []int{4},
	},
	{
		// F captures pit 6 (3 + 1): South 25. Pits 0 and 7 keep 1 seed each:
		// fewer than 4 on the board, the round ends; South takes pit 0 and
		// North pit 7: 26 to 22.
		name:     "round ends with fewer than 4 seeds",
		position: "1-0-0-0-0-1-3-1-0-0-0-0-21-21-S-SSSSSSNNNNNN-0-0", move: "F",
		after:    "0-0-0-0-0-0-0-0-0-0-0-0-26-22-N-SSSSSSNNNNNN-0-0",
		lifts:    []int{5},
		captures: []Capture{{6, 4, South}},
		round:    ReasonFewSeeds,
	},
	{
		// F captures pit 6; North owns no seeds: no legal move, the round
		// ends and South takes its 5: 28 to 20.
		name:     "round ends when the next player has no move",
		position: "4-1-0-0-0-1-3-0-0-0-0-0-19-20-S-SSSSSSNNNNNN-0-0", move: "F",
		after:    "0-0-0-0-0-0-0-0-0-0-0-0-28-20-N-SSSSSSNNNNNN-0-0",
		lifts:    []int{5},
		captures: []Capture{{6, 4, South}},
		round:    ReasonNoMoves,
	},
}

func TestNamNamMoves(t *testing.T) {
	for _, c := range namnamCases {
		t.Run(c.name, func(t *testing.T) {
			r := NamNam{Fours: c.fours}
			p := mustParse(t, r, c.position)
			after, mv, err := r.Play(p, mustLabel(t, c.move))
			if err != nil {
				t.Fatalf("Play: %v", err)
			}
			if got := r.FormatPosition(after); got != c.after {
				t.Errorf("after = %s, want %s", got, c.after)
			}
			if !slices.Equal(mv.Lifts, c.lifts) {
				t.Errorf("lifts = %v, want %v", mv.Lifts, c.lifts)
			}
			if !slices.Equal(mv.Captures, c.captures) {
				t.Errorf("captures = %v, want %v", mv.Captures, c.captures)
			}
			if mv.RoundOver != (c.round != "") || mv.RoundReason != c.round {
				t.Errorf("round over %v %q, want %q", mv.RoundOver, mv.RoundReason, c.round)
			}
		})
	}
}

// endlessPosition holds a sowing that never ends: from pit A the relay runs
// through 72 laps and comes back to its first lap (no nine-seed board has a
// shorter cycle; found by exhaustive search, replayed by plainLaps below).
const endlessPosition = "2-0-1-0-1-0-1-0-1-0-2-1-19-20-S-SSSSSSNNNNNN-0-0"

// plainLaps replays a relay lap by lap, seed by seed, keeping every lap in a
// map, and returns the lap at which the first repeat happens (0 if the
// sowing ends). It is the memory-hungry way the engine must not take.
func plainLaps(pits [NumPits]int, pit int) (repeatAt, period int) {
	type state struct {
		pits       [NumPits]int
		from, hand int
	}
	s := state{pits: pits, from: pit, hand: pits[pit]}
	s.pits[pit] = 0
	seen := map[state]int{}
	for k := 0; ; k++ {
		if j, ok := seen[s]; ok {
			return k, k - j
		}
		seen[s] = k
		at := s.from
		for h := s.hand; h > 0; h-- {
			at = (at + 1) % NumPits
			s.pits[at]++
		}
		if s.pits[at] == 1 || s.pits[at] == 4 {
			return 0, 0
		}
		s.from, s.hand = at, s.pits[at]
		s.pits[at] = 0
	}
}

func TestNamNamEndlessSowing(t *testing.T) {
	r := NamNam{}
	p := mustParse(t, r, endlessPosition)
	var pits [NumPits]int
	for i, n := range p.Pits {
		pits[i] = int(n)
	}
	if at, period := plainLaps(pits, 0); at != 72 || period != 72 {
		t.Fatalf("plain replay: repeat at lap %d, period %d; want 72, 72", at, period)
	}
	if _, _, err := r.Play(p, 0); !errors.Is(err, ErrEndlessSowing) {
		t.Errorf("Play(A) = %v, want ErrEndlessSowing", err)
	}
	if r.LegalMoves(p).Has(0) {
		t.Errorf("A is listed as legal")
	}
	// C's single seed goes to the empty pit 3: legal.
	if !r.LegalMoves(p).Has(2) {
		t.Errorf("C is not listed as legal")
	}
}

func TestNamNamIllegal(t *testing.T) {
	r := NamNam{}
	p := mustParse(t, r, "4-4-4-4-4-4-4-4-4-4-0-4-0-0-N-SSSSSSNNNNxS-2-2")
	for label, want := range map[string]error{
		"f": ErrNotOwnPit, // South's pit on North's row
		"e": ErrNotOwnPit, // nobody's pit
		"A": ErrNotOwnPit,
	} {
		if _, _, err := r.Play(p, mustLabel(t, label)); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", label, err, want)
		}
	}
	p = mustParse(t, r, "4-4-4-4-4-4-0-4-4-4-4-4-4-0-N-SSSSSSNNNNNN-0-0")
	if _, _, err := r.Play(p, 6); !errors.Is(err, ErrEmptyPit) {
		t.Errorf("empty pit: %v", err)
	}
	// A position with fewer than 4 seeds on the board: the round is over.
	p = mustParse(t, r, "1-0-0-0-0-0-0-1-0-0-0-0-24-22-S-SSSSSSNNNNNN-0-0")
	if _, _, err := r.Play(p, 0); !errors.Is(err, ErrGameOver) {
		t.Errorf("round over: %v", err)
	}
	// Later rounds: South may sow the pit it won on North's row.
	p = mustParse(t, r, "4-4-4-4-4-4-4-4-4-4-0-4-0-0-S-SSSSSSNNNNxS-2-2")
	if !r.LegalMoves(p).Has(11) {
		t.Errorf("South cannot sow its pit f")
	}
}

func TestNextRound(t *testing.T) {
	r := NamNam{}
	cases := []struct {
		name, end   string
		lastStarter Side
		next        string
		over        bool
		result      Result
	}{
		// The example: South 30, North 18. North fills 6..9 (16) and
		// stores 2; South fills 0..5 (24), then North's row from the right:
		// pit 11 (4), and stores 2. Pit 10 belongs to nobody. North had
		// less: North starts.
		{"South 30, North 18", "0-0-0-0-0-0-0-0-0-0-0-0-30-18-S-SSSSSSNNNNNN-0-0", South,
			"4-4-4-4-4-4-4-4-4-4-0-4-0-0-N-SSSSSSNNNNxS-2-2", false, NoResult},
		// Stores carry over: South 24 + 3 = 27, North 19 + 2 = 21. North
		// fills 6..10 (20), stores 1; South fills its row, stores 3; pit 11
		// stays empty and belongs to nobody.
		{"stores carried over", "0-0-0-0-0-0-0-0-0-0-0-0-24-19-S-SSSSSSNNNNNN-3-2", South,
			"4-4-4-4-4-4-4-4-4-4-4-0-0-0-N-SSSSSSNNNNNx-3-1", false, NoResult},
		// Equal totals: both fill their own rows; North started the last
		// round, so South starts this one.
		{"equal totals", "0-0-0-0-0-0-0-0-0-0-0-0-24-24-N-SSSSSSNNNNNN-0-0", North,
			"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0", false, NoResult},
		// North has 3 seeds in all: it cannot fill a pit; South wins.
		{"match end", "0-0-0-0-0-0-0-0-0-0-0-0-45-1-S-SSSSSSNNNNNN-0-2", South,
			"", true, SouthWins},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			next, over, result := r.NextRound(mustParse(t, r, c.end), c.lastStarter)
			if over != c.over || result != c.result {
				t.Fatalf("over, result = %v, %v; want %v, %v", over, result, c.over, c.result)
			}
			if !over && r.FormatPosition(next) != c.next {
				t.Errorf("next = %s, want %s", r.FormatPosition(next), c.next)
			}
		})
	}
}

func TestNamNamMatch(t *testing.T) {
	r := NamNam{}
	// Four single seeds at 0, 3 (South) and 6, 9 (North). Each move steps
	// one seed into the empty pit ahead; after D d E e A a F f B b C c every
	// seed has moved 3 pits and the position comes back with South to move:
	// the round ends by repetition. 22 + 2 each: 24 to 24, so both fill
	// their rows and North, who did not start round 1, starts round 2.
	g := NewGame(r, mustParse(t, r, "1-0-0-1-0-0-1-0-0-1-0-0-22-22-S-SSSSSSNNNNNN-0-0"))
	moves, _ := ParseMoves("D d E e A a F f B b C")
	for _, pit := range moves {
		if mv, err := g.Play(pit); err != nil || mv.RoundOver {
			t.Fatalf("move %s: %v, round over %v", Label(pit), err, mv.RoundOver)
		}
	}
	mv, err := g.Play(mustLabel(t, "c"))
	if err != nil {
		t.Fatal(err)
	}
	if !mv.RoundOver || mv.RoundReason != ReasonRepetition || mv.Totals != [2]int{24, 24} || mv.Over {
		t.Fatalf("move = %+v, want the round over by repetition, 24 to 24", mv)
	}
	if got := r.FormatPosition(g.Position); got != "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N-SSSSSSNNNNNN-0-0" || g.Round != 2 || !g.BetweenRounds() {
		t.Errorf("round %d starts at %s", g.Round, got)
	}
	// Agreement between rounds ends the match: 24 to 24 is a draw.
	if mv, err := g.Agree(); err != nil || !mv.Over || g.Result != Draw || g.Reason != ReasonAgreement {
		t.Errorf("agree between rounds: %+v %v", mv, err)
	}

	// A round that leaves North with 3 seeds ends the match: F captures 4
	// (44), the round ends with 2 seeds on the board: 45 to 3.
	g = NewGame(r, mustParse(t, r, "1-0-0-0-0-1-3-1-0-0-0-0-40-2-S-SSSSSSNNNNNN-0-0"))
	mv, err = g.Play(5)
	if err != nil || !mv.RoundOver || !mv.Over || mv.Result != SouthWins || mv.Reason != ReasonCannotFill || mv.Totals != [2]int{45, 3} {
		t.Errorf("match end: %+v, %v", mv, err)
	}

	// Agreement during a round ends the round: from the start each takes
	// their 24 and round 2 starts, North first.
	g = NewGame(r, r.Start())
	if mv, err := g.Agree(); err != nil || !mv.RoundOver || mv.Over || g.Round != 2 || g.Position.ToMove != North {
		t.Errorf("agree in a round: %+v, %v, round %d", mv, err, g.Round)
	}
}

// TestRandomMatches plays whole random matches under both fours settings:
// seeds always sum to 48, no panic, every legal move plays, and every match
// ends (a bound on rounds catches one that would not; random players took up
// to about 500 rounds in trials). The rules have no repetition across
// rounds: two players who repeat themselves can play a match for ever.
func TestRandomMatches(t *testing.T) {
	matches := 20
	if testing.Short() {
		matches = 5
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, fours := range []FoursRule{FoursLast, FoursOwner} {
		r := NamNam{Fours: fours}
		for m := 0; m < matches; m++ {
			g := NewGame(r, r.Start())
			for !g.Over {
				if g.Round > 5000 {
					t.Fatalf("%s: match %d did not end (round %d)", fours, m, g.Round)
				}
				legal := g.LegalMoves().Pits()
				if len(legal) == 0 {
					t.Fatalf("%s: no legal move in %s, game not over", fours, r.FormatPosition(g.Position))
				}
				if _, err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatalf("%s: legal move refused: %v", fours, err)
				}
				p := g.Position
				if sum := p.BoardSeeds() + int(p.Captured[0]+p.Captured[1]+p.Store[0]+p.Store[1]); sum != TotalSeeds {
					t.Fatalf("%s: %d seeds in %s", fours, sum, r.FormatPosition(p))
				}
			}
		}
	}
}

func TestNamNamPerft(t *testing.T) {
	// From the start every move relays; perft 1 counts South's six pits
	// when none of them is endless (each start sowing is checked by the
	// plain replay).
	r := NamNam{}
	var pits [NumPits]int
	for i := range pits {
		pits[i] = 4
	}
	want := uint64(0)
	for pit := 0; pit < 6; pit++ {
		if at, _ := plainLaps(pits, pit); at == 0 {
			want++
		}
	}
	if got := r.Perft(r.Start(), 1); got != want {
		t.Errorf("perft 1 = %d, want %d", got, want)
	}
}

// TestPackedRelayAgrees checks the fast packed relay of the `last` setting
// against the seed-by-seed relay on positions from random matches.
func TestPackedRelayAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	r := NamNam{}
	checked, endless := 0, 0
	for m := 0; m < 5; m++ {
		g := NewGame(r, r.Start())
		for !g.Over && g.Round < 50 {
			p := g.Position
			for pit := 0; pit < NumPits; pit++ {
				if p.Pits[pit] == 0 {
					continue
				}
				_, slow, _, _ := r.relay(p, pit, nil, nil)
				if fast, _, _ := endlessLast(&p, pit, nil); fast != slow {
					t.Fatalf("%s pit %s: packed endless=%v, seed by seed %v", r.FormatPosition(p), Label(pit), fast, slow)
				}
				checked++
				if slow {
					endless++
				}
			}
			legal := g.LegalMoves().Pits()
			g.Play(legal[rng.IntN(len(legal))])
		}
	}
	if endless == 0 {
		t.Errorf("no endless sowing among %d checked: the test proves little", checked)
	}
}

func TestMatchRepetition(t *testing.T) {
	// RULES.md 4.8. From the start the players agree at once (24 each:
	// North starts round 2 with every pit back to 4). In round 2 North
	// plays a: a relay of 4, 5, 5, 6 and 6 seeds lifted from a, e, D, c
	// and C that ends in the emptied c, leaving South's row 6-6-0-1-6-6
	// (25) and North's 2-7-1-6-1-6 (23), no capture. They agree: North,
	// with less, fills a..e and stores 3; South fills A..F and stores 1; f
	// stays empty, owned by nobody; North starts round 3. North sows b's 4
	// seeds into c, d, e and the empty f, which ends the move: every seed
	// stays in a pit North owns or on North's row, so after the next
	// agreement the totals are again 25 to 23 and round 4 would start as
	// round 3 did. The match ends there: South, with more, wins.
	r := NamNam{}
	g, err := ReplayMatch(r, r.Start(), []int{6, 7}, []int{0, 1, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	round3 := "4-4-4-4-4-4-4-4-4-4-4-0-0-0-N-SSSSSSNNNNNx-1-3"
	if got := r.FormatPosition(g.roundStarts[2]); got != round3 {
		t.Errorf("round 3 starts at %s, want %s", got, round3)
	}
	if !g.Over || g.Reason != ReasonMatchRepetition || g.Result != SouthWins || g.Round != 3 {
		t.Errorf("over %v, reason %s, result %s, round %d; want over by match-repetition in round 3, south wins",
			g.Over, g.Reason, g.Result, g.Round)
	}
	if got := r.Totals(g.Position); got != [2]int{25, 23} {
		t.Errorf("totals %v, want 25 to 23", got)
	}

	// A round start whose totals refill the board the same way: South has
	// 20 (A..E) and North 28 (its row and F), South, with less, starts.
	// Ending the first round at once gives the same start: the match ends
	// before a second round, North winning 28 to 20.
	x := mustParse(t, r, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSNNNNNNN-0-0")
	g = NewGame(r, x)
	mv, err := g.Agree()
	if err != nil {
		t.Fatal(err)
	}
	if !mv.Over || mv.Reason != ReasonMatchRepetition || mv.Result != NorthWins || mv.Next != nil || g.Round != 1 {
		t.Errorf("agreement = %+v (round %d), want the match over by repetition, north wins", mv, g.Round)
	}
}

func TestApplyAgreesWithPlay(t *testing.T) {
	// Apply is Play without the record: the same position after every
	// legal move, the same end of round, the same refusals.
	for _, fours := range []FoursRule{FoursLast, FoursOwner} {
		r := NamNam{Fours: fours}
		for _, p := range randomMatchPositions(r, 3, 200, uint64(fours)+11) {
			for pit := range NumPits {
				want, mv, werr := r.Play(p, pit)
				got := p
				over, err := r.Apply(&got, pit)
				if (err != nil) != (werr != nil) || (werr == nil && (got != want || over != mv.RoundOver)) {
					t.Fatalf("%s pit %s: Apply %s %v %v, Play %s %v %v", r.FormatPosition(p), Label(pit),
						r.FormatPosition(got), over, err, r.FormatPosition(want), mv.RoundOver, werr)
				}
				if err != nil && got != p {
					t.Fatalf("%s pit %s: a refused Apply changed the position", r.FormatPosition(p), Label(pit))
				}
			}
		}
	}
}

func TestBudgetStop(t *testing.T) {
	// A stopped budget refuses every check, however large it was.
	b := NewBudget(1 << 40)
	r := NamNam{Budget: b}
	if _, _, err := r.Play(r.Start(), 0); err != nil {
		t.Fatalf("before Stop: %v", err)
	}
	b.Stop()
	if _, _, err := r.Play(r.Start(), 0); !errors.Is(err, ErrTooMuchWork) {
		t.Errorf("after Stop: %v, want ErrTooMuchWork", err)
	}
}
