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

// TestSwissSix: six players over three rounds (after one game a
// preference is strong: s; after two with both seats mild: m; a: absolute).
// Round 1: S1 = 1,2,3 against S2 = 4,5,6; E.5: 1 and 3 (odd) South, 2
// North. Round 2 (1, 5: 1 point; 3, 6: 1/2; 2, 4: 0): 1-5 is the only
// pair of the top bracket (C.5 before seats): both sN, nothing differs in
// their seats (E.3), so the higher ranked 1 gets North (E.4); 3 and 6 met,
// so both float: MDPs 3, 6 against 2, 4: 3-2, 6-4 (6-4 both sS, and 6-2
// the same: the first is kept), 6 (higher ranked) South. Round 3 (5: 2;
// 6: 1 1/2; 1, 2: 1; 3: 1/2; 4: 0): 5 floats to 6 and they meet, both mN
// with the same seats every round: E.4, 5 North; 1 (mS) South against 2
// (mN); 3 floats down to 4, who (North twice: aS) is South.
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
// left in the last bracket). Seats: 1 (strong North) against 5 (none)
// North; 4 (strong North) against 3 (strong South) North.
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
// decides). Bracket 1/2: MDP 2, S2 = 3,6: 2-3 (no clash: 2 sS, 3 sN),
// remainder 6 floats. Bracket 0: MDP 6 (sS), S2 = 4 (sS), 5 (sN): 6-4
// would leave 5 the bye but both want South (C.10 fault); 6-5 is perfect
// and leaves 4 the bye. Boards by score: 7-1 (1 sN North), 2-3, 6-5.
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

// TestSwissDutchExchange: six players, every game drawn, so each round
// is one homogeneous bracket, S1 = 1,2,3 and S2 = 4,5,6 (BSNs 1-6).
// Round 1: 1-4, 2-5, 3-6 (E.5: 1 and 3 South, 2 North).
// Round 2 (1, 3, 5 want North, 2, 4, 6 South, all strong): of the
// transpositions of S2, 4,5,6 and 4,6,5 repeat 1-4 (C.1), 5,4,6 repeats
// 3-6, 5,6,4 and 6,4,5 are legal with two players each without their
// seat (C.10), 6,5,4 repeats 2-5: no perfect one, so the exchanges of
// D.2; the first, 3 for 4 (the sums differ by 1), S1 = 1,2,4, S2 =
// 3,5,6: 3,5,6 repeats 2-5; 3,6,5, 5,3,6 and 5,6,3 each fail two
// preferences; 6,3,5 is perfect: 1-6, 2-3, 4-5.
// Round 3 (1, 3, 5 want South, 2, 4, 6 North): no transposition is
// perfect (4,x,x repeat 1-4, 6,x,x 1-6, 5,4,6 3-6; 5,6,4 fails two
// preferences), nor are
// the exchanges in D.2 order 3<>4, 3<>5 (difference 2, the higher BSN
// out of S1 first), 2<>4, 3<>6 (difference 3); the next, 2<>5 (S1 =
// 1,3,5, S2 = 2,4,6), is perfect at its first transposition: 1-2, 3-4,
// 5-6, the higher ranked South each time.
func TestSwissDutchExchange(t *testing.T) {
	draws := []Outcome{Draw, Draw, Draw}
	playSwiss(t, 6, []round{
		{SwissRound{Pairs: [][2]uint{{1, 4}, {5, 2}, {3, 6}}}, draws},
		{SwissRound{Pairs: [][2]uint{{6, 1}, {2, 3}, {4, 5}}}, draws},
		{SwissRound{Pairs: [][2]uint{{1, 2}, {3, 4}, {5, 6}}}, nil},
	})
}

// recorded returns the next round after a recorded history of n players
// (pairing numbers equal to their ids): rounds of [South, North] pairs
// with their outcomes, and each round's bye (0 for none).
func recorded(n int, rounds [][][2]uint, outcomes [][]Outcome, byes []uint) SwissRound {
	var ps []Pairing
	for r, pairs := range rounds {
		for i, p := range pairs {
			ps = append(ps, Pairing{Round: r + 1, South: p[0], North: p[1], Outcome: outcomes[r][i]})
		}
		if byes[r] != 0 {
			ps = append(ps, Pairing{Round: r + 1, South: byes[r], Outcome: Bye})
		}
	}
	return PairSwiss(swissPlayers(n, ps))
}

// TestSwissDutchAbsoluteColour: round 3 after a recorded history of six
// players: R1 3-1 and 4-2 won by North, 5-6 drawn; R2 5-1 and 6-2 won by
// North, 3-4 drawn. 1 and 2 (2 points) both sat North twice: both must
// be South (absolute), so they may not meet (C.3) though they never met:
// MaxPairs of their bracket is 0 and both float. Bracket 1/2: MDPs 1, 2
// (aS) and residents 3 (aN), 4 (mS), 5 (aN; upfloated in R2 against 1),
// 6 (mN; upfloated in R2 against 2); M1 = 2, S1 = 1,2, S2 = 3,4,5,6:
//
//	3,x: 1-3 met; 4,3: 1-4, 2-3, but the remainder 5-6 met;
//	4,5: 1-4 (both South: C.10), 2-5, remainder 3-6 (both North: C.10)
//	and 5 upfloats again (C.13): [2 0 0 1 0 0]; 4,6: 2-6 met; 5,x: 1-5
//	met; 6,3: 1-6, 2-3, remainder 4-5: only 6 upfloats again
//	[0 0 0 1 0 0], the best; 6,4 repeats 2-4; 6,5 leaves 3-4, met.
//
// Seats: 1 (aS) South, 2 (aS) South against 3 (aN), 4 (mS) against 5
// (aN) South. (Without C.3, 1-2 would meet.)
func TestSwissDutchAbsoluteColour(t *testing.T) {
	got := recorded(6, [][][2]uint{{{3, 1}, {4, 2}, {5, 6}}, {{5, 1}, {6, 2}, {3, 4}}},
		[][]Outcome{{NorthWins, NorthWins, Draw}, {NorthWins, NorthWins, Draw}}, []uint{0, 0})
	want := SwissRound{Pairs: [][2]uint{{1, 6}, {2, 3}, {4, 5}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v bye %d, want %v", got.Pairs, got.Bye, want.Pairs)
	}
}

// TestSwissDutchColourStrength: round 3 after a recorded history of seven
// players: R1 bye 1, 2 beats 5 (2-5), 3 beats 6 (6-3), 4 beats 7 (7-4);
// R2 bye 3, 1 beats 7 (7-1), 2 beats 6 (6-2), 4 beats 5 (4-5). Bracket
// 2: 1 (one game, North: sS), 2 (S, N: mS), 3 (sS), 4 (N, S: mN), none
// met; S1 = 1,2, S2 = 3,4. Three want South for two pairs, so one C.10
// fault is unavoidable. 1-3, 2-4 denies a strong preference (C.11); 1-4,
// 2-3 denies only 2's mild one: it is taken. Seats: 1 South; 2-3 both
// want South and 3's is stronger (E.2) though 2 is ranked higher (E.4):
// 3 South. Bracket 0: 5 (aS), 6 (aN), 7 (aN): 5-6, 7 the bye.
func TestSwissDutchColourStrength(t *testing.T) {
	got := recorded(7, [][][2]uint{{{2, 5}, {6, 3}, {7, 4}}, {{7, 1}, {6, 2}, {4, 5}}},
		[][]Outcome{{SouthWins, NorthWins, NorthWins}, {NorthWins, NorthWins, SouthWins}}, []uint{1, 3})
	want := SwissRound{Pairs: [][2]uint{{1, 4}, {3, 2}, {5, 6}}, Bye: 7}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v bye %d, want %v bye %d", got.Pairs, got.Bye, want.Pairs, want.Bye)
	}
}

// TestSwissDutchColourHistory: round 4 after a recorded history of six
// players: R1 1-3 and 2-6 won by South, 4-5 drawn; R2 1-4 won by South,
// 3-2 by North, 5-6 drawn; R3 5-1 won by North, 2-4 by South, 6-3 drawn.
// 1 and 2 (3 points, never met) are the top bracket's only pair (C.5
// before seats; the rest, 3-5 and 4-6, stays pairable: C.4). Both want
// North strongly (1: S S N, 2: S N S): E.3 looks back to the last round
// where their seats differed, round 3 (1 North, 2 South), and swaps
// them: 1 South, though E.4 would give the higher ranked 1 North. 5 and
// 6 (1 point) met: both float to 3 and 4 (1/2): 5-3, 6-4 (6-3 met); 5
// must be North (N S S); 4 (S N N, absolute) beats 6's strong South
// (E.2).
func TestSwissDutchColourHistory(t *testing.T) {
	got := recorded(6, [][][2]uint{{{1, 3}, {2, 6}, {4, 5}}, {{1, 4}, {3, 2}, {5, 6}}, {{5, 1}, {2, 4}, {6, 3}}},
		[][]Outcome{{SouthWins, SouthWins, Draw}, {SouthWins, NorthWins, Draw}, {NorthWins, SouthWins, Draw}}, []uint{0, 0, 0})
	want := SwissRound{Pairs: [][2]uint{{1, 2}, {3, 5}, {4, 6}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v bye %d, want %v", got.Pairs, got.Bye, want.Pairs)
	}
}

// TestSwissDutchExchangeOrder: the exchanges of a homogeneous bracket of
// eight (S1 = BSNs 1-4, S2 = 5-8) in the order of D.2, by hand: one
// player first, by the difference of the sums (1: 4<>5; 2: 4<>6, 3<>5;
// 3: 4<>7, 3<>6, 2<>5; ...), at equal difference the highest BSN out of
// S1 first; then two players: 34<>56 (difference 4), 34<>57, 24<>56
// (5), 34<>58 before 34<>67 (6; the same out of S1, then the lowest BSN
// out of S2 first), 24<>57, 14<>56, 23<>56 (14 before 23: 4 is the
// highest different BSN). Listed as S1 after each exchange.
func TestSwissDutchExchangeOrder(t *testing.T) {
	g := make([]*sp, 8)
	for i := range g {
		g[i] = &sp{SwissPlayer: &SwissPlayer{ID: uint(i + 1), Number: i + 1}, rank: i}
	}
	want := [][]uint{{1, 2, 3, 4},
		{1, 2, 3, 5}, {1, 2, 3, 6}, {1, 2, 4, 5}, {1, 2, 3, 7}, {1, 2, 4, 6}, {1, 3, 4, 5},
		{1, 2, 3, 8}, {1, 2, 4, 7}, {1, 3, 4, 6}, {2, 3, 4, 5}, {1, 2, 4, 8}, {1, 3, 4, 7},
		{2, 3, 4, 6}, {1, 3, 4, 8}, {2, 3, 4, 7}, {2, 3, 4, 8},
		{1, 2, 5, 6}, {1, 2, 5, 7}, {1, 3, 5, 6}, {1, 2, 5, 8}, {1, 2, 6, 7}, {1, 3, 5, 7},
		{2, 3, 5, 6}, {1, 4, 5, 6}}
	var got [][]uint
	s := &swiss{}
	s.exchange(g[:4], g[4:], func(s1, _ []*sp) bool {
		var ids []uint
		for _, p := range s1 {
			ids = append(ids, p.ID)
		}
		got = append(got, ids)
		return len(got) == len(want)
	})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
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
// loses to 1 twice, then 3 makes no first move against 2: nobody scores,
// 3 forfeits.
func TestArenaStandings(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	ps := []Pairing{
		{South: 1, North: 2, Outcome: SouthWins, Ended: at(1)},
		{South: 3, North: 1, Outcome: NorthWins, Ended: at(2)},
		{South: 1, North: 2, Outcome: SouthWins, Ended: at(3)},
		{South: 3, North: 1, Outcome: Draw, Ended: at(4)},
		{South: 1, North: 3, Outcome: SouthWins, Ended: at(5)},
		{South: 3, North: 2, Outcome: Unplayed, Forfeit: 3, Ended: at(6)},
		{South: 2, North: 1, Outcome: Running},
	}
	got := ArenaStandings([]uint{1, 2, 3}, ps)
	want := []Standing{
		{Player: 1, Points: 11, Games: 5, Wins: 4, Rank: 1},
		{Player: 3, Points: 1, Games: 3, Forfeits: 1, Rank: 2},
		{Player: 2, Points: 0, Games: 2, Rank: 3},
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

// TestArenaUnplayedStandings: games over before both players moved score
// nothing and are the forfeits of who did not move or resigned; only the
// forfeiter's streak ends. Player 1 beats 2 and 3 (2 + 2, on fire); 2
// resigns before moving (1 keeps the streak); 1 beats 3 (4); 1 makes no
// first move against 3 (1's streak ends); 1 beats 2 (2): 10 points in 4
// games, not on fire. 2 and 3: no point in 2 games; 2 placed first (the
// players' order).
func TestArenaUnplayedStandings(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	ps := []Pairing{
		{South: 1, North: 2, Outcome: SouthWins, Ended: at(1)},
		{South: 3, North: 1, Outcome: NorthWins, Ended: at(2)},
		{South: 2, North: 1, Outcome: Unplayed, Forfeit: 2, Ended: at(3)},
		{South: 1, North: 3, Outcome: SouthWins, Ended: at(4)},
		{South: 1, North: 3, Outcome: Unplayed, Forfeit: 1, Ended: at(5)},
		{South: 2, North: 1, Outcome: NorthWins, Ended: at(6)},
	}
	got := ArenaStandings([]uint{1, 2, 3}, ps)
	want := []Standing{
		{Player: 1, Points: 10, Games: 4, Wins: 4, Forfeits: 1, Rank: 1},
		{Player: 2, Points: 0, Games: 2, Forfeits: 1, Rank: 2},
		{Player: 3, Points: 0, Games: 2, Rank: 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// In a Swiss event too an unplayed game scores nothing.
	sw := SwissStandings([]uint{1, 2}, []Pairing{{Round: 1, South: 1, North: 2, Outcome: Unplayed, Forfeit: 2}})
	if sw[0].Points != 0 || sw[1].Points != 0 || sw[1].Forfeits != 1 || sw[0].Games != 0 {
		t.Errorf("Swiss: %+v", sw)
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
