// Package play holds the words of a game's life that both the game service
// stores and the views show, as types: a leaf package (it imports nothing
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
