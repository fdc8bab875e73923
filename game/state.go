package game

import (
	"fmt"
	"strconv"
	"strings"

	"oware/engine"
	"oware/models"
)

// fromRow builds the Game of a stored row and its moves (pits, in ply
// order): the engine's game is rebuilt by replaying the moves with the
// agreements between them.
func fromRow(row *models.Game, pits []int) (*Game, error) {
	g := &Game{
		ID: row.ID, SpectatorKey: row.SpectatorKey, Status: Status(row.Status), Reason: engine.Reason(row.Reason),
		Version: row.Version, RematchID: row.RematchID, RoundSeen: [2]int{row.SouthRoundSeen, row.NorthRoundSeen},
		CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt, agreements: row.Agreements,
		Seats: [2]Seat{{Token: row.SouthToken, UserID: row.SouthUserID}, {Token: row.NorthToken, UserID: row.NorthUserID}},
	}
	// The stored game is unreadable: a server fault, never a refusal.
	bad := func(err error) (*Game, error) { return nil, fmt.Errorf("game %s: %v", row.ID, err) }
	var err error
	if g.Rules, err = engine.NewRules(row.Rules, row.Fours); err != nil {
		return bad(err)
	}
	switch g.Status {
	case Waiting, Playing, Over:
	default:
		return bad(fmt.Errorf("bad status %q", row.Status))
	}
	if g.Result, err = parseResult(row.Result); err != nil {
		return bad(err)
	}
	if g.EndOffer, err = parseSide(row.EndOffer); err != nil {
		return bad(err)
	}
	if g.RematchOffer, err = parseSide(row.RematchOffer); err != nil {
		return bad(err)
	}
	if g.Position, err = g.Rules.ParsePosition(row.Position); err != nil {
		return bad(err)
	}
	start, err := g.Rules.ParsePosition(row.StartPosition)
	if err != nil {
		return bad(err)
	}
	agreements, err := parseAgreements(row.Agreements)
	if err != nil {
		return bad(err)
	}
	g.Engine, err = engine.ReplayMatch(g.Rules, start, pits, agreements, g.record)
	if err != nil {
		return bad(err)
	}
	return g, nil
}

// record notes a step of a replay or a play: the last step and the ends of
// Nam-nam rounds.
func (g *Game) record(eg *engine.Game, mv engine.Move, agreement bool) {
	g.Last = &Step{Move: mv, Agreement: agreement}
	if mv.RoundOver {
		g.Rounds = append(g.Rounds, RoundEnd{Moves: len(eg.Moves), Agreement: agreement,
			Reason: mv.RoundReason, Totals: mv.Totals, Next: mv.Next})
	}
}

// row returns the stored row of g (without the accounts, which only
// CreateGame and ClaimSeat write).
func (g *Game) row() *models.Game {
	return &models.Game{
		ID: g.ID, SpectatorKey: g.SpectatorKey, Rules: g.Rules.Name(), Fours: Fours(g.Rules),
		StartPosition: g.Rules.FormatPosition(g.Engine.Start), Position: g.Rules.FormatPosition(g.Position),
		Status: string(g.Status), Result: g.Result.String(), Reason: string(g.Reason), Version: g.Version,
		SouthToken: g.Seats[engine.South].Token, NorthToken: g.Seats[engine.North].Token,
		SouthUserID: g.Seats[engine.South].UserID, NorthUserID: g.Seats[engine.North].UserID,
		EndOffer: sideString(g.EndOffer), RematchOffer: sideString(g.RematchOffer), RematchID: g.RematchID,
		Agreements: g.agreements, SouthRoundSeen: g.RoundSeen[engine.South], NorthRoundSeen: g.RoundSeen[engine.North],
		CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt,
	}
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
