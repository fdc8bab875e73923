// Package play holds the words of a game's, a review's and a tournament's
// life that both the services store and the views show, as types: a leaf package (it imports nothing
// of ours but engine), so that views compare typed constants, not strings, without
// importing game (which reaches the storage). The sides and results of the
// board are engine's (engine.Side, engine.Result, engine.Reason).
package play

import "oware/engine"

// Status is where a game is in its life. The values are the words stored
// in the games table and written by the JSON API ("status").
type Status string

// The statuses.
const (
	Waiting Status = "waiting" // a seat is free
	Playing Status = "playing" // both seats are taken and the game goes on
	Over    Status = "over"    // the game ended (Result and Reason say how)
)

// The reasons a game ends that are not the board's (engine.Reason has
// those): the words stored in the games table and written by the API.
const (
	ReasonTimeout   engine.Reason = "timeout"   // the player to move ran out of time
	ReasonAbandoned engine.Reason = "abandoned" // the opponent claimed the game after the player to move left
	ReasonAborted   engine.Reason = "aborted"   // a first move did not come in time: no result, not rated
)

// ReviewStatus is where a game's review (the computer's analysis of every
// move) stands: the words stored in the reviews table and written by the
// API ("status").
type ReviewStatus string

// The statuses of a review.
const (
	ReviewNone    ReviewStatus = "none"    // never asked for
	ReviewQueued  ReviewStatus = "queued"  // asked for, waiting for its turn
	ReviewRunning ReviewStatus = "running" // being computed
	ReviewDone    ReviewStatus = "done"    // complete
)

// TournamentStatus is where a tournament is in its life: the words stored
// in the tournaments table and written by the API ("status").
type TournamentStatus string

// The statuses of a tournament.
const (
	TournamentCreated  TournamentStatus = "created"  // open to join, not started
	TournamentRunning  TournamentStatus = "running"  // its games are being paired and played
	TournamentFinished TournamentStatus = "finished" // over: the standings are final
)
