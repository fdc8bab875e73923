// Package game owns a game's life: its state (the stored row and the
// engine's game, built once per load), its actions (create, join, move,
// resign, end by agreement, Nam-nam rounds, rematch), who holds which seat,
// and the publishing of every change. Handlers parse a request, call the
// Service and render; nothing else.
//
// The moves and agreements stored in the database are the source of truth;
// the game row caches what a move needs (the position, the move labels,
// what the repetition rule needs and the ends of Nam-nam rounds) and
// Verify checks that cache against a replay of every stored game.
package game

import (
	"fmt"
	"time"

	"oware/engine"
	"oware/engine/search"
	"oware/play"
)

// Status is where a game is in its life: play's, so that views share it.
type Status = play.Status

// The statuses, as stored and as the JSON API writes them.
const (
	Waiting = play.Waiting // a seat is free
	Playing = play.Playing
	Over    = play.Over
)

// Seat is who holds one side of the board.
type Seat struct {
	// Token is models.HashToken of the seat's bearer token; "" while the
	// seat is free.
	Token string
	// UserID is the account seated here, nil for a guest.
	UserID *uint
	// Name is the account's username when it exists; Deleted is set when
	// the account was deleted (its name is then gone).
	Name    string
	Deleted bool
	// Bot marks a bot's account (issue 35), read with the game: a bot
	// holds its seat through the Bot API only (ErrBotWeb).
	Bot bool
	// Computer is the level of the computer seated here; 0 for a person.
	Computer search.Level
}

// Head is what a game page needs to know first: who holds the seats,
// whether the game waits for a player, and its version (Service.Peek).
type Head struct {
	ID     string
	Status Status
	// Version counts the stored changes (1 when created): the optimistic
	// concurrency check of every write, and the version of live updates.
	Version int
	// Seats are South's and North's, indexed by engine.Side.
	Seats [2]Seat
}

// Game is a stored game as the service works with it. A Game is read and
// changed by one request at a time; after an action failed it may be half
// changed and must be loaded again.
type Game struct {
	Head
	// SpectatorKey is the key of the watch link /{lang}/watch/{key}.
	SpectatorKey string
	Rules        engine.Rules
	Result       engine.Result // engine.NoResult until Over
	Reason       engine.Reason // "" until Over
	// AbortedEnd is the end an aborted game would have had, result and
	// reason ("north resignation": South resigned; "south timeout": North
	// made no first move in time): who ended it, which tournaments score
	// (abort). "" for a game not aborted.
	AbortedEnd string
	// Position is the stored position: the board shown.
	Position engine.Position
	// Engine is the engine's game rebuilt from the stored moves and
	// agreements (start, moves, round, history of the repetition rule).
	Engine *engine.Game
	// EndOffer is the side that proposed ending the game (a Nam-nam round,
	// or between rounds the match) by agreement; RematchOffer the side
	// that asked for a rematch. engine.Nobody when none.
	EndOffer, RematchOffer engine.Side
	// RematchID is the rematch's game once both players agreed.
	RematchID string
	// RoundSeen is the last Nam-nam round whose start each side has seen
	// (its summary of the round before is then hidden); 0 at first.
	RoundSeen [2]int
	// Rounds are the ends of the Nam-nam rounds played, in order.
	Rounds []RoundEnd
	// Last is the last step played (a move, or an agreement); nil before
	// any.
	Last *Step
	// CreatedAt and UpdatedAt are when the game was created and last
	// changed (UTC).
	CreatedAt, UpdatedAt time.Time
	// Clock is the time control and the state of the clock (clock.go).
	Clock Clock
	// Rated marks a rated game (ratings.go); Ratings are the players'
	// ratings as it started, by engine.Side ("1500", "1500?" while
	// provisional; "" for none).
	Rated   bool
	Ratings [2]string
	// Unrated says why a game asked for as rated is casual: UnratedPair,
	// or "" (ratings.go).
	Unrated string
	// Instant: the computer answers without its minimum thinking time.
	Instant bool
	// Hints counts the hints given in the game (at most MaxHints).
	Hints int
	// hint and takeback are the stored last hint and takeback offer
	// (models.Game.Hint, TakebackOffer): see LastHint and TakebackOffer.
	hint, takeback string
	// start is the position the game started from; agreements are the
	// numbers of moves played at each agreement, agreementList as stored
	// (models.Game.Agreements).
	start         engine.Position
	agreements    []int
	agreementList string
	// stored is the turn as last read or written (runClock): the zero
	// turn for a game not stored yet.
	stored turn
	// cut is a time this instance could not reach the database while
	// asked about the game, which the next write gives back (outage.go).
	cut cut
	// The cache of the row (cache.go): the move labels, the resume point
	// and the stored ends of the rounds.
	labels     string
	resume     resumePoint
	roundsJSON string
}

// Step is one thing played: a move, or an agreement (Agreement set) to end
// the game or a Nam-nam round; Move is what the engine says it did.
type Step struct {
	Move      engine.Move
	Agreement bool
}

// RoundEnd is how a Nam-nam round ended (RULES.md 4.5-4.7).
type RoundEnd struct {
	// Moves is the number of moves played in the whole match when the
	// round ended; Agreement is set when the players agreed to end it.
	Moves     int
	Agreement bool
	Reason    engine.Reason
	// Totals are each player's seeds at the end of the round.
	Totals [2]int
	// Next is the start of the next round; nil when the match ended.
	Next *engine.Position
	// End is the settled end of the round (every seed captured or stored)
	// and Starter the side that started the round: the next round's start
	// follows from them (RULES.md 4.6).
	End     engine.Position
	Starter engine.Side
}

// NamNam reports whether r is played as a match of rounds (Nam-nam,
// RULES.md 4): the one place that answers "is this Nam-nam".
func NamNam(r engine.Rules) bool {
	_, ok := r.(engine.Rounds)
	return ok
}

// NamNam reports whether g is a Nam-nam match.
func (g *Game) NamNam() bool { return NamNam(g.Rules) }

// Fours returns Nam-nam's fours setting, "last" or "owner" (RULES.md
// 4.3a), or "" for the Oware rule sets.
func Fours(r engine.Rules) string {
	if n, ok := r.(engine.NamNam); ok {
		return n.Fours.String()
	}
	return ""
}

// Labels returns the labels of the moves played, in order.
func (g *Game) Labels() []string {
	labels := make([]string, len(g.labels))
	for i := range labels {
		labels[i] = g.labels[i : i+1]
	}
	return labels
}

// MoveLabels returns the labels of the moves played in one string, a
// character each ("CdBa").
func (g *Game) MoveLabels() string { return g.labels }

// LastPit returns the pit of the last move, or -1 before the first.
func (g *Game) LastPit() int {
	if n := len(g.Engine.Moves); n > 0 {
		return g.Engine.Moves[n-1]
	}
	return -1
}

// Playable returns the pits seat may sow now: none unless the game is
// being played and it is seat's turn.
func (g *Game) Playable(seat engine.Side) engine.Moves {
	if g.Status != Playing || seat != g.Position.ToMove {
		return 0
	}
	return g.Rules.LegalMoves(g.Position)
}

// Record writes the finished game as an OGN record with the given tags.
// The result tag counts the final captures, so an end that is not a move
// (resignation, agreement) is applied first.
func (g *Game) Record(tags []engine.Tag) string {
	eg := g.Engine.Clone()
	if !eg.Over {
		switch g.Reason {
		case engine.ReasonResignation:
			loser := engine.South
			if g.Result == engine.SouthWins {
				loser = engine.North
			}
			_ = eg.Resign(loser)
		case engine.ReasonAgreement:
			_, _ = eg.Agree()
		}
	}
	return engine.FormatRecord(eg, tags)
}

// parseResult reads a stored result: "", "south", "north" or "draw".
func parseResult(s string) (engine.Result, error) {
	for r := engine.NoResult; r <= engine.Draw; r++ {
		if r.String() == s {
			return r, nil
		}
	}
	return engine.NoResult, fmt.Errorf("game: bad result %q", s)
}

// parseSide reads a stored side: "south", "north", or "" for none.
func parseSide(s string) (engine.Side, error) {
	switch s {
	case "":
		return engine.Nobody, nil
	case "south":
		return engine.South, nil
	case "north":
		return engine.North, nil
	}
	return engine.Nobody, fmt.Errorf("game: bad side %q", s)
}

// sideString writes a side as stored: "south", "north", or "" for Nobody.
func sideString(s engine.Side) string {
	if s == engine.Nobody {
		return ""
	}
	return s.String()
}
