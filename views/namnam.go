package views

import "oware/engine"

// MatchView is the Nam-nam part of a game view (RULES.md 4): the match of
// rounds as the viewer sees it.
type MatchView struct {
	Fours      string      // the table setting: "last" or "owner"
	Round      int         // the current round, from 1
	Starter    engine.Side // who started (or starts) the current round
	RoundMoves int         // moves played in the current round
	// Totals are each player's seeds now: captures, store and owned pits.
	Totals [2]int
	// BetweenRounds: no move played yet in a round after the first; an
	// agreement now ends the match.
	BetweenRounds bool
	// Rounds are the summaries of the rounds that ended, in order.
	Rounds []RoundSummary
	// Summary is the summary of the last round while the viewer has not
	// started the next one (a spectator sees it between rounds); nil else.
	Summary *RoundSummary
	// CanStart: the viewer may start the next round (dismiss the summary)
	// by posting to NextURL.
	CanStart bool
	NextURL  string
	// Sown are the pits the last move's relay sowed, in order (for the
	// animation); nil when the board shows the start of a round.
	Sown []int
	// Moves are the labels of the moves played, one list per round.
	Moves [][]string
}

// RoundSummary tells how one round ended and how the next one starts.
type RoundSummary struct {
	Round  int    // the round that ended, from 1
	Reason string // engine.Reason: few-seeds, no-moves, repetition, agreement
	// Totals are each player's seeds at the end of the round.
	Totals [2]int
	// Next: a next round follows (else the match ended with this round).
	Next bool
	// For the next round: the pits each player owns (filled with 4), the
	// pits nobody could fill, the stores and who starts.
	Pits    [2]int
	Unowned int
	Stores  [2]int
	Starter engine.Side
}

// BoardMatch is the Nam-nam part of a board (BoardOptions.Match): owners of
// the pits and stores are always shown; the round and the match score when
// Round > 0.
type BoardMatch struct {
	Round  int    // the current round; 0 for a diagram
	Totals [2]int // each player's seeds now (the match score)
}

// byOwner returns south, north or nobody after a pit's owner s.
func byOwner(s engine.Side, south, north, nobody string) string {
	switch s {
	case engine.South:
		return south
	case engine.North:
		return north
	}
	return nobody
}

// ownerClass returns the CSS class of a pit's owner: own-s, own-n, own-x.
func ownerClass(s engine.Side) string { return byOwner(s, "own-s", "own-n", "own-x") }

// ownerMark returns the marker of a pit's owner, shown with its colour so
// that ownership does not rest on colour alone: ● South, ◆ North, ✕ nobody.
func ownerMark(s engine.Side) string { return byOwner(s, "●", "◆", "✕") }

// ownerKey returns the message id of a pit owner in an accessible name
// ("South's").
func ownerKey(s engine.Side) string {
	return byOwner(s, "nn_owner_south", "nn_owner_north", "nn_owner_nobody")
}

// roundReasonKeys map the reason a round ended to its message id.
var roundReasonKeys = map[string]string{
	"few-seeds": "nn_round_reason_few_seeds", "no-moves": "nn_round_reason_no_moves",
	"repetition": "nn_round_reason_repetition", "agreement": "nn_round_reason_agreement",
}

// roundReasonKey returns the message id of why a round ended.
func roundReasonKey(r string) string {
	if k, ok := roundReasonKeys[r]; ok {
		return k
	}
	return "reason_unknown"
}

// betweenRounds is the status line under a round summary: how the round
// ended and who starts the next.
func betweenRounds(l Localizer, s *RoundSummary) string {
	return l.T("nn_status_between", "Round", itoa(s.Round), "South", itoa(s.Totals[engine.South]),
		"North", itoa(s.Totals[engine.North]), "Side", l.T(sideKey(s.Starter)), "Next", itoa(s.Round+1))
}

// endKey returns the message id of an end-by-agreement text: the Oware
// one, or in Nam-nam the round's or (between rounds) the match's.
func (v GameView) endKey(id string) string {
	switch {
	case v.Match == nil:
		return id
	case v.Match.BetweenRounds:
		return "nn_" + id + "_match"
	}
	return "nn_" + id + "_round"
}

// boardMatch returns the Nam-nam options of the game's board; nil for Oware.
func (v GameView) boardMatch() *BoardMatch {
	if v.Match == nil {
		return nil
	}
	return &BoardMatch{Round: v.Match.Round, Totals: v.Match.Totals}
}

// maxAnimatedSowing bounds the sowings animated on the game page: a longer
// relay is shown at once.
const maxAnimatedSowing = 96

// sowing returns the pits the last move sowed, for the board's animation.
func (v GameView) sowing() []int {
	sown := v.Sown
	if v.Match != nil {
		sown = v.Match.Sown
	}
	if len(sown) > maxAnimatedSowing {
		return nil
	}
	return sown
}
