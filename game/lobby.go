package game

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"oware/engine"
	"oware/models"
)

// The lobby: open challenges that anyone (or one named player) may
// accept, and quick pairing, which accepts a matching challenge or opens
// one. A challenge is open while its creator asks for it (a page polls,
// a program reads it with its token): past PageWait (API: APIWait)
// without that, it is gone.

// How long an open challenge lasts without its creator asking for it.
const (
	PageWait = 30 * time.Second
	APIWait  = 10 * time.Minute
)

// Player is who creates or accepts a challenge: an account (UserID, 0 for
// a guest) and an owner key that tells one creator from another
// ("u<id>" for an account, "s<key>" for a browser, "a<random>" for a
// program). Client is the client's address (an IPv6 address by its /64
// network), which a guest's challenges count against.
type Player struct {
	UserID uint
	Owner  string
	Client string
}

// MaxOpenChallenges is how many open challenges an account, or a client
// address for guests, may have at once (Player.source); past it a new one
// is refused with ErrTooManyChallenges (issue 19).
const MaxOpenChallenges = 3

// source is who p's challenges count against: "u<id>" for an account,
// "c<address>" for a guest (the owner key when the address is unknown).
func (p Player) source() string {
	switch {
	case p.UserID != 0:
		return OwnerOf(p.UserID, "")
	case p.Client != "":
		return "c" + p.Client
	}
	return p.Owner
}

// OwnerOf returns the owner key of an account, or else of a browser's key.
func OwnerOf(userID uint, browserKey string) string {
	if userID != 0 {
		return "u" + strconv.FormatUint(uint64(userID), 10)
	}
	return "s" + browserKey
}

// ChallengeSettings are the settings of a new challenge: the game's (the
// Seat is the creator's, "random" when empty) and who may accept it.
type ChallengeSettings struct {
	Settings
	// For is the username of the only player who may accept it; "" for
	// anyone.
	For string
	// MinRating and MaxRating bound the rating (in the game's category)
	// of who may accept a rated challenge; 0 for no bound.
	MinRating, MaxRating int
	// API marks a challenge of a program: it lasts APIWait.
	API bool
}

// Challenge is a challenge as the lobby shows it.
type Challenge struct {
	ID, Rules, Fours, Seat string
	Clock                  TimeControl
	Rated                  bool
	MinRating, MaxRating   int
	// By is the creator's username ("" for a guest), ByRating their
	// rating in the game's category ("" for none).
	By, ByRating string
	// ForMe marks a challenge for one player (the viewer).
	ForMe bool
	// CasualForViewer marks a rated challenge whose game would be casual
	// for the viewer: they played PairGames rated games against its
	// creator in the PairWindow (ratings.go).
	CasualForViewer bool
	// Owner is the creator's owner key; Status "open", "taken" or
	// "cancelled" (also for one whose creator left).
	Owner, Status string
	// GameID is the game's id once the challenge was taken, else "".
	GameID string
	// ByBot marks a creator that is a bot (read with By); Declined is the
	// reason the challenge was declined with ("" when it was not:
	// DeclineChallenge).
	ByBot    bool
	Declined string
	row      *models.Challenge
}

// challengeOf returns the Challenge of a row, as seen at now.
func challengeOf(ch *models.Challenge, now time.Time) *Challenge {
	c := &Challenge{ID: ch.ID, Rules: ch.Rules, Fours: ch.Fours, Seat: ch.Seat,
		Clock: TimeControl{ch.ClockInitial, ch.ClockIncrement, ch.ClockDays}, Rated: ch.Rated,
		MinRating: ch.MinRating, MaxRating: ch.MaxRating, By: ch.Creator, ForMe: ch.ForUserID != nil,
		Owner: ch.Owner, Status: ch.Status, ByBot: ch.CreatorBot, Declined: ch.Declined, row: ch}
	if c.Status == "open" && !now.Before(ch.ExpiresAt) {
		c.Status = "cancelled"
	}
	if c.Status == "taken" {
		c.GameID = ch.GameID
	}
	return c
}

// Category is the rating category of the challenge's game.
func (c *Challenge) Category() string { return Category(c.Rules, c.Clock) }

// Sent reports whether account id sent c (to one player, for the Bot
// API's events: ChallengesFor lists the challenges a bot sent too).
func (c *Challenge) Sent(id uint) bool { return c.row.UserID != nil && *c.row.UserID == id }

// NextGame returns the id the challenge's game gets once it is taken.
func (c *Challenge) NextGame() string { return c.row.GameID }

// SeatToken reports whether token holds the creator's seat of c.
func (c *Challenge) SeatToken(token string) bool {
	return token != "" && models.HashToken(token) == c.row.TokenHash
}

// CreateChallenge opens a challenge and returns it with the bearer token
// that will hold the creator's seat. Errors: ErrBadSettings,
// ErrRatedNeedsAccount, ErrRatedNeedsClock, ErrNotFound (no such player
// For), ErrTooManyChallenges (MaxOpenChallenges open, counted in the
// insert's transaction: requests at once on any instance cannot pass it),
// and the bots' (bots.go): ErrBotLobby, ErrBotsChallengeBots, ErrBotRated.
func (s *Service) CreateChallenge(ctx context.Context, set ChallengeSettings, by Player) (*Challenge, string, error) {
	ch, token, err := s.newChallenge(ctx, set, by)
	if err != nil {
		return nil, "", err
	}
	now := s.Now()
	if err := s.db.CreateChallenge(ctx, ch, now, MaxOpenChallenges); err != nil {
		return nil, "", tooMany(err)
	}
	return challengeOf(ch, now), token, nil
}

// tooMany returns ErrTooManyChallenges for models.ErrCapped, else err.
func tooMany(err error) error {
	if errors.Is(err, models.ErrCapped) {
		return ErrTooManyChallenges
	}
	return err
}

// newChallenge checks the settings of a challenge and returns its row
// (not stored) and the creator's token.
func (s *Service) newChallenge(ctx context.Context, set ChallengeSettings, by Player) (*models.Challenge, string, error) {
	r, err := engine.NewRules(set.Rules, set.Fours)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrBadSettings, err)
	}
	if set.Seat == "" {
		set.Seat = "random"
	}
	if _, err := creatorSide(set.Seat); err != nil {
		return nil, "", err
	}
	if err := set.Clock.Check(); err != nil {
		return nil, "", err
	}
	switch {
	case set.Rated && by.UserID == 0:
		return nil, "", ErrRatedNeedsAccount
	case set.Rated && !set.Clock.On():
		return nil, "", ErrRatedNeedsClock
	case set.MinRating < 0 || set.MaxRating < 0 || (set.MaxRating > 0 && set.MaxRating < set.MinRating) ||
		set.MinRating > MaxRatingBound || set.MaxRating > MaxRatingBound:
		return nil, "", fmt.Errorf("%w: %d-%d", ErrBadRatingRange, set.MinRating, set.MaxRating)
	}
	token := models.NewToken()
	wait := PageWait
	if set.API {
		wait = APIWait
	}
	ch := &models.Challenge{Rules: r.Name(), Fours: Fours(r), Seat: set.Seat,
		ClockInitial: set.Clock.Initial, ClockIncrement: set.Clock.Increment, ClockDays: set.Clock.Days,
		Rated: set.Rated, Owner: by.Owner, Source: by.source(), TokenHash: models.HashToken(token), ExpiresAt: s.Now().Add(wait)}
	if set.Rated {
		ch.MinRating, ch.MaxRating = set.MinRating, set.MaxRating
	}
	if by.UserID != 0 {
		id := by.UserID
		ch.UserID = &id
	}
	if set.For != "" {
		u, err := s.db.UserByName(ctx, set.For)
		if errors.Is(err, models.ErrNotFound) {
			return nil, "", ErrNotFound
		}
		if err != nil {
			return nil, "", err
		}
		if u.ID == by.UserID {
			return nil, "", ErrOwnChallenge
		}
		ch.ForUserID = &u.ID
	}
	if err := s.checkBotChallenge(ctx, by.UserID, deref(ch.ForUserID), set.Rated); err != nil {
		return nil, "", err
	}
	return ch, token, nil
}

// LobbySize is how many open challenges the lobby lists at most.
const LobbySize = 100

// Challenges returns the open challenges that viewer (UserID 0 for a
// visitor) may see: theirs first (by Owner), then the newest first, at
// most LobbySize, with their creators' ratings. As nobody has more than
// MaxOpenChallenges open, nobody's hide the others'.
func (s *Service) Challenges(ctx context.Context, viewer Player) ([]*Challenge, error) {
	now := s.Now()
	rows, err := s.db.OpenChallenges(ctx, now, viewer.UserID, viewer.Owner, LobbySize)
	if err != nil {
		return nil, err
	}
	byCategory := map[string][]uint{}
	out := make([]*Challenge, len(rows))
	for i := range rows {
		out[i] = challengeOf(&rows[i], now)
		if id := rows[i].UserID; id != nil && out[i].Category() != "" {
			byCategory[out[i].Category()] = append(byCategory[out[i].Category()], *id)
		}
	}
	for cat, ids := range byCategory {
		rs, err := s.ratingsOf(ctx, cat, ids...)
		if err != nil {
			return nil, err
		}
		for _, c := range out {
			if id := c.row.UserID; id != nil && c.Category() == cat {
				c.ByRating = RatingText(rs[*id])
			}
		}
	}
	return out, s.notePairs(ctx, out, viewer.UserID)
}

// notePairs marks the rated challenges of list that would be casual for
// the account viewer (0: none) under the per-pair limit.
func (s *Service) notePairs(ctx context.Context, list []*Challenge, viewer uint) error {
	if viewer == 0 {
		return nil
	}
	var opponents map[uint]int
	for _, c := range list {
		if !c.Rated || c.row.UserID == nil {
			continue
		}
		if opponents == nil {
			var err error
			if opponents, err = s.db.RatedOpponents(ctx, viewer, PairWindow); err != nil {
				return err
			}
		}
		c.CasualForViewer = opponents[*c.row.UserID] >= PairGames
	}
	return nil
}

// FindChallenge returns challenge id in any status, or ErrNotFound.
func (s *Service) FindChallenge(ctx context.Context, id string) (*Challenge, error) {
	ch, err := s.db.FindChallenge(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return challengeOf(ch, s.Now()), nil
}

// KeepChallenge notes that the creator of the open challenge c still asks
// for it: it stays open for PageWait more (APIWait for a program's).
func (s *Service) KeepChallenge(ctx context.Context, c *Challenge, api bool) error {
	if c.Status != "open" {
		return nil
	}
	wait := PageWait
	if api {
		wait = APIWait
	}
	return s.db.KeepChallenge(ctx, c.ID, s.Now().Add(wait))
}

// CancelChallenge cancels the open challenge id.
func (s *Service) CancelChallenge(ctx context.Context, id string) error {
	_, err := s.db.CancelChallenge(ctx, id)
	return err
}

// Accept takes challenge id for p: the game starts at once, and Accept
// returns it with p's bearer token and seat. Of two players accepting at
// once, one gets the game and the other ErrChallengeTaken (also for a
// challenge taken, cancelled or gone). Other errors: ErrNotFound,
// ErrOwnChallenge, ErrNotForYou, ErrRatedNeedsAccount, ErrBotLobby,
// ErrBotBusy.
func (s *Service) Accept(ctx context.Context, id string, p Player) (*Game, string, engine.Side, error) {
	c, err := s.FindChallenge(ctx, id)
	if err != nil {
		return nil, "", engine.Nobody, err
	}
	if c.Status != "open" {
		return nil, "", engine.Nobody, ErrChallengeTaken
	}
	token := models.NewToken()
	if err := s.mayAccept(ctx, c, p); err != nil {
		return nil, "", engine.Nobody, err
	}
	g, side, err := s.gameOf(c.row, p, token)
	if err != nil {
		return nil, "", engine.Nobody, err
	}
	if g.Rated {
		s.noteRatings(ctx, g)
	}
	row := g.row()
	if err := s.db.TakeChallenge(ctx, id, s.Now(), row); err != nil {
		if errors.Is(err, models.ErrConflict) {
			return nil, "", engine.Nobody, ErrChallengeTaken
		}
		return nil, "", engine.Nobody, err
	}
	g.Version, g.SpectatorKey, g.CreatedAt, g.UpdatedAt = row.Version, row.SpectatorKey, row.CreatedAt, row.UpdatedAt
	s.capPair(ctx, g)
	return g, token, side, nil
}

// mayAccept checks that p may accept the challenge c: ErrOwnChallenge,
// ErrNotForYou, ErrRatedNeedsAccount, ErrBotLobby, ErrBotBusy.
func (s *Service) mayAccept(ctx context.Context, c *Challenge, p Player) error {
	ch := c.row
	switch {
	case ch.Owner == p.Owner || (ch.UserID != nil && *ch.UserID == p.UserID):
		return ErrOwnChallenge
	case ch.ForUserID != nil && *ch.ForUserID != p.UserID:
		return ErrNotForYou
	case ch.Rated && p.UserID == 0:
		return ErrRatedNeedsAccount
	}
	if ch.Rated && (ch.MinRating > 0 || ch.MaxRating > 0) {
		rs, err := s.ratingsOf(ctx, c.Category(), p.UserID)
		if err != nil {
			return err
		}
		r := int(math.Round(rs[p.UserID].Rating))
		if r < ch.MinRating || (ch.MaxRating > 0 && r > ch.MaxRating) {
			return ErrNotForYou
		}
	}
	return s.checkBotAccept(ctx, c, p.UserID)
}

// gameOf returns the game that starts when p accepts the challenge ch,
// with p's seat held by token, and p's seat; it reads nothing (QuickPair
// calls it inside a transaction). The players' ratings are noted by the
// caller.
func (s *Service) gameOf(ch *models.Challenge, p Player, token string) (*Game, engine.Side, error) {
	if ch.Owner == p.Owner || (ch.UserID != nil && *ch.UserID == p.UserID) {
		return nil, engine.Nobody, ErrOwnChallenge
	}
	c := challengeOf(ch, s.Now())
	r, err := engine.NewRules(ch.Rules, ch.Fours)
	if err != nil {
		return nil, engine.Nobody, err
	}
	creator, err := creatorSide(ch.Seat)
	if err != nil {
		return nil, engine.Nobody, err
	}
	g := newGame(r)
	g.ID, g.Status, g.Clock.TimeControl, g.Rated = ch.GameID, Playing, c.Clock, ch.Rated
	g.Seats[creator] = Seat{Token: ch.TokenHash, UserID: ch.UserID}
	g.Seats[creator.Opponent()].Token = models.HashToken(token)
	if p.UserID != 0 {
		id := p.UserID
		g.Seats[creator.Opponent()].UserID = &id
	}
	g.runClock(s.Now())
	g.stored = g.turnNow()
	return g, creator.Opponent(), nil
}

// QuickPair is a quick-pairing button: a game of rules with tc, rated or
// not, against whoever pressed the same button before and is still
// waiting. When such a challenge is open, p takes it and QuickPair
// returns the game with p's token and seat; else it opens a challenge
// for the next one to press the button, and returns it with the token of
// the creator's seat (the game is then nil). A bot is refused
// (ErrBotLobby): bots are never paired with people this way.
func (s *Service) QuickPair(ctx context.Context, rules string, tc TimeControl, rated bool, p Player) (
	*Game, *Challenge, string, engine.Side, error) {
	set := ChallengeSettings{Settings: Settings{Rules: rules, Clock: tc, Rated: rated}}
	ch, chToken, err := s.newChallenge(ctx, set, p)
	if err != nil {
		return nil, nil, "", engine.Nobody, err
	}
	ch.PairKey = rules + "/" + tc.String() + "/" + strconv.FormatBool(rated)
	token := models.NewToken()
	var g *Game
	var side engine.Side
	now := s.Now()
	taken, err := s.db.QuickPair(ctx, ch, now, MaxOpenChallenges, func(found *models.Challenge) (*models.Game, error) {
		var err error
		g, side, err = s.gameOf(found, p, token)
		if err != nil {
			return nil, err
		}
		return g.row(), nil
	})
	if err != nil {
		return nil, nil, "", engine.Nobody, tooMany(err)
	}
	if taken == nil {
		return nil, challengeOf(ch, now), chToken, engine.Nobody, nil
	}
	g.Version = 1
	s.capPair(ctx, g)
	if g.Rated {
		s.noteRatings(ctx, g)
		if err := s.db.SetGameRatings(ctx, g.ID, g.Ratings[engine.South], g.Ratings[engine.North]); err != nil {
			s.log.Error("ratings", "game", g.ID, "err", err)
		}
	}
	return g, nil, token, side, nil
}
