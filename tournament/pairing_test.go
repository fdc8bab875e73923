package tournament

import (
	"reflect"
	"testing"
	"time"
)

// event replays a small Swiss event by hand: players 1..n (pairing
// numbers equal to their ids), the rounds' pairings as PairSwiss must
// make them (derived by hand from the rules in swiss.go) and their
// results.
type round struct {
	want    SwissRound
	results []Outcome // by pair
}

func playSwiss(t *testing.T, n int, rounds []round) {
	t.Helper()
	var ps []Pairing
	for r, rd := range rounds {
		players := swissPlayers(n, ps)
		got := PairSwiss(players)
		if !reflect.DeepEqual(got, rd.want) {
			t.Fatalf("round %d: pairs %v bye %d, want %v bye %d", r+1, got.Pairs, got.Bye, rd.want.Pairs, rd.want.Bye)
		}
		for i, p := range got.Pairs {
			if rd.results == nil {
				break
			}
			ps = append(ps, Pairing{Round: r + 1, South: p[0], North: p[1], Outcome: rd.results[i]})
		}
		if got.Bye != 0 {
			ps = append(ps, Pairing{Round: r + 1, South: got.Bye, Outcome: Bye})
		}
	}
}

// swissPlayers builds the players 1..n (pairing numbers equal to their
// ids) after the pairings ps.
func swissPlayers(n int, ps []Pairing) []SwissPlayer {
	ids := make([]uint, n)
	number := map[uint]int{}
	for i := range ids {
		ids[i], number[uint(i+1)] = uint(i+1), i+1
	}
	return swissField(ids, number, ps)
}

// TestSwissSix: six players over three rounds. Round 1: S1 = 1,2,3
// against S2 = 4,5,6, the higher placed South on boards 1 and 3, North on
// board 2. Round 2: 1 and 5 (1 point) meet, both last South and so both
// wanting North: the higher placed, 1, gets it; 3 and 6 (1/2) met
// already, so both float down to 2 and 4: S1 = 3,6 against S2 = 2,4
// (3-2: 3 wants North, 2 South; 6-4 both want South, 6 placed higher).
// Round 3 (5: 2; 6: 1 1/2; 1, 2: 1; 3: 1/2; 4: 0): 5 floats down to 6
// and they meet (a pair more beats every seat preference): 5, South
// twice, must be North, so 6 is South though it wanted North too; 1 (S, N)
// and 2 (N, S) each want the seat they lacked last; 3 floats down to 4,
// who (N, N) must be South.
func TestSwissSix(t *testing.T) {
	playSwiss(t, 6, []round{
		{SwissRound{Pairs: [][2]uint{{1, 4}, {5, 2}, {3, 6}}}, []Outcome{SouthWins, SouthWins, Draw}},
		{SwissRound{Pairs: [][2]uint{{5, 1}, {2, 3}, {6, 4}}}, []Outcome{SouthWins, SouthWins, SouthWins}},
		{SwissRound{Pairs: [][2]uint{{6, 5}, {1, 2}, {4, 3}}}, nil},
	})
}

// TestSwissFiveWithBye: five players. Round 1: one bracket, MaxPairs 2,
// S1 = 1,2, S2 = 3,4,5: 1-3, 2-4, 5 left over gets the bye; E.5: 1 (odd)
// South, 2 (even) North. Round 2 (1, 4, 5: 1 point; 2, 3: 0): bracket
// 1,4,5, S1 = 1, S2 = 4,5: the first transposition 1-4 has both wanting
// North (South in round 1; C.10) and floats 5, who downfloated by their
// bye (C.12); the second, 1-5, floats 4 and is perfect. Bracket 0: MDP 4,
// S2 = 2,3: 4-2 met (C.1), so 4-3; the remainder 2 is left over and gets
// the bye (not the lowest, 3: the Dutch rules give the bye to whoever is
// left in the last bracket). Seats: 1 (mild North) against 5 (none)
// North; 4 (mild North) against 3 (mild South) North.
func TestSwissFiveWithBye(t *testing.T) {
	playSwiss(t, 5, []round{
		{SwissRound{Pairs: [][2]uint{{1, 3}, {4, 2}}, Bye: 5}, []Outcome{SouthWins, SouthWins}},
		{SwissRound{Pairs: [][2]uint{{5, 1}, {3, 4}}, Bye: 2}, nil},
	})
}

// TestSwissDutchSeven: seven players (pairing numbers 1..7 by rating),
// four rounds, a bye every round, derived from C.04.3. Preferences are
// written S/N with m(ild), s(trong), a(bsolute); floats d(own)/u(p);
// faults are counted as [C.10 C.11 C.12 C.13 C.14 C.15].
//
// Round 1: one bracket of 7, MaxPairs 3, S1 = 1,2,3, S2 = 4,5,6,7: 1-4,
// 2-5, 3-6, 7 left over: bye. E.5: 1 and 3 (odd) South, 2 North.
// Results: 1 beats 4, 2 beats 5, 3-6 drawn.
//
// Round 2 (1, 2, 7: 1; 3, 6: 1/2; 4, 5: 0; 7 downfloated by the bye):
// bracket 1: S1 = 1, S2 = 2,7; 1-2 floats 7 again (C.12 fault), the
// second transposition 1-7 floats 2 and is perfect (floater history
// decides). Bracket 1/2: MDP 2, S2 = 3,6: 2-3 (no clash: 2 mS, 3 mN),
// remainder 6 floats. Bracket 0: MDP 6 (mS), S2 = 4 (mS), 5 (mN): 6-4
// would leave 5 the bye but both want South (C.10 fault); 6-5 is perfect
// and leaves 4 the bye. Boards by score: 7-1 (1 mN North), 2-3, 6-5.
// Results: 1 beats 7, 2-3 drawn, 6 beats 5.
//
// Round 3 (1: 2; 2, 6: 1 1/2; 3, 4, 7: 1; 5: 0. Preferences: 1 mS, 2 mN,
// 3 mS, 4 sS, 5 mS, 6 mN, 7 sN; floats of round 2: 2 d, 3 u, 4 d (bye),
// 5 u, 6 d): bracket 2: 1 alone floats. Bracket 1 1/2: MDP 1, S2 = 2,6:
// 1-2 floats 6 and 1-6 floats 2, each a C.12 fault (both downfloated in
// round 2): the first, 1-2, is kept. Bracket 1: MDP 6, S2 = 3,4,7: 6-3
// met (C.1), so the next transposition 6-4; remainder 3-7; perfect.
// Bracket 0: 5 alone: the bye. Seats: 1 mS South; 4 sS South against 6;
// 3 mS against 7 sN South.
// Results: 1-2 drawn, 6 beats 4, 3 beats 7.
//
// Round 4 (1, 6: 2 1/2; 2, 3: 2; 4, 5, 7: 1, who all had a bye. 1 sN,
// 6 sS, 2 sS, 3 sN, 4 mN, 5 mS, 7 mS; floats of round 3: 1 d, 2 u, 4 u,
// 5 d (bye), 6 d; of round 2: 5 u): bracket 2 1/2: 1-6, perfect (C.4:
// the rest can still be paired). Bracket 2: 2 and 3 met: both float.
// Bracket 1 (the last): 5 players, 2 pairs; only 2 or 3 can take the
// bye (C.2), so M1 = 1: S1 = 2, Limbo = 3, S2 = 4,5,7.
//
//	2-4, 5-7: [1 0 0 1 0 0] (5 and 7 both mS; 4 upfloated in round 3);
//	2-5: met; 2-7, 4-5: [1 0 0 0 0 0] (7 mS does not get it);
//
// then the exchange S1 = 3, Limbo = 2 (the same PSD):
//
//	3-4, 5-7: [2 0 0 1 0 0]; 3-5, 4-7: [0 0 0 0 0 1] (5 upfloated in
//	round 2: a C.15 fault only); 3-7: met.
//
// None perfect: the best is 3-5, 4-7, and 2 gets the bye. Seats: 6 sS
// South against 1 sN; 5 mS South against 3 sN; 7 mS South against 4 mN.
func TestSwissDutchSeven(t *testing.T) {
	playSwiss(t, 7, []round{
		{SwissRound{Pairs: [][2]uint{{1, 4}, {5, 2}, {3, 6}}, Bye: 7}, []Outcome{SouthWins, NorthWins, Draw}},
		{SwissRound{Pairs: [][2]uint{{7, 1}, {2, 3}, {6, 5}}, Bye: 4}, []Outcome{NorthWins, Draw, SouthWins}},
		{SwissRound{Pairs: [][2]uint{{1, 2}, {4, 6}, {3, 7}}, Bye: 5}, []Outcome{Draw, NorthWins, SouthWins}},
		{SwissRound{Pairs: [][2]uint{{6, 1}, {5, 3}, {7, 4}}, Bye: 2}, nil},
	})
}

// TestSwissNoRepeats: eight players, seven rounds of all draws: every
// round must pair players who have not met, so the seven rounds make a
// round robin, and no player sits on the same seat three times running.
func TestSwissNoRepeats(t *testing.T) {
	var ps []Pairing
	for r := 1; r <= 7; r++ {
		got := PairSwiss(swissPlayers(8, ps))
		if len(got.Pairs) != 4 || got.Bye != 0 {
			t.Fatalf("round %d: %v bye %d", r, got.Pairs, got.Bye)
		}
		for _, p := range got.Pairs {
			for _, q := range ps {
				if (q.South == p[0] && q.North == p[1]) || (q.South == p[1] && q.North == p[0]) {
					t.Fatalf("round %d: %d and %d meet again", r, p[0], p[1])
				}
			}
			ps = append(ps, Pairing{Round: r, South: p[0], North: p[1], Outcome: Draw})
		}
	}
	for _, p := range swissPlayers(8, ps) {
		for i := 2; i < len(p.Seats); i++ {
			if p.Seats[i] == p.Seats[i-1] && p.Seats[i] == p.Seats[i-2] {
				t.Errorf("player %d: seats %v", p.ID, p.Seats)
			}
		}
	}
}

// TestSwissStandings: player 1 beats 2 and draws with 3; 2 beats 3;
// 4 has a bye and loses to 3. Points: 1: 1.5, 2: 1, 3: 1.5, 4: 1.
// Buchholz: 1: 1 + 1.5 = 2.5; 2: 1.5 + 1.5 = 3; 3: 1.5 + 1 + 1 = 3.5;
// 4: 1.5 (the bye adds nothing). Sonneborn-Berger: 1: 1 + 1.5/2 = 1.75;
// 2: 1.5; 3: 1.5/2 + 1 = 1.75; 4: 0.
func TestSwissStandings(t *testing.T) {
	ps := []Pairing{
		{South: 1, North: 2, Outcome: SouthWins},
		{South: 3, North: 1, Outcome: Draw},
		{South: 2, North: 3, Outcome: SouthWins},
		{South: 4, Outcome: Bye},
		{South: 4, North: 3, Outcome: NorthWins},
	}
	got := SwissStandings([]uint{1, 2, 3, 4}, ps)
	want := []Standing{
		{Player: 3, Points: 1.5, Games: 3, Wins: 1, Buchholz: 3.5, SonnebornBerger: 1.75, Rank: 1},
		{Player: 1, Points: 1.5, Games: 2, Wins: 1, Buchholz: 2.5, SonnebornBerger: 1.75, Rank: 2},
		{Player: 2, Points: 1, Games: 2, Wins: 1, Buchholz: 3, SonnebornBerger: 1.5, Rank: 3},
		{Player: 4, Points: 1, Games: 1, Buchholz: 1.5, Rank: 4},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestArenaStandings: player 1 wins three games in a row (2 + 2 + 4),
// draws (1) and wins again (2): 11 points, no longer on fire; player 2
// loses to 1 twice, then beats 3 by 3's forfeit (3 made no first move).
func TestArenaStandings(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	ps := []Pairing{
		{South: 1, North: 2, Outcome: SouthWins, Ended: at(1)},
		{South: 3, North: 1, Outcome: NorthWins, Ended: at(2)},
		{South: 1, North: 2, Outcome: SouthWins, Ended: at(3)},
		{South: 3, North: 1, Outcome: Draw, Ended: at(4)},
		{South: 1, North: 3, Outcome: SouthWins, Ended: at(5)},
		{South: 3, North: 2, Outcome: NorthWins, Forfeit: 3, Ended: at(6)},
		{South: 2, North: 1, Outcome: Running},
	}
	got := ArenaStandings([]uint{1, 2, 3}, ps)
	want := []Standing{
		{Player: 1, Points: 11, Games: 5, Wins: 4, Rank: 1},
		{Player: 2, Points: 2, Games: 3, Wins: 1, Rank: 2},
		{Player: 3, Points: 1, Games: 4, Forfeits: 1, Rank: 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// Two wins in a row set a player on fire.
	fire := ArenaStandings([]uint{1, 2}, ps[:3])
	if !fire[0].Fire || fire[0].Points != 8 {
		t.Errorf("after three wins: %+v, want 8 points on fire", fire[0])
	}
}

// TestPairArena: the waiting players in the order of points (then
// rating) meet their nearest neighbour who was not their last opponent;
// the one who sat South more often takes North.
func TestPairArena(t *testing.T) {
	waiting := []ArenaPlayer{
		{ID: 1, Points: 10, Last: 2},
		{ID: 2, Points: 8, Last: 1, Balance: -1},
		{ID: 3, Points: 8, Rating: 1600, Balance: 1},
		{ID: 4, Points: 0},
		{ID: 5, Points: 0, Rating: 1400},
	}
	// Order: 1 (10), 3 (8, 1600), 2 (8), 5 (0, 1400), 4 (0).
	// 1 meets 3 (3 sat South more: North); 2 cannot meet 1 (taken anyway)
	// and meets 5; 4 waits.
	got := PairArena(waiting, false)
	want := [][2]uint{{1, 3}, {2, 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// Two players who just met wait, unless they are the only ones.
	two := []ArenaPlayer{{ID: 1, Last: 2}, {ID: 2, Last: 1}}
	if got := PairArena(two, false); len(got) != 0 {
		t.Errorf("immediate rematch %v", got)
	}
	if got := PairArena(two, true); len(got) != 1 {
		t.Errorf("the only two players: %v, want a pair", got)
	}
}
