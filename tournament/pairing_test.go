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

// swissPlayers builds the players 1..n after the pairings ps.
func swissPlayers(n int, ps []Pairing) []SwissPlayer {
	ids := make([]uint, n)
	for i := range ids {
		ids[i] = uint(i + 1)
	}
	points := map[uint]float64{}
	for _, s := range SwissStandings(ids, ps) {
		points[s.Player] = s.Points
	}
	out := make([]SwissPlayer, n)
	for i, id := range ids {
		out[i] = SwissPlayer{ID: id, Number: i + 1, Points: points[id]}
		for _, p := range ps {
			switch {
			case p.Outcome == Bye && p.South == id:
				out[i].HadBye = true
			case p.South == id:
				out[i].Opponents, out[i].Seats = append(out[i].Opponents, p.North), append(out[i].Seats, 1)
			case p.North == id:
				out[i].Opponents, out[i].Seats = append(out[i].Opponents, p.South), append(out[i].Seats, -1)
			}
		}
	}
	return out
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

// TestSwissFiveWithBye: five players. Round 1: the bye to the lowest, 5;
// 1-3 and 4-2. Round 2 (1, 4, 5: 1 point; 2, 3: 0): the bye to the
// lowest without one, 3; in the 1-point group 5 floats down to 2; 1 and 4
// both want North (South in round 1), the higher placed 1 gets it; 2
// (North) takes South against 5, who has no preference.
func TestSwissFiveWithBye(t *testing.T) {
	playSwiss(t, 5, []round{
		{SwissRound{Pairs: [][2]uint{{1, 3}, {4, 2}}, Bye: 5}, []Outcome{SouthWins, SouthWins}},
		{SwissRound{Pairs: [][2]uint{{4, 1}, {2, 5}}, Bye: 3}, nil},
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
