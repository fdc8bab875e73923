package game

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"oware/engine"
	"oware/play"
)

// TimeControl is a game's clock setting: real time (Initial seconds for
// each player, Increment seconds added after each of their moves),
// correspondence (Days for each move), or none (the zero value).
type TimeControl struct {
	Initial, Increment int // seconds
	Days               int
}

// The bounds of a time control (issue 12).
const (
	MinInitial   = 10       // seconds
	MaxInitial   = 3 * 3600 // seconds
	MaxIncrement = 60       // seconds
	FirstMove    = 30 * time.Second
)

// CorrespondenceDays are the days per move a correspondence game may have.
var CorrespondenceDays = []int{1, 3, 7}

// Presets are the real-time controls offered as buttons: minutes + seconds.
var Presets = []TimeControl{{60, 1, 0}, {180, 2, 0}, {300, 3, 0}, {600, 5, 0}, {900, 10, 0}}

// On reports whether tc has a clock.
func (tc TimeControl) On() bool { return tc.Initial > 0 || tc.Days > 0 }

// Check returns ErrBadClock (an ErrBadSettings) unless tc is none, a real-time control
// with Initial 10 s to 3 h and Increment 0 to 60 s, or a correspondence
// control of 1, 3 or 7 days.
func (tc TimeControl) Check() error {
	switch {
	case tc == TimeControl{}:
		return nil
	case tc.Days == 0 && tc.Initial >= MinInitial && tc.Initial <= MaxInitial && tc.Increment >= 0 && tc.Increment <= MaxIncrement:
		return nil
	case tc.Initial == 0 && tc.Increment == 0 && (tc.Days == 1 || tc.Days == 3 || tc.Days == 7):
		return nil
	}
	return fmt.Errorf("%w %+v", ErrBadClock, tc)
}

// Speed is the speed of a time control as ratings count it: "realtime",
// "correspondence", or "" for none.
func (tc TimeControl) Speed() string {
	switch {
	case tc.Days > 0:
		return "correspondence"
	case tc.Initial > 0:
		return "realtime"
	}
	return ""
}

// String writes tc as ParseTimeControl reads it: "5+3" (minutes and
// seconds; "0.5+0" for 30 s), "3d", or "" for none.
func (tc TimeControl) String() string {
	switch {
	case tc.Days > 0:
		return strconv.Itoa(tc.Days) + "d"
	case tc.Initial > 0:
		return strconv.FormatFloat(float64(tc.Initial)/60, 'f', -1, 64) + "+" + strconv.Itoa(tc.Increment)
	}
	return ""
}

// ParseTimeControl reads "5+3" (minutes + seconds per move), "3d" (days
// per move) or "" / "none" (no clock), and checks it (TimeControl.Check).
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	switch {
	case s == "" || s == "none":
		return tc, nil
	case strings.HasSuffix(s, "d"):
		n, err := strconv.Atoi(strings.TrimSuffix(s, "d"))
		if err != nil {
			return tc, fmt.Errorf("%w %q", ErrBadClock, s)
		}
		tc.Days = n
	default:
		m, inc, ok := strings.Cut(s, "+")
		minutes, err1 := strconv.ParseFloat(m, 64)
		n, err2 := strconv.Atoi(inc)
		if !ok || err1 != nil || err2 != nil || minutes < 0 || minutes > MaxInitial/60 {
			return tc, fmt.Errorf("%w %q", ErrBadClock, s)
		}
		tc.Initial, tc.Increment = int(minutes*60), n
	}
	return tc, tc.Check()
}

// Clock is the state of a game's clock.
type Clock struct {
	TimeControl
	// Left is each side's time at TurnSince, by engine.Side: the time left
	// on the clock (real time), or for the current move (correspondence).
	Left [2]time.Duration
	// TurnSince is when the turn of the player to move began: the previous
	// move was stored, or the game started. Zero before the game starts.
	TurnSince time.Time
	// Deadline is when the game ends by itself unless the player to move
	// moves; zero while no clock runs.
	Deadline time.Time
}

// allowance is a side's time at the start of the game and, in
// correspondence, of every move.
func (c *Clock) allowance() time.Duration {
	if c.Days > 0 {
		return time.Duration(c.Days) * 24 * time.Hour
	}
	return time.Duration(c.Initial) * time.Second
}

// firstMoves reports whether the player to move has not made their first
// move yet: the first move of each side (plies 1 and 2) has a limit of its
// own (FirstMove in real time, the days per move in correspondence), and
// missing it aborts the game. A real-time clock starts only after both.
func (g *Game) firstMoves() bool { return len(g.Engine.Moves) < 2 }

// turn is what the clock of a game follows from besides its time control
// and times: the status, the steps played (moves, and agreements to end a
// Nam-nam round or the game) and the side to move. A new turn begins when
// any of them changes.
type turn struct {
	status            Status
	moves, agreements int
	toMove            engine.Side
}

// turnNow returns g's turn as it is now.
func (g *Game) turnNow() turn {
	t := turn{status: g.Status, agreements: len(g.agreements), toMove: g.Position.ToMove}
	if g.Engine != nil {
		t.moves = len(g.Engine.Moves)
	}
	return t
}

// runClock brings g's clock to what follows, at now, from the change of
// g's state since it was stored (g.stored to g.turnNow()). It is the one
// place that sets the clock: every write of a game goes through it
// (Service.write, and the creation of a game), whatever the action (a
// move, a takeback, an agreement, the start of a Nam-nam round, a join, a
// rematch, a flag, a resignation, a claim, an abort). When the turn
// changed:
//   - the side whose clock ran is charged the time since its turn began
//     (real time past the first moves, and correspondence), up to the
//     deadline when it passed (a flag); after a move of theirs, real time
//     adds the increment, correspondence gives the full days again;
//   - a game that starts gives each side its allowance;
//   - in correspondence the side to move has the full days;
//   - the new turn begins at now (at the deadline after a flag).
//
// Whatever changed, the deadline follows from the turn (deadline). A cut
// of this instance (g.cut, outage.go) first moves the start of the turn
// being played when it was stored on by the part of the cut it lived
// through: its player is charged none of it.
func (g *Game) runClock(now time.Time) {
	c := &g.Clock
	was, is := g.stored, g.turnNow()
	if was.status == Playing && c.On() {
		c.TurnSince = c.TurnSince.Add(g.cut.credit(c.TurnSince, now))
	}
	g.cut = cut{}
	if was != is {
		at := now
		if !c.Deadline.IsZero() && now.After(c.Deadline) {
			at = c.Deadline
		}
		g.charge(was, is, at)
		if was.status != Playing && is.status == Playing && c.On() {
			c.Left = [2]time.Duration{c.allowance(), c.allowance()}
		}
		if is.status == Playing && c.Days > 0 {
			c.Left[is.toMove] = c.allowance()
		}
		if is.status != Waiting {
			c.TurnSince = at
		}
	}
	c.Deadline = g.deadline()
}

// charge stops, at at, the clock of the side to move in turn was, which
// g's state left for turn is. In real time past the first moves they are
// charged the time their turn took (never less than nothing: after an
// outage the turn may begin in the future, outage.go) and after their own
// move earn the increment. In correspondence every turn has the full days
// (runClock), so a turn costs nothing until the game ends (then the time
// taken is charged: a flag leaves nothing). Nothing runs before a game
// starts, without a clock, or in the first moves of real time.
func (g *Game) charge(was, is turn, at time.Time) {
	c := &g.Clock
	if was.status != Playing || !c.On() {
		return
	}
	s := was.toMove
	used := max(at.Sub(c.TurnSince), 0)
	moved := is.moves == was.moves+1 && is.agreements == was.agreements &&
		g.Last != nil && !g.Last.Agreement && g.Last.Move.Mover == s
	switch {
	case c.Days > 0 && moved:
		c.Left[s] = c.allowance()
	case c.Days > 0 && is.status == Over:
		c.Left[s] = max(c.Left[s]-used, 0)
	case c.Days > 0, was.moves < 2:
	case moved:
		c.Left[s] = max(c.Left[s]-used, 0) + time.Duration(c.Increment)*time.Second
	default:
		c.Left[s] = max(c.Left[s]-used, 0)
	}
}

// deadline returns when g ends by itself if the player to move does
// nothing: the zero time when the game is not being played or has no
// clock; in the first moves of real time FirstMove after the turn began;
// else when the time left of the player to move runs out.
func (g *Game) deadline() time.Time {
	c := &g.Clock
	switch {
	case g.Status != Playing || !c.On() || c.TurnSince.IsZero():
		return time.Time{}
	case c.Days == 0 && g.firstMoves():
		return c.TurnSince.Add(FirstMove)
	}
	return c.TurnSince.Add(c.Left[g.Position.ToMove])
}

// expired reports whether, at now, g's time ran out for the player to move
// (a flag fell, or a first move did not come in time).
func (g *Game) expired(now time.Time) bool {
	return g.Status == Playing && !g.Clock.Deadline.IsZero() && !now.Before(g.Clock.Deadline)
}

// Reasons of the ends that are not the engine's (models.Game.Reason): play's,
// so that views share them.
const (
	ReasonTimeout   = play.ReasonTimeout   // the player to move ran out of time
	ReasonAbandoned = play.ReasonAbandoned // the opponent claimed the game after the player to move left
	ReasonAborted   = play.ReasonAborted   // a first move did not come in time: no result, not rated
)

// flagFall ends g, whose time ran out: aborted when a first move did not
// come; else the player to move loses on time, unless their opponent
// cannot possibly win (canWin): then it is a draw. The clock stops at the
// deadline when g is stored (runClock).
func (g *Game) flagFall() {
	toMove := g.Position.ToMove
	switch {
	case g.firstMoves():
		g.finish(winner(toMove.Opponent()), ReasonTimeout)
		g.abort()
	case canWin(g, toMove.Opponent()):
		g.finish(winner(toMove.Opponent()), ReasonTimeout)
	default:
		g.finish(engine.Draw, ReasonTimeout)
	}
}

// finish ends g with result for a reason outside the engine's rules.
func (g *Game) finish(result engine.Result, reason engine.Reason) {
	g.Status, g.Result, g.Reason = Over, result, reason
	g.EndOffer = engine.Nobody
}

// winner returns the result in which side s wins.
func winner(s engine.Side) engine.Result {
	if s == engine.South {
		return engine.SouthWins
	}
	return engine.NorthWins
}

// canWin reports whether side w could still win g, so that the opponent's
// flag fall loses rather than draws. In Oware (RULES.md 2.6) a player wins
// with more than half the 48 seeds; at best w gets every seed still on the
// board, so w can win only while w's captures plus the seeds on the board
// reach 25. In Nam-nam (RULES.md 4) any seed on the board may be captured
// by either player and a match goes on over rounds until a player cannot
// fill a pit, so the opponent can always still win: a flag fall loses.
func canWin(g *Game, w engine.Side) bool {
	if g.NamNam() {
		return true
	}
	board := 0
	for _, n := range g.Position.Pits {
		board += int(n)
	}
	return int(g.Position.Captured[w])+board >= engine.WinningCaptures
}

// ClockAt returns each side's time left at now, by engine.Side, and the
// side whose clock runs (engine.Nobody when none does: no clock, the game
// is not being played, or the first moves of a real-time game, whose limit
// FirstMoveLeft gives).
func (g *Game) ClockAt(now time.Time) ([2]time.Duration, engine.Side) {
	c := g.Clock
	left := c.Left
	if g.Status != Playing || !c.On() || (c.Days == 0 && g.firstMoves()) {
		return left, engine.Nobody
	}
	s := g.Position.ToMove
	left[s] = max(left[s]-max(now.Sub(c.TurnSince), 0), 0)
	return left, s
}

// FirstMoveLeft returns the time left at now for the first move of the
// player to move of a real-time game in its first moves, and whether there
// is such a limit.
func (g *Game) FirstMoveLeft(now time.Time) (time.Duration, bool) {
	if g.Status != Playing || g.Clock.Days > 0 || !g.Clock.On() || !g.firstMoves() {
		return 0, false
	}
	return min(max(g.Clock.Deadline.Sub(now), 0), FirstMove), true
}
