package engine

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestResumeAtTheStartOfARound: a game resumed where its history is the
// position alone sees the repetitions a replay sees. The Oware game of
// TestRepetition resumed at its start ends by repetition after the same
// 12 moves; the Nam-nam match of TestMatchRepetition resumed at the start
// of round 3 (after A and two agreements; round 2 started as the game did
// but with North to move) ends by match repetition after b and an
// agreement, South winning.
func TestResumeAtTheStartOfARound(t *testing.T) {
	r := Oware{}
	start := mustParse(t, r, "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
	g, err := Resume(r, start, State{Position: start, Round: 1, Starter: South})
	if err != nil {
		t.Fatal(err)
	}
	moves, _ := ParseMoves("F f A a B b C c D d E e")
	for _, pit := range moves {
		if _, err := g.Play(pit); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Over || g.Reason != ReasonRepetition || g.Result != Draw {
		t.Errorf("over %v by %s, %s; want over by repetition, a draw", g.Over, g.Reason, g.Result)
	}

	n := NamNam{}
	round2 := n.Start()
	round2.ToMove = North
	round3 := mustParse(t, n, "4-4-4-4-4-4-4-4-4-4-4-0-0-0-N-SSSSSSNNNNNx-1-3")
	m, err := Resume(n, n.Start(), State{Position: round3, Round: 3, Starter: North,
		Moves: []int{6}, Agreements: []int{0, 1}, RoundStarts: []Position{round2, round3}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Play(mustLabel(t, "b")); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Agree(); err != nil {
		t.Fatal(err)
	}
	if !m.Over || m.Reason != ReasonMatchRepetition || m.Result != SouthWins || m.Round != 3 {
		t.Errorf("over %v by %s, %s in round %d; want over by match-repetition, south wins in round 3",
			m.Over, m.Reason, m.Result, m.Round)
	}
}

// TestResumeRefusesAMoveThatNeedsTheHistory: the game of TestRepetition
// resumed after F f A (North to move, no capture yet) cannot tell whether
// a move brings back a position of before: it refuses a, which captures
// nothing, and stays as it was.
func TestResumeRefusesAMoveThatNeedsTheHistory(t *testing.T) {
	r := Oware{}
	start := mustParse(t, r, "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
	moves, _ := ParseMoves("F f A")
	at := mustParse(t, r, "1-0-0-0-0-0-0-1-0-0-0-0-23-23-N")
	g, err := Resume(r, start, State{Position: at, Round: 1, Starter: South, RoundMoves: 3, Moves: moves})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play(mustLabel(t, "b")); !errors.Is(err, ErrNoHistory) {
		t.Fatalf("b after a resume mid-round: %v, want ErrNoHistory", err)
	}
	if g.Position != at || len(g.Moves) != 3 || g.RoundMoves != 3 {
		t.Errorf("the game changed: %s, %d moves", r.FormatPosition(g.Position), len(g.Moves))
	}
	// An agreement needs no history: it ends the game, 24 to 24.
	if mv, err := g.Agree(); err != nil || mv.Result != Draw {
		t.Errorf("agreement: %+v, %v; want a draw", mv, err)
	}
}

// TestResumeRejectsBadStates: each state no game can reach is an error
// wrapping ErrBadState, never a game and never a panic.
func TestResumeRejectsBadStates(t *testing.T) {
	r := Oware{}
	start := r.Start()
	afterF := mustParse(t, r, "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N") // F sows 6..9
	n := NamNam{}
	round2 := n.Start()
	round2.ToMove = North
	for _, c := range []struct {
		name  string
		rules Rules
		s     State
	}{
		{"round 0", r, State{Position: start, Round: 0, Starter: South}},
		{"round 2 of Oware", r, State{Position: start, Round: 2, Starter: South, RoundStarts: []Position{start}}},
		{"more moves in the round than played", r, State{Position: afterF, Round: 1, Starter: South, RoundMoves: 2, Moves: []int{5}}},
		{"fewer moves in round 1 than played", r, State{Position: afterF, Round: 1, Starter: South, RoundMoves: 0, Moves: []int{5}}},
		{"wrong player to move", r, State{Position: start, Round: 1, Starter: South, RoundMoves: 1, Moves: []int{5}}},
		{"wrong starter", r, State{Position: afterF, Round: 1, Starter: North, RoundMoves: 1, Moves: []int{5}}},
		{"no such pit", r, State{Position: afterF, Round: 1, Starter: South, RoundMoves: 1, Moves: []int{12}}},
		{"an agreement in Oware", r, State{Position: afterF, Round: 1, Starter: South, RoundMoves: 1, Moves: []int{5}, Agreements: []int{1}}},
		{"no legal move", r, State{Position: mustParse(t, r, "0-0-0-0-0-0-0-0-0-0-0-1-23-24-S"), Round: 1, Starter: North, RoundMoves: 1, Moves: []int{5}}},
		{"a position of no game", r, State{Position: Position{ToMove: 7}, Round: 1, Starter: South, RoundMoves: 1, Moves: []int{5}}},
		{"round starts missing", n, State{Position: round2, Round: 2, Starter: North, Agreements: []int{0}}},
		{"a round starting as the first", n, State{Position: n.Start(), Round: 2, Starter: South, Agreements: []int{0}, RoundStarts: []Position{n.Start()}}},
		{"a round starting elsewhere", n, State{Position: n.Start(), Round: 2, Starter: North, Agreements: []int{0}, RoundStarts: []Position{round2}}},
		{"agreements out of order", n, State{Position: round2, Round: 3, Starter: North, Moves: []int{6}, Agreements: []int{1, 0}, RoundStarts: []Position{round2, round2}}},
	} {
		start := c.rules.Start()
		if g, err := Resume(c.rules, start, c.s); !errors.Is(err, ErrBadState) || g != nil {
			t.Errorf("%s: %v, %v; want ErrBadState", c.name, g, err)
		}
	}
}

// TestResumeGoesOnAsTheReplay: in random games of every rule set, a game
// resumed at each round's start or just before each step that forgets the
// history (a capture; the end of a round by other than repetition, by a
// move or an agreement, and the start of the next), and played on from
// there, is the game replayed from the start.
func TestResumeGoesOnAsTheReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 26))
	resumed := 0
	for _, r := range []Rules{Oware{}, Oware{GrandSlam: Wari}, NamNam{}, NamNam{Fours: FoursOwner}} {
		for range 6 {
			moves, agreements := randomMatch(r, rng)
			want, err := ReplayMatch(r, r.Start(), moves, agreements, nil)
			if err != nil {
				t.Fatal(err)
			}
			var steps []func(g *Game) error
			_, err = ReplayMatch(r, r.Start(), moves, agreements, func(g *Game, mv Move, agreed bool) {
				pit := g.Moves[len(g.Moves)-1]
				if agreed {
					steps = append(steps, func(g *Game) error { _, err := g.Agree(); return err })
				} else {
					steps = append(steps, func(g *Game) error { _, err := g.Play(pit); return err })
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			states, starts := resumePoints(r, moves, agreements)
			for i, s := range states {
				g, err := Resume(r, r.Start(), s)
				if err != nil {
					t.Fatalf("%s: resume before step %d: %v", r.Name(), starts[i], err)
				}
				for k, step := range steps[starts[i]:] {
					if err := step(g); err != nil {
						t.Fatalf("%s: resumed before step %d, step %d: %v", r.Name(), starts[i], starts[i]+k, err)
					}
				}
				if !reflect.DeepEqual(g, want) {
					t.Fatalf("%s: resumed before step %d, the game differs from the replay:\n%+v\n%+v", r.Name(), starts[i], g, want)
				}
				resumed++
			}
		}
	}
	if resumed < 100 {
		t.Errorf("only %d games resumed: the test proves little", resumed)
	}
}

// randomMatch plays a random game of r to its end (or 300 moves) with an
// agreement now and then in Nam-nam, and returns its moves and agreements.
func randomMatch(r Rules, rng *rand.Rand) (moves, agreements []int) {
	g := NewGame(r, r.Start())
	_, rounds := r.(Rounds)
	for !g.Over && len(g.Moves) < 300 {
		if rounds && rng.IntN(30) == 0 {
			g.Agree()
			continue
		}
		legal := g.LegalMoves().Pits()
		g.Play(legal[rng.IntN(len(legal))])
	}
	return g.Moves, g.Agreements
}

// resumePoints replays a match and returns the states of
// TestResumeGoesOnAsTheReplay, with the index of the step each is before.
func resumePoints(r Rules, moves, agreements []int) ([]State, []int) {
	var states []State
	var at []int
	state := func(g *Game) State {
		return State{Position: g.Position, Round: g.Round, Starter: g.Starter, RoundMoves: g.RoundMoves,
			Moves: slices.Clone(g.Moves), Agreements: slices.Clone(g.Agreements), RoundStarts: slices.Clone(g.roundStarts[min(1, len(g.roundStarts)):])}
	}
	g := NewGame(r, r.Start())
	before, step := state(g), 0
	ReplayMatch(r, r.Start(), moves, agreements, func(eg *Game, mv Move, agreed bool) {
		nextRound := mv.Next != nil && mv.RoundReason != ReasonRepetition
		if !agreed && len(mv.Captures) > 0 || nextRound || before.RoundMoves == 0 {
			states, at = append(states, before), append(at, step)
		}
		before, step = state(eg), step+1
	})
	return states, at
}
