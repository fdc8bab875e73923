package tournament

import (
	"cmp"
	"slices"
	"time"
)

// Outcome is how a pairing ended, from South's side.
type Outcome int

// The outcomes of a pairing.
const (
	Running Outcome = iota // not over yet
	SouthWins
	NorthWins
	Draw
	Void // no result: counts for nobody (a game never made, an abort after both moved)
	// Unplayed is a game that ended before both players had moved (an
	// abort, a resignation at ply 0 or 1, a first move that never came):
	// no points for anybody, a forfeit for Forfeit.
	Unplayed
	Bye // a Swiss bye: South gets a win's point
	// HalfBye is a Swiss round South missed by joining late: half a point
	// (not a game; it neither counts as a bye nor adds to a tie-break).
	HalfBye
)

// Pairing is a pairing as the pure code sees it (models.TournamentGame
// read with its game): the players by account, North 0 for a bye.
type Pairing struct {
	Round        int
	South, North uint
	Outcome      Outcome
	// Forfeit is the player charged with an Unplayed game: who resigned
	// or left it, else who was to move and did not; 0 for none.
	Forfeit uint
	// Ended orders the pairings that are over, as they ended.
	Ended time.Time
	Seq   uint
}

// Over reports whether p's result is known.
func (p Pairing) Over() bool { return p.Outcome != Running }

// score returns what the pairing gave player id: won, drew or lost, and
// whether it counts as a game they played (a bye and a void game do not).
func (p Pairing) score(id uint) (win, draw, played bool) {
	switch p.Outcome {
	case Bye:
		return true, false, false
	case HalfBye:
		return false, true, false
	case Draw:
		return false, true, true
	case SouthWins:
		return id == p.South, false, true
	case NorthWins:
		return id == p.North, false, true
	}
	return false, false, false
}

// opponent returns id's opponent in p (0 for a bye).
func (p Pairing) opponent(id uint) uint {
	if id == p.South {
		return p.North
	}
	return p.South
}

// Standing is a player's line of the standings.
type Standing struct {
	Player uint
	// Points: an arena's points (2 a win, 4 on fire, 1 a draw) or a Swiss
	// event's (1 a win or a bye, 1/2 a draw).
	Points float64
	// Games counts the games finished (byes and void games not).
	Games int
	// Wins counts the games won; Fire: the arena player's last two games
	// were wins, so the next win scores double.
	Wins int
	Fire bool
	// Buchholz and SonnebornBerger are a Swiss event's tie-breaks.
	Buchholz, SonnebornBerger float64
	// Forfeits counts the games lost by not making a first move.
	Forfeits int
	// Rank is 1 for the first (players with equal points and tie-breaks
	// share no rank: the order is total).
	Rank int
}

// over returns the finished pairings in the order they ended.
func over(ps []Pairing) []Pairing {
	var out []Pairing
	for _, p := range ps {
		if p.Over() {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b Pairing) int {
		if c := a.Ended.Compare(b.Ended); c != 0 {
			return c
		}
		return cmp.Compare(a.Seq, b.Seq)
	})
	return out
}

// ArenaStandings counts the standings of an arena from its pairings:
// 2 points a win, 1 a draw, 0 a loss; after two wins in a row each win
// scores 4 until a game that is not a win (a draw scores 1 and ends the
// streak). An Unplayed game scores nothing, counts as a forfeit of its
// Forfeit and ends that player's streak (a streak is of games played).
// players lists every player (also those without a game), in the order
// ties are broken last (e.g. by rating).
func ArenaStandings(players []uint, ps []Pairing) []Standing {
	st, idx := newStandings(players)
	streak := map[uint]int{}
	for _, p := range over(ps) {
		for _, id := range []uint{p.South, p.North} {
			s := at(st, idx, id)
			if s == nil {
				continue
			}
			if p.Forfeit == id {
				s.Forfeits++
				streak[id] = 0
			}
			win, draw, played := p.score(id)
			if !played {
				continue
			}
			s.Games++
			switch {
			case win:
				s.Wins++
				s.Points += 2
				if streak[id] >= 2 {
					s.Points += 2
				}
				streak[id]++
			case draw:
				s.Points++
				streak[id] = 0
			default:
				streak[id] = 0
			}
		}
	}
	for _, s := range st {
		s.Fire = streak[s.Player] >= 2
	}
	return rank(st, func(a, b *Standing) int {
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		return cmp.Compare(a.Games, b.Games) // the same points in fewer games first
	})
}

// SwissStandings counts the standings of a Swiss event: 1 point a win or
// a bye, 1/2 a draw or a round missed by joining late, none an Unplayed
// game (a forfeit of its Forfeit); tie-breaks Buchholz (the sum of the opponents'
// points) and Sonneborn-Berger (the points of the opponents beaten, and
// half those of the opponents drawn with); a bye adds to neither.
// players lists every player in their pairing order (the last tie-break).
func SwissStandings(players []uint, ps []Pairing) []Standing {
	st, idx := newStandings(players)
	for _, p := range ps {
		for _, id := range []uint{p.South, p.North} {
			if s := at(st, idx, id); s != nil {
				win, draw, played := p.score(id)
				switch {
				case win:
					s.Points++
				case draw:
					s.Points += 0.5
				}
				if win && played {
					s.Wins++
				}
				if played {
					s.Games++
				}
				if p.Forfeit == id {
					s.Forfeits++
				}
			}
		}
	}
	for _, p := range ps {
		for _, id := range []uint{p.South, p.North} {
			s, o := at(st, idx, id), at(st, idx, p.opponent(id))
			if s == nil || o == nil {
				continue
			}
			win, draw, played := p.score(id)
			if !played {
				continue
			}
			s.Buchholz += o.Points
			switch {
			case win:
				s.SonnebornBerger += o.Points
			case draw:
				s.SonnebornBerger += o.Points / 2
			}
		}
	}
	return rank(st, func(a, b *Standing) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Buchholz, a.Buchholz),
			cmp.Compare(b.SonnebornBerger, a.SonnebornBerger))
	})
}

// newStandings returns an empty line per player and each player's index.
func newStandings(players []uint) ([]*Standing, map[uint]int) {
	st := make([]*Standing, len(players))
	idx := make(map[uint]int, len(players))
	for i, id := range players {
		st[i], idx[id] = &Standing{Player: id}, i
	}
	return st, idx
}

// at returns player id's line, nil for none (0, a bye's North).
func at(st []*Standing, idx map[uint]int, id uint) *Standing {
	if i, ok := idx[id]; ok && id != 0 {
		return st[i]
	}
	return nil
}

// rank orders the lines by better (ties kept in the players' order) and
// numbers them from 1.
func rank(st []*Standing, better func(a, b *Standing) int) []Standing {
	slices.SortStableFunc(st, better)
	out := make([]Standing, len(st))
	for i, s := range st {
		s.Rank = i + 1
		out[i] = *s
	}
	return out
}
