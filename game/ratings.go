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

// Rating integrity (issue 19), as the established sites do it:
//
//   - A rated game counts only once each player has made CountingMoves
//     moves: one in correspondence, two in real time. A rated game that
//     ends before (a resignation, a flag, a claim, an agreement) is
//     aborted: no result, not rated (abortEarly).
//   - The same two accounts play at most PairGames rated games against
//     each other in any PairWindow, all rule sets and speeds together
//     (aborted ones do not count): a later game they ask for as rated is
//     played casual, and its page and the lobby say so (capPair).
//   - The leaderboard lists the players with at least LeaderGames rated
//     games in the category and one of them in the last LeaderDays days.
const (
	PairGames   = 3
	PairWindow  = 24 * time.Hour
	LeaderGames = ProvisionalGames
	LeaderDays  = 30
)

// MaxRatingBound is the highest bound of a challenge's rating range.
const MaxRatingBound = 5000

// UnratedPair is Game.Unrated of a game played casual because its players
// had played PairGames rated games against each other in PairWindow.
const UnratedPair = "pair"

// CountingMoves returns how many moves each player makes before a rated
// game with tc counts: 2 in real time, 1 in correspondence.
func CountingMoves(tc TimeControl) int {
	if tc.Days > 0 {
		return 1
	}
	return 2
}

// counts reports whether each player of g has made CountingMoves moves.
func (g *Game) counts() bool {
	need := CountingMoves(g.Clock.TimeControl)
	if len(g.Engine.Moves) < 2*need {
		return false
	}
	var made [2]int
	_, err := engine.ReplayMatch(g.Rules, g.start, g.Engine.Moves, g.agreements, func(_ *engine.Game, mv engine.Move, agreement bool) {
		if !agreement && (mv.Mover == engine.South || mv.Mover == engine.North) {
			made[mv.Mover]++
		}
	})
	return err == nil && made[engine.South] >= need && made[engine.North] >= need
}

// abortEarly makes the rated game g, which has just ended (it was not over
// as stored), aborted (no result, not rated) when it ended before it
// counts.
func (g *Game) abortEarly() {
	if g.Rated && g.Status == Over && g.stored.status != Over && g.Reason != ReasonAborted && !g.counts() {
		g.Result, g.Reason = engine.NoResult, ReasonAborted
	}
}

// capPair plays the rated game g, just created, casual when its two
// players already have PairGames rated games against each other, created
// in the PairWindow before it (models.DB.PairRatedGames: in the order of
// creation, so that of two games created at once the later is the one
// made casual). Failures are logged; the game then stays rated.
func (s *Service) capPair(ctx context.Context, g *Game) {
	south, north := g.Seats[engine.South].UserID, g.Seats[engine.North].UserID
	if !g.Rated || south == nil || north == nil {
		return
	}
	n, err := s.db.PairRatedGames(ctx, *south, *north, PairWindow, g.ID)
	if err == nil && n >= PairGames {
		err = s.db.SetCasual(ctx, g.ID, UnratedPair)
		if err == nil {
			g.Rated, g.Unrated, g.Ratings = false, UnratedPair, [2]string{}
		}
	}
	if err != nil {
		s.log.Error("ratings: per-pair limit", "game", g.ID, "err", err)
	}
}

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
	for _, r := range engine.RuleSets() {
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
