package game

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"oware/engine"
	"oware/engine/search"
	"oware/models"
)

// readRow reads a stored row into a Game without its engine's game (see
// build): the rules, the state, the seats and the cache columns.
func readRow(row *models.Game) (*Game, error) {
	g := &Game{
		Head:         headOf(row),
		SpectatorKey: row.SpectatorKey, Reason: engine.Reason(row.Reason), AbortedEnd: row.AbortedEnd,
		RematchID: row.RematchID, RoundSeen: [2]int{row.SouthRoundSeen, row.NorthRoundSeen},
		CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt, agreementList: row.Agreements,
		labels: row.MoveLabels, roundsJSON: row.Rounds,
		Rated: row.Rated, Ratings: [2]string{row.SouthRating, row.NorthRating}, Unrated: row.Unrated,
		Instant: row.ComputerInstant, Hints: row.Hints, hint: row.Hint, takeback: row.TakebackOffer,
	}
	g.Clock = clockOf(row)
	var err error
	if g.Rules, err = engine.NewRules(row.Rules, row.Fours); err != nil {
		return nil, err
	}
	switch g.Status {
	case Waiting, Playing, Over:
	default:
		return nil, fmt.Errorf("bad status %q", row.Status)
	}
	if g.Result, err = parseResult(row.Result); err != nil {
		return nil, err
	}
	if g.EndOffer, err = parseSide(row.EndOffer); err != nil {
		return nil, err
	}
	if g.RematchOffer, err = parseSide(row.RematchOffer); err != nil {
		return nil, err
	}
	if g.Position, err = g.Rules.ParsePosition(row.Position); err != nil {
		return nil, err
	}
	if g.start, err = g.Rules.ParsePosition(row.StartPosition); err != nil {
		return nil, err
	}
	if g.agreements, err = parseAgreements(row.Agreements); err != nil {
		return nil, err
	}
	return g, nil
}

// headOf returns the Head of a stored row.
func headOf(row *models.Game) Head {
	h := Head{ID: row.ID, Status: Status(row.Status), Version: row.Version,
		Seats: [2]Seat{seatOf(row.SouthToken, row.SouthUserID, row.SouthPlayer),
			seatOf(row.NorthToken, row.NorthUserID, row.NorthPlayer)}}
	h.Seats[engine.South].Computer, h.Seats[engine.North].Computer = search.Level(row.SouthComputer), search.Level(row.NorthComputer)
	return h
}

// seatOf returns the Seat of a row's token, account and player.
func seatOf(token string, userID *uint, p *models.Player) Seat {
	s := Seat{Token: token, UserID: userID}
	if p != nil {
		s.Name, s.Deleted, s.Bot = p.Name, p.Deleted, p.Bot
	}
	return s
}

// replay builds g.Engine by replaying the stored moves (pits, in ply
// order) with the agreements between them, and works out the cache
// (labels, resume point, rounds) from it.
func (g *Game) replay(pits []int) error {
	g.Last, g.Rounds, g.roundsJSON = nil, nil, ""
	g.resume = newResume(g.Rules, g.start)
	prev := snapshot(engine.NewGame(g.Rules, g.start))
	eg, err := engine.ReplayMatch(g.Rules, g.start, pits, g.agreements, func(eg *engine.Game, mv engine.Move, agreement bool) {
		g.Engine = eg
		g.noteStep(prev, mv, agreement)
		prev = snapshot(eg)
	})
	if err != nil {
		return err
	}
	g.Engine = eg
	var labels strings.Builder
	for _, pit := range pits {
		labels.WriteString(engine.Label(pit))
	}
	g.labels = labels.String()
	return nil
}

// noteStep records a step just played on g.Engine, from the state before
// it: the last step, the end of a Nam-nam round, and the resume point.
func (g *Game) noteStep(before state, mv engine.Move, agreement bool) {
	g.Last = &Step{Move: mv, Agreement: agreement}
	if mv.RoundOver {
		g.Rounds = append(g.Rounds, RoundEnd{Moves: len(g.Engine.Moves), Agreement: agreement,
			Reason: mv.RoundReason, Totals: mv.Totals, Next: mv.Next, End: mv.End, Starter: before.Starter})
		g.roundsJSON = encodeRounds(g.Rules, g.Rounds)
	}
	moves, agreed := len(g.Engine.Moves), len(g.Engine.Agreements)
	if agreement {
		agreed--
	} else {
		moves--
	}
	g.resume.note(before, mv, agreement, moves, agreed)
}

// row returns the stored row of g with its cache columns (without the
// accounts, which only CreateGame and ClaimSeat write).
func (g *Game) row() *models.Game {
	return &models.Game{
		ID: g.ID, SpectatorKey: g.SpectatorKey, Rules: g.Rules.Name(), Fours: Fours(g.Rules),
		StartPosition: g.Rules.FormatPosition(g.start), Position: g.Rules.FormatPosition(g.Position),
		Status: string(g.Status), Result: g.Result.String(), Reason: string(g.Reason), AbortedEnd: g.AbortedEnd,
		Version:    g.Version,
		SouthToken: g.Seats[engine.South].Token, NorthToken: g.Seats[engine.North].Token,
		SouthUserID: g.Seats[engine.South].UserID, NorthUserID: g.Seats[engine.North].UserID,
		EndOffer: sideString(g.EndOffer), RematchOffer: sideString(g.RematchOffer), RematchID: g.RematchID,
		Agreements: g.agreementList, SouthRoundSeen: g.RoundSeen[engine.South], NorthRoundSeen: g.RoundSeen[engine.North],
		MoveLabels: g.labels, Resume: g.resume.encode(g.Rules), Rounds: g.roundsJSON,
		CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt,
		ClockInitial: g.Clock.Initial, ClockIncrement: g.Clock.Increment, ClockDays: g.Clock.Days,
		SouthMS: g.Clock.Left[engine.South].Milliseconds(), NorthMS: g.Clock.Left[engine.North].Milliseconds(),
		TurnSince: timeOrNil(g.Clock.TurnSince), Deadline: timeOrNil(g.Clock.Deadline),
		Rated: g.Rated, SouthRating: g.Ratings[engine.South], NorthRating: g.Ratings[engine.North], Unrated: g.Unrated,
		SouthComputer: int(g.Seats[engine.South].Computer), NorthComputer: int(g.Seats[engine.North].Computer),
		ComputerInstant: g.Instant, Hints: g.Hints, Hint: g.hint, TakebackOffer: g.takeback,
	}
}

// clockOf reads the clock of a stored row.
func clockOf(row *models.Game) Clock {
	c := Clock{TimeControl: TimeControl{Initial: row.ClockInitial, Increment: row.ClockIncrement, Days: row.ClockDays},
		Left: [2]time.Duration{time.Duration(row.SouthMS) * time.Millisecond, time.Duration(row.NorthMS) * time.Millisecond}}
	if row.TurnSince != nil {
		c.TurnSince = *row.TurnSince
	}
	if row.Deadline != nil {
		c.Deadline = *row.Deadline
	}
	return c
}

// timeOrNil returns a time to store: nil for the zero time, else in UTC
// to the microsecond (what both databases keep).
func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC().Truncate(time.Microsecond)
	return &t
}

// addAgreement appends the number of moves played to the comma-separated
// list of agreements (models.Game.Agreements).
func addAgreement(list string, moves int) string {
	if list != "" {
		list += ","
	}
	return list + strconv.Itoa(moves)
}

// parseAgreements reads models.Game.Agreements.
func parseAgreements(list string) ([]int, error) {
	if list == "" {
		return nil, nil
	}
	var plies []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad agreements %q", list)
		}
		plies = append(plies, n)
	}
	return plies, nil
}
