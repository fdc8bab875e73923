package game

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"oware/engine"
	"oware/game/glicko"
	"oware/models"
)

// Ratings are Glicko-2 ratings (package glicko), one per account and
// category: a rule set and a speed ("abapa-realtime",
// "namnam-correspondence"). Only rated games count: both players have an
// account and the game a clock. Each game is a rating period of its own,
// applied when the game ends; an aborted game changes nothing.

// ProvisionalGames is how many rated games of a category a rating stays
// provisional for (shown with a "?").
const ProvisionalGames = 10

// Speeds are the speeds of the categories.
var Speeds = []string{"realtime", "correspondence"}

// Category returns the rating category of a game of rules with tc: "" for
// a game without a clock.
func Category(rules string, tc TimeControl) string {
	if tc.Speed() == "" {
		return ""
	}
	return rules + "-" + tc.Speed()
}

// SplitCategory returns the rule set and the speed of a category, and
// whether it is one.
func SplitCategory(c string) (rules, speed string, ok bool) {
	rules, speed, ok = strings.Cut(c, "-")
	if _, err := engine.RulesByName(rules); err != nil || (speed != "realtime" && speed != "correspondence") {
		return "", "", false
	}
	return rules, speed, ok
}

// Categories returns every category, rule set by rule set.
func Categories() []string {
	var out []string
	for _, r := range []string{"abapa", "wari", "warri", "namnam"} {
		for _, s := range Speeds {
			out = append(out, r+"-"+s)
		}
	}
	return out
}

// CategoryOf returns g's rating category.
func CategoryOf(g *Game) string { return Category(g.Rules.Name(), g.Clock.TimeControl) }

// RatingText writes a rating as shown next to a name: "1500", or "1500?"
// while provisional.
func RatingText(r models.Rating) string {
	s := strconv.Itoa(int(math.Round(r.Rating)))
	if r.Games < ProvisionalGames {
		s += "?"
	}
	return s
}

// fresh is a new player's rating.
func fresh() models.Rating {
	n := glicko.New()
	return models.Rating{Rating: n.Rating, Deviation: n.Deviation, Volatility: n.Volatility}
}

// ratingsOf returns the ratings of accounts ids in category (a fresh one
// for an account without one).
func (s *Service) ratingsOf(ctx context.Context, category string, ids ...uint) (map[uint]models.Rating, error) {
	rs, err := s.db.Ratings(ctx, category, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := rs[id]; !ok {
			rs[id] = fresh()
		}
	}
	return rs, nil
}

// noteRatings writes the ratings of g's players as the game starts into
// g.Ratings (left empty when they cannot be read: they are only shown).
func (s *Service) noteRatings(ctx context.Context, g *Game) {
	var ids []uint
	for _, seat := range g.Seats {
		if seat.UserID != nil {
			ids = append(ids, *seat.UserID)
		}
	}
	rs, err := s.ratingsOf(ctx, CategoryOf(g), ids...)
	if err != nil {
		s.log.Error("ratings", "game", g.ID, "err", err)
		return
	}
	for i, seat := range g.Seats {
		if seat.UserID != nil {
			g.Ratings[i] = RatingText(rs[*seat.UserID])
		}
	}
}

// rate applies the result of the rated game g, just stored as over, to its
// players' ratings, once (models.DB.ApplyRatings): an aborted game, or one
// without two accounts, changes nothing. Failures are logged; the sweeper
// applies what was missed (RateMissed).
func (s *Service) rate(ctx context.Context, g *Game) {
	south, north := g.Seats[engine.South].UserID, g.Seats[engine.North].UserID
	if !g.Rated || g.Status != Over || g.Result == engine.NoResult || south == nil || north == nil || *south == *north {
		return
	}
	score := 0.5
	switch g.Result {
	case engine.SouthWins:
		score = 1
	case engine.NorthWins:
		score = 0
	}
	f := fresh()
	err := s.db.ApplyRatings(context.WithoutCancel(ctx), g.ID, CategoryOf(g), [2]uint{*south, *north}, f,
		func(old [2]models.Rating) [2]models.Rating {
			a, b := toGlicko(old[0]), toGlicko(old[1])
			na := glicko.Update(a, []glicko.Result{{Opponent: b, Score: score}}, glicko.Tau)
			nb := glicko.Update(b, []glicko.Result{{Opponent: a, Score: 1 - score}}, glicko.Tau)
			return [2]models.Rating{fromGlicko(na), fromGlicko(nb)}
		})
	if err != nil && !errors.Is(err, models.ErrConflict) {
		s.log.Error("ratings", "game", g.ID, "err", err)
	}
}

func toGlicko(r models.Rating) glicko.Rating {
	return glicko.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

func fromGlicko(r glicko.Rating) models.Rating {
	return models.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

// RateMissed applies the results of the rated games that ended since the
// given time without their ratings (an instance stopped in between); the
// sweeper calls it now and then.
func (s *Service) RateMissed(ctx context.Context, since time.Time) error {
	ids, err := s.db.UnratedGames(ctx, since, 100)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if g, err := s.Load(ctx, id); err == nil {
			s.rate(ctx, g)
		}
	}
	return nil
}

// RatingsOf returns the ratings of account id, by category.
func (s *Service) RatingsOf(ctx context.Context, id uint) ([]models.Rating, error) {
	return s.db.UserRatings(ctx, id)
}
