package game

import "errors"

// The refusals of the service's actions (besides the engine's errors for
// illegal moves, and engine.ErrGameOver for a finished game). Test them
// with errors.Is.
var (
	ErrNotFound    = errors.New("game: no such game")
	ErrBadSettings = errors.New("game: bad table settings")
	ErrNotStarted  = errors.New("game: waiting for the opponent")
	ErrNotYourTurn = errors.New("game: not your turn")
	ErrSeatsTaken  = errors.New("game: both seats are taken")
	ErrNoOffer     = errors.New("game: the opponent made no offer")
	ErrNotOver     = errors.New("game: the game is not over")
	ErrNotNamNam   = errors.New("game: not a Nam-nam match")
	// The computer opponent, hints and takebacks (computer.go, hint.go,
	// takeback.go).
	ErrVsComputer   = errors.New("game: the computer does not answer offers")
	ErrNoHint       = errors.New("game: no hint to give")
	ErrNoTakeback   = errors.New("game: nothing to take back")
	ErrOfferPending = errors.New("game: the opponent's request waits for an answer")
	ErrBusy         = errors.New("game: the computer is busy; try again in a moment")
	// ErrConflict: the game changed since it was loaded (another request
	// stored a change first). Nothing was stored; load it again.
	ErrConflict = errors.New("game: changed meanwhile")
)
