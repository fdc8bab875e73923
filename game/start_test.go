package game_test

import (
	"errors"
	"testing"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// TestCreateFromPosition: a game created from a start position (a
// lesson's practice) is played from it, stored with it, and loads again
// at it; a bad or finished start is refused with ErrBadSettings.
func TestCreateFromPosition(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		const start = "1-1-0-0-1-3-0-0-0-0-0-2-20-20-S"
		g, _, err := s.Create(ctx, game.Settings{Rules: "abapa", Start: start})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Join(ctx, g); err != nil {
			t.Fatal(err)
		}
		// B (1) sows C: 1-0-1-0-1-3 for South, North to move.
		if err := s.Move(ctx, g, engine.South, "B"); err != nil {
			t.Fatal(err)
		}
		back, err := s.Load(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Rules.FormatPosition(back.Position); got != "1-0-1-0-1-3-0-0-0-0-0-2-20-20-N" {
			t.Errorf("after B: %s", got)
		}
		for _, bad := range []game.Settings{
			{Rules: "abapa", Start: "4-4-4"},
			{Rules: "abapa", Start: "0-0-0-0-0-0-1-2-0-3-0-1-21-20-S"}, // South has no move
			{Rules: "abapa", Start: "0-0-0-0-1-1-1-1-1-1-0-0-25-17-S"}, // South has 25
			{Rules: "namnam", Start: "4-4-4"},
			{Rules: "namnam", Start: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"},                                 // no owners
			{Rules: "namnam", Start: "0-0-0-0-0-1-2-0-0-0-0-0-23-18-S-SSSSSSNNNNNN-2-2"},              // 3 seeds: the round is over (RULES.md 4.5)
			{Rules: "namnam", Start: "0-0-0-0-0-0-3-1-0-0-0-0-22-18-S-SSSSSSNNNNNN-2-2"},              // South owns no pit with seeds
			{Rules: "namnam", Fours: "some", Start: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0"}, // no such fours setting
		} {
			if _, _, err := s.Create(ctx, bad); !errors.Is(err, game.ErrBadSettings) {
				t.Errorf("%+v: %v, want ErrBadSettings", bad, err)
			}
		}
	})
}

// TestCreateNamNamFromPosition: a Nam-nam match starts from a round's
// position with its owners and stores (a lesson's practice) and goes on
// from it as any match does (RULES.md 4.5-4.8). The outcomes are derived
// by hand from the rule book.
func TestCreateNamNamFromPosition(t *testing.T) {
	// South's F (1 seed) makes North's a a four: South captures it (4.3),
	// and 0 seeds are left, so the round ends (4.5). Totals: South 22+4 and
	// store 2 = 28, North 18+2 = 20 (4.6). North has less: it fills a..e
	// (20, store 0) and starts; South fills A..F (24) and its last 4 the
	// right end of North's row, f, which it owns.
	const start = "0-0-0-0-0-1-3-0-0-0-0-0-22-18-S-SSSSSSNNNNNN-2-2"
	const round2 = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N-SSSSSSNNNNNS-0-0"
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		g, _, err := s.Create(ctx, game.Settings{Rules: "namnam", Fours: "last", Start: start})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Join(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.Move(ctx, g, engine.North, "a"); !errors.Is(err, game.ErrNotYourTurn) {
			t.Errorf("North first: %v, want ErrNotYourTurn", err)
		}
		if err := s.Move(ctx, g, engine.South, "F"); err != nil {
			t.Fatal(err)
		}
		back, err := s.Load(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Rules.FormatPosition(back.Position); got != round2 || back.Engine.Round != 2 || back.Status != game.Playing {
			t.Errorf("after F: %s in round %d (%s), want %s in round 2", got, back.Engine.Round, back.Status, round2)
		}
		if len(back.Rounds) != 1 || back.Rounds[0].Totals != [2]int{28, 20} {
			t.Errorf("rounds: %+v, want one ended 28 to 20", back.Rounds)
		}

		// The same round2 as the start of a match: ended at once by
		// agreement, its next round would be round2 again (every seed
		// settles to its owner: 28 and 20), the start of an earlier round
		// of the match, so the match ends there, South ahead (4.8).
		g, _, err = s.Create(ctx, game.Settings{Rules: "namnam", Start: round2})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Join(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.OfferEnd(ctx, g, engine.North); err != nil {
			t.Fatal(err)
		}
		if err := s.AnswerEnd(ctx, g, engine.South, true); err != nil {
			t.Fatal(err)
		}
		back, err = s.Load(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if back.Status != game.Over || back.Reason != engine.ReasonMatchRepetition || back.Result != engine.Winner(engine.South) {
			t.Errorf("agreed at the start: %s %s %s, want over by match repetition, South winning", back.Status, back.Reason, back.Result)
		}
	})
}
