package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Errors of bad input and illegal moves. Every error the package returns
// wraps exactly one of these, so callers can choose a message with errors.Is.
var (
	ErrBadPosition        = errors.New("invalid position")
	ErrBadLabel           = errors.New("invalid move label")
	ErrBadRules           = errors.New("unknown rule set")
	ErrBadPit             = errors.New("no such pit")
	ErrNotOwnPit          = errors.New("that pit is not yours")
	ErrEmptyPit           = errors.New("that pit is empty")
	ErrMustFeed           = errors.New("the opponent's row is empty and this move does not sow into it")
	ErrGrandSlamForbidden = errors.New("a grand slam is not allowed while another move is legal")
	ErrEndlessSowing      = errors.New("this sowing would never end")
	ErrGameOver           = errors.New("the game is over")
	// ErrBadState: a state given to Resume is not one a game can reach.
	ErrBadState = errors.New("inconsistent game state")
	// ErrNoHistory: a game resumed in the middle of a round (Resume) was
	// asked for a move whose outcome depends on the positions before the
	// resume point, which it does not have (RULES.md 2.6, 4.5).
	ErrNoHistory = errors.New("the move needs the history before the resume point")
	// ErrTooMuchWork: a Budget ran out before the engine could decide
	// whether a Nam-nam sowing ends (see NamNam.Budget).
	ErrTooMuchWork = errors.New("deciding this needs more work than allowed")
)

// Rules is a rule set: everything that differs between the games and
// settings of RULES.md. It is a small comparable value, safe to copy and to
// use from several goroutines.
type Rules interface {
	// Name is the rule set key: "abapa", "wari", "warri" or "namnam".
	Name() string
	// Start returns the start position of a new game.
	Start() Position
	// ParsePosition reads a position string of this rule set. Errors wrap
	// ErrBadPosition and say what is wrong.
	ParsePosition(s string) (Position, error)
	// FormatPosition writes the position string of p.
	FormatPosition(p Position) string
	// LegalMoves returns the pits the player to move may sow; empty when the
	// game is over or the player to move has no legal move.
	LegalMoves(p Position) Moves
	// Play sows pit for the player to move and returns the position after the
	// move, including any end-of-game captures, and what happened. An illegal
	// move returns an error wrapping ErrBadPit, ErrNotOwnPit, ErrEmptyPit,
	// ErrMustFeed, ErrGrandSlamForbidden, ErrEndlessSowing or ErrGameOver,
	// and p unchanged. Play cannot see repetitions: Game applies that rule.
	Play(p Position, pit int) (Position, Move, error)
	// Settle ends the game now (agreement, repetition): each player captures
	// the seeds in the pits they own (RULES.md 2.6, 4.5).
	Settle(p Position) Position
	// Perft counts the leaf positions exactly depth plies after p; a game
	// that ends earlier, also by repetition along the path, is one leaf.
	Perft(p Position, depth int) uint64
}

// RuleSets returns the keys of every rule set, the standard first: the
// Oware grand slam settings "abapa", "wari" and "warri" (RULES.md 2.5) and
// "namnam" (RULES.md 4). It is the one list of them; each call returns a
// new slice.
func RuleSets() []string { return []string{"abapa", "wari", "warri", "namnam"} }

// OwareRuleSets returns the keys of RuleSets that play one Oware game, not
// a match of rounds: "abapa", "wari" and "warri".
func OwareRuleSets() []string {
	return slices.DeleteFunc(RuleSets(), func(name string) bool {
		r, _ := RulesByName(name)
		_, rounds := r.(Rounds)
		return rounds
	})
}

// RulesByName returns the rule set with the given key and its default
// settings: "abapa" (the standard, also the empty string), "wari", "warri"
// or "namnam". Other names are an error wrapping ErrBadRules.
func RulesByName(name string) (Rules, error) { return NewRules(name, "") }

// NewRules returns the rule set name (as RulesByName) with the Nam-nam
// `fours` table setting (RULES.md 4.3a): "last" (the default, also "") or
// "owner". A fours setting for an Oware rule set is an error wrapping
// ErrBadRules.
func NewRules(name, fours string) (Rules, error) {
	var r Rules
	switch strings.ToLower(name) {
	case "", "abapa":
		r = Oware{GrandSlam: Abapa}
	case "wari":
		r = Oware{GrandSlam: Wari}
	case "warri":
		r = Oware{GrandSlam: Warri}
	case "namnam":
		switch fours {
		case "", "last":
			return NamNam{Fours: FoursLast}, nil
		case "owner":
			return NamNam{Fours: FoursOwner}, nil
		}
		return nil, fmt.Errorf("%w: fours setting %q (want last or owner)", ErrBadRules, fours)
	default:
		return nil, fmt.Errorf("%w: %q (want abapa, wari, warri or namnam)", ErrBadRules, name)
	}
	if fours != "" {
		return nil, fmt.Errorf("%w: the fours setting is only for namnam", ErrBadRules)
	}
	return r, nil
}

// Rounds is implemented by the rule sets played as a match of rounds
// (Nam-nam, RULES.md 4.6-4.7). Game uses it between rounds.
type Rounds interface {
	// NextRound takes the settled end of a round (every seed captured or
	// stored) and who started that round, and returns the start of the next
	// round, or over with the match result when a player cannot fill a pit.
	NextRound(end Position, lastStarter Side) (next Position, over bool, result Result)
	// Totals returns each player's seeds: captures, store and the seeds in
	// the pits they own.
	Totals(p Position) [2]int
}

// Result is the outcome of a finished game.
type Result uint8

// The results. NoResult while the game goes on.
const (
	NoResult Result = iota
	SouthWins
	NorthWins
	Draw
)

// String returns "", "south", "north" or "draw": the words of the API.
func (r Result) String() string {
	return [...]string{"", "south", "north", "draw"}[r&3]
}

// Winner returns the result in which side s wins.
func Winner(s Side) Result {
	if s == South {
		return SouthWins
	}
	return NorthWins
}

// resultByCaptures compares the captures: more seeds wins, equal is a draw.
func resultByCaptures(p *Position) Result {
	return resultByTotals([2]int{int(p.Captured[South]), int(p.Captured[North])})
}

// Reason says why a game ended. The values are the words of the API and of
// oware-engine.
type Reason string

// The reasons a game ends (RULES.md 2.6 and 3).
const (
	ReasonMajority    Reason = "25-seeds"    // a player captured 25 or more
	ReasonGrandSlam   Reason = "grand-slam"  // wari: a forced grand slam left the opponent no move
	ReasonCannotFeed  Reason = "cannot-feed" // the opponent's row is empty and no move reaches it
	ReasonNoMoves     Reason = "no-moves"    // the player to move has an empty row
	ReasonRepetition  Reason = "repetition"  // a position came back
	ReasonAgreement   Reason = "agreement"   // both players agreed to end
	ReasonResignation Reason = "resignation" // a player resigned
	ReasonFewSeeds    Reason = "few-seeds"   // Nam-nam: fewer than 4 seeds left on the board
	ReasonCannotFill  Reason = "cannot-fill" // Nam-nam: a player cannot fill a pit for the next round
	// Nam-nam: the next round would start as an earlier round of the match
	// did (RULES.md 4.8).
	ReasonMatchRepetition Reason = "match-repetition"
)

// Capture is one pit taken by a capture.
type Capture struct {
	Pit   int // 0..11
	Seeds int
	By    Side // who took the seeds: the mover, or in Nam-nam's owner setting the pit's owner
}

// Move tells what one move did.
type Move struct {
	Pit       int        // the pit sown, 0..11
	Mover     Side       // who played it
	Number    MoveNumber // its number in the game (set by Game.Play)
	Sown      []int      // the pits that got a seed, in the order sown
	Captures  []Capture  // pits captured, from the last pit sown backwards
	GrandSlam bool       // the capture would take the whole opponent row (RULES.md 2.4, 3)
	ExtraTurn bool       // warri: the mover moves again after a grand slam
	Over      bool       // the game ended with this move
	Result    Result     // when Over
	Reason    Reason     // when Over
	// FinalCaptures are the seeds each side took from its own pits when the
	// game or round ended (no legal move, wari grand slam, repetition,
	// Nam-nam round end), indexed by Side.
	FinalCaptures [2]int

	// Nam-nam (RULES.md 4): Steps counts the seeds dropped in the whole
	// relay; Lifts lists the pits the relay lifted seeds from, the first
	// being Pit. Sown keeps at most MaxRecordedSown entries.
	Steps int
	Lifts []int
	// RoundOver: this move ended a Nam-nam round, for RoundReason. End is
	// then the settled end of the round, Totals each player's seeds
	// (captures plus store) and, unless the match is Over, Next is the start
	// position of the next round.
	RoundOver   bool
	RoundReason Reason
	End         Position
	Totals      [2]int
	Next        *Position
}

// MaxRecordedSown bounds Move.Sown for long Nam-nam relays.
const MaxRecordedSown = 4096

// Captured returns the number of seeds the move's capture took.
func (m Move) Captured() int {
	n := 0
	for _, c := range m.Captures {
		n += c.Seeds
	}
	return n
}
