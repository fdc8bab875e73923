package tournament

import (
	"context"
	"errors"
	"time"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// HourlyControls are the time controls of the hourly arenas (Abapa,
// rated): one arena of each starts every hour, on the hour, and lasts
// HourlyMinutes.
var HourlyControls = []game.TimeControl{{Initial: 60, Increment: 1}, {Initial: 180, Increment: 2}, {Initial: 300, Increment: 3}}

// HourlyMinutes is the duration of an hourly arena.
const HourlyMinutes = 55

// schedule makes the hourly arenas of the next hour that do not exist
// yet: each has a unique key (models.Tournament.Schedule), so several
// instances make each once.
func (s *Service) schedule(ctx context.Context, now time.Time) error {
	next := now.UTC().Truncate(time.Hour).Add(time.Hour)
	r, err := engine.RulesByName("abapa")
	if err != nil {
		return err
	}
	for _, tc := range HourlyControls {
		key := "hourly/abapa/" + tc.String() + "/" + next.Format("2006-01-02T15")
		set := Settings{Kind: "arena", Name: "Hourly Abapa " + tc.String(), Rules: "abapa", Clock: tc,
			Minutes: HourlyMinutes, Rated: true, StartsIn: next.Sub(now)}
		t := newTournament(set, r, now)
		t.StartsAt, t.EndsAt, t.Schedule = next, next.Add(HourlyMinutes*time.Minute), &key
		if err := s.db.CreateTournament(ctx, t, now); err != nil && !errors.Is(err, models.ErrConflict) {
			return err
		}
	}
	return nil
}
