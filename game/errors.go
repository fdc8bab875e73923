package game

import (
	"errors"
	"fmt"
)

// The refusals of the service's actions (besides the engine's errors for
// illegal moves, and engine.ErrGameOver for a finished game). Test them
// with errors.Is.
var (
	ErrNotFound    = errors.New("game: no such game")
	ErrBadSettings = errors.New("game: bad table settings")
	ErrNotStarted  = errors.New("game: waiting for the opponent")
	ErrNotYourTurn = errors.New("game: not your turn")
	ErrSeatsTaken  = errors.New("game: both seats are taken")
	// ErrNoSeat: the visitor holds no seat in the game (LoadSeated).
	ErrNoSeat = errors.New("game: no seat of yours")
	// ErrTooManyGames: the visitor holds seats in MaxSeats games being
	// played (RoomForSeat).
	ErrTooManyGames = errors.New("game: too many games being played")
	ErrNoOffer      = errors.New("game: the opponent made no offer")
	ErrNotOver      = errors.New("game: the game is not over")
	ErrNotNamNam    = errors.New("game: not a Nam-nam match")
	// ErrBadClock: a time control that is not one of TimeControl.Check
	// (real time 10 s to 3 h plus 0 to 60 s a move, or 1, 3 or 7 days a
	// move); it is also an ErrBadSettings (clock.go).
	ErrBadClock = fmt.Errorf("%w: bad time control", ErrBadSettings)
	// ErrTimeUp: the time of the player to move ran out before their
	// move came; the game ended (clock.go).
	ErrTimeUp = errors.New("game: the time ran out")
	// ErrLate: an action other than a move (a resignation, a claim, a
	// takeback or its answer, an offer to end or its answer) came after
	// the deadline of the player to move: the deadline decides first, the
	// game ended on time and the action was refused (Service.inTime).
	ErrLate = errors.New("game: the game ended on time before this action came")
	// ErrCannotClaim: the opponent has not left, or not for long enough,
	// for the game to be claimed (claim.go).
	ErrCannotClaim = errors.New("game: nothing to claim")
	// ErrRatedNeedsLobby: a rated game is set up in the lobby, with a
	// clock, between two accounts (lobby.go).
	ErrRatedNeedsLobby = errors.New("game: rated games start from the lobby")
	// ErrRatedNeedsAccount: a rated game needs an account.
	ErrRatedNeedsAccount = errors.New("game: rated games need an account")
	// ErrRatedNeedsClock: a rated game needs a time control.
	ErrRatedNeedsClock = errors.New("game: rated games need a clock")
	// ErrBadRatingRange: a challenge's rating range is not within 0 to
	// MaxRatingBound with the minimum not above the maximum (lobby.go); it
	// is also an ErrBadSettings.
	ErrBadRatingRange = fmt.Errorf("%w: bad rating range", ErrBadSettings)
	// ErrTooManyChallenges: the creator has MaxOpenChallenges open
	// challenges already (lobby.go).
	ErrTooManyChallenges = errors.New("game: too many open challenges")
	// ErrChallengeTaken: the challenge was taken, cancelled or is gone.
	ErrChallengeTaken = errors.New("game: the challenge is no longer open")
	// ErrOwnChallenge: a challenge cannot be accepted by its creator.
	ErrOwnChallenge = errors.New("game: your own challenge")
	// ErrNotForYou: the challenge is for another player, or for a rating
	// range the player is outside of.
	ErrNotForYou = errors.New("game: the challenge is not for you")
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
	// ErrStale: the action was made on a version of the game that is no
	// longer the stored one (a double click, a replayed request, a page
	// left open while the game went on): nothing was done (CheckVersion).
	ErrStale = errors.New("game: the action was made on an older version of the game")
)

// CheckVersion returns ErrStale when version, the version of g that an
// action (a takeback or its answer, a resignation, an offer to end or its
// answer, a claim) was made on, is not g's; 0 means the request did not
// say and passes. The action's write then checks the version again, so a
// request acts at most once on the version it names.
func (g *Game) CheckVersion(version int) error {
	if version != 0 && version != g.Version {
		return ErrStale
	}
	return nil
}

// The refusals of bots' games (bots.go, issue 35).
var (
	// ErrBotLobby: a bot plays the challenges for it and the ones it
	// sends, never the lobby's open challenges or quick pairing.
	ErrBotLobby = errors.New("game: bots are not paired by the lobby or quick pairing")
	// ErrBotsChallengeBots: a bot challenges bots only (a person may
	// challenge a bot).
	ErrBotsChallengeBots = errors.New("game: a bot may challenge bots only")
	// ErrBotRated: a game between a bot and a person is casual (bots are
	// rated in a pool of their own).
	ErrBotRated = errors.New("game: games between a bot and a person are casual")
	// ErrBotWeb: a bot plays through the Bot API only; its account's
	// browser session holds none of its seats' actions (issue 35).
	ErrBotWeb = errors.New("game: a bot plays through the Bot API only")
	// ErrBotBusy: the bot plays MaxBotGames games already.
	ErrBotBusy = errors.New("game: the bot plays as many games as it may at once")
)
