// Package tournament runs arenas and Swiss events: their settings, who
// plays, the pairings and the standings. The pairing and scoring rules are
// pure code (arena.go, swiss.go, scoring.go) tested on their own; the
// Service keeps tournaments in the database (package models) and has every
// game made and played by package game, so clocks, ratings and fair play
// apply to tournament games as to any other. It imports game, models and
// engine; handlers and cmd/oware import it.
//
// Swiss rounds are paired by the FIDE Dutch system (C.04.3, the 2017
// rules; South for White). Implemented: A.2 order, A.4 floats, A.6 seat
// preferences; B brackets of residents and MDPs, MaxPairs and M1, S1/S2
// and Limbo, remainders; D.1 transpositions, D.2 and D.3 exchanges in
// the rules' order; the absolute criteria C.1-C.4 and the quality
// criteria C.5, C.6 and C.10-C.15; the seats E.1-E.5; the bye to the
// player left over in the last bracket. Not implemented: C.7, C.8-C.9
// and the topscorers' exception to C.3, C.16-C.19, the collapsed last
// bracket (A.9). Details in swiss.go and docs/tournaments.md.
package tournament

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// The refusals of the service. Test them with errors.Is.
var (
	ErrNotFound = errors.New("tournament: no such tournament")
	// ErrBadSettings wraps each refusal of bad settings below.
	ErrBadSettings = errors.New("tournament: bad settings")
	ErrBadKind     = fmt.Errorf("%w: kind is arena or swiss", ErrBadSettings)
	ErrBadName     = fmt.Errorf("%w: a name of 1 to %d characters", ErrBadSettings, MaxName)
	ErrBadMinutes  = fmt.Errorf("%w: an arena lasts %d to %d minutes", ErrBadSettings, MinMinutes, MaxMinutes)
	ErrBadRounds   = fmt.Errorf("%w: a Swiss event has 1 to %d rounds", ErrBadSettings, MaxRounds)
	ErrBadInterval = fmt.Errorf("%w: rounds every 0 or %d to %d minutes", ErrBadSettings, MinRoundMinutes, MaxRoundMinutes)
	ErrBadStart    = fmt.Errorf("%w: the start is 0 to %d seconds away", ErrBadSettings, int(MaxStartsIn/time.Second))
	ErrBadClock    = fmt.Errorf("%w: a real-time clock (%d s to %d s, 0 to %d s a move)", ErrBadSettings,
		game.MinInitial, game.MaxInitial, game.MaxIncrement)
	ErrBadPassword = fmt.Errorf("%w: a password of at most %d characters", ErrBadSettings, MaxPassword)
	ErrBadAdmits   = fmt.Errorf("%w: admits is %s, %s or %s", ErrBadSettings, AdmitPeople, AdmitBots, AdmitBoth)
	// ErrNeedsAccount: creating and joining need an account.
	ErrNeedsAccount = errors.New("tournament: an account is needed")
	// ErrTooMany: the account has MaxOpen tournaments not finished.
	ErrTooMany = errors.New("tournament: too many tournaments not finished")
	// ErrFinished: the tournament is over.
	ErrFinished = errors.New("tournament: the tournament is over")
	// ErrWrongPassword: the tournament has a password, and it was not
	// given.
	ErrWrongPassword = errors.New("tournament: wrong password")
	// ErrFull: the tournament has MaxPlayers players.
	ErrFull = errors.New("tournament: the tournament is full")
	// ErrForfeited: the player was withdrawn after MaxForfeits games
	// without a first move and may not join again.
	ErrForfeited = errors.New("tournament: withdrawn for not making first moves")
	// ErrTooLate: a Swiss event may be joined only until half of its
	// rounds are paired (late joiners get half a point for each round
	// missed, swiss.go).
	ErrTooLate = errors.New("tournament: too late to join")
	// ErrNotPlayer: the account is not a player of the tournament.
	ErrNotPlayer = errors.New("tournament: not a player of the tournament")
	// ErrBotsOnly: a person may not join a tournament that admits bots
	// only; ErrPeopleOnly: a bot may not join one that admits people only
	// (issue 35).
	ErrBotsOnly   = errors.New("tournament: the tournament admits bots only")
	ErrPeopleOnly = errors.New("tournament: the tournament admits people only")
)

// Who a tournament admits (Settings.Admits, models.Tournament.Admits;
// issue 35): people only (the default, and every tournament made before
// bots), bots only, or both. In a tournament that admits both, a game of
// a bot and a person is casual (package game), a game of two bots or two
// people is rated when the tournament is.
const (
	AdmitPeople = "people"
	AdmitBots   = "bots"
	AdmitBoth   = "both"
)

// Admits reports whether t admits an account that is a bot (bot) or a
// person; a tournament whose Admits is "" admits people only.
func Admits(t *models.Tournament, bot bool) bool {
	switch t.Admits {
	case AdmitBoth:
		return true
	case AdmitBots:
		return bot
	}
	return !bot
}

// The bounds of a tournament.
const (
	MaxName    = 60
	MinMinutes = 5
	MaxMinutes = 720
	MaxRounds  = 15
	// A Swiss event's rounds start every RoundMinutes at the latest
	// (Settings.RoundMinutes): 0 (when the last is over), or this many.
	MinRoundMinutes = 5
	MaxRoundMinutes = 24 * 60
	MaxStartsIn     = 7 * 24 * time.Hour
	MaxPassword     = 100
	MaxOpen         = 3   // tournaments not finished per account
	MaxPlayers      = 500 // players per tournament
	MaxForfeits     = 2   // games without a first move before a withdrawal
)

// orphanAfter is how long a pairing may wait for its game (made right
// after the pairing is stored) before it counts as void: its instance
// stopped in between.
const orphanAfter = time.Minute

// Service runs the tournaments. It is safe for concurrent use.
type Service struct {
	db    *models.DB
	games *game.Service
	log   *slog.Logger
	// Hourly makes Tick create the hourly arenas (hourly.go).
	Hourly bool

	mu           sync.Mutex
	busy, again  map[string]bool // the passes running, and those asked again meanwhile
	onChange     []func(id string)
	lastSchedule time.Time
}

// New returns the tournaments of db, whose games games makes and plays.
// It hooks itself to games' end (game.Service.OnStore): a finished
// tournament game starts a pairing pass of its tournament at once.
func New(db *models.DB, games *game.Service, log *slog.Logger) *Service {
	s := &Service{db: db, games: games, log: log, busy: map[string]bool{}, again: map[string]bool{}}
	games.OnStore(s.stored)
	return s
}

// OnChange adds f to what runs (in a goroutine of its own) after
// tournament id changed in this instance (a game's end, new pairings, a
// player joined or left, a new status); the live standings use it. Call
// it before serving.
func (s *Service) OnChange(f func(id string)) { s.onChange = append(s.onChange, f) }

// stored is the hook of every stored game: a tournament game that ended
// asks for a pass of its tournament.
func (s *Service) stored(ctx context.Context, g *game.Game) {
	if g.Status != game.Over {
		return
	}
	tg, err := s.db.TournamentOfGame(ctx, g.ID)
	if err != nil {
		if !errors.Is(err, models.ErrNotFound) {
			s.log.Error("tournament of game", "game", g.ID, "err", err)
		}
		return
	}
	s.changed(tg.TournamentID) // the standings moved
	s.Kick(tg.TournamentID)
}

// Kick runs a pass of tournament id in the background: at once, or right
// after the pass already running.
func (s *Service) Kick(id string) {
	s.mu.Lock()
	if s.busy[id] {
		s.again[id] = true
		s.mu.Unlock()
		return
	}
	s.busy[id] = true
	s.mu.Unlock()
	go func() {
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if err := s.Pass(ctx, id); err != nil && !errors.Is(err, models.ErrTournamentChanged) {
				s.log.Error("tournament pass", "tournament", id, "err", err)
			}
			cancel()
			s.mu.Lock()
			if !s.again[id] {
				delete(s.busy, id)
				s.mu.Unlock()
				return
			}
			delete(s.again, id)
			s.mu.Unlock()
		}
	}()
}

// changed runs the OnChange hooks for id, in a goroutine.
func (s *Service) changed(id string) {
	for _, f := range s.onChange {
		go f(id)
	}
}

// Settings are the settings of a new tournament.
type Settings struct {
	Kind, Name, Rules, Fours string
	Clock                    game.TimeControl
	// Minutes is an arena's duration; Rounds a Swiss event's.
	Minutes, Rounds int
	// RoundMinutes, for a Swiss event, schedules its rounds: round r
	// starts at the latest StartsIn + (r - 1) * RoundMinutes after now
	// (earlier when every game of round r - 1 is over). 0: a round starts
	// only once every game of the last is over.
	RoundMinutes int
	// StartsIn is the time to the start.
	StartsIn time.Duration
	Rated    bool
	// Password, when not "", is asked of who joins.
	Password string
	// Admits is who may join: AdmitPeople ("" is the same), AdmitBots or
	// AdmitBoth.
	Admits string
}

// check checks set and returns the rule set.
func (set *Settings) check() (engine.Rules, error) {
	set.Name = strings.TrimSpace(set.Name)
	if set.Admits == "" {
		set.Admits = AdmitPeople
	}
	switch {
	case set.Kind != "arena" && set.Kind != "swiss":
		return nil, ErrBadKind
	case set.Name == "" || utf8.RuneCountInString(set.Name) > MaxName:
		return nil, ErrBadName
	case set.Kind == "arena" && (set.Minutes < MinMinutes || set.Minutes > MaxMinutes):
		return nil, ErrBadMinutes
	case set.Kind == "swiss" && (set.Rounds < 1 || set.Rounds > MaxRounds):
		return nil, ErrBadRounds
	case set.RoundMinutes != 0 && (set.Kind != "swiss" || set.RoundMinutes < MinRoundMinutes || set.RoundMinutes > MaxRoundMinutes):
		return nil, ErrBadInterval
	case set.StartsIn < 0 || set.StartsIn > MaxStartsIn:
		return nil, ErrBadStart
	case set.Clock.Days != 0 || set.Clock.Initial == 0 || set.Clock.Check() != nil:
		return nil, ErrBadClock
	case utf8.RuneCountInString(set.Password) > MaxPassword:
		return nil, ErrBadPassword
	case set.Admits != AdmitPeople && set.Admits != AdmitBots && set.Admits != AdmitBoth:
		return nil, ErrBadAdmits
	}
	r, err := engine.NewRules(set.Rules, set.Fours)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSettings, err)
	}
	return r, nil
}

// Create makes a tournament of set by account by (0: none, refused) and
// returns it.
func (s *Service) Create(ctx context.Context, set Settings, by uint) (*models.Tournament, error) {
	r, err := set.check()
	if err != nil {
		return nil, err
	}
	if by == 0 {
		return nil, ErrNeedsAccount
	}
	t := newTournament(set, r, s.games.Now())
	t.CreatedBy = &by
	err = s.db.CreateOwnTournament(ctx, t, s.games.Now(), MaxOpen)
	if errors.Is(err, models.ErrCapped) {
		return nil, ErrTooMany
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// newTournament returns the row of a tournament of set (checked) made at
// now.
func newTournament(set Settings, r engine.Rules, now time.Time) *models.Tournament {
	t := &models.Tournament{Kind: set.Kind, Name: set.Name, Rules: r.Name(), Fours: game.Fours(r),
		ClockInitial: set.Clock.Initial, ClockIncrement: set.Clock.Increment, Rated: set.Rated,
		Admits: cmp.Or(set.Admits, AdmitPeople), StartsAt: now.Add(set.StartsIn).UTC()}
	if set.Password != "" {
		t.PasswordHash = models.HashToken(set.Password)
	}
	t.EndsAt = t.StartsAt
	if set.Kind == "arena" {
		t.Minutes = set.Minutes
		t.EndsAt = t.StartsAt.Add(time.Duration(set.Minutes) * time.Minute)
	} else {
		t.Rounds, t.RoundMinutes = set.Rounds, set.RoundMinutes
	}
	return t
}

// List returns the tournaments to show: running, then upcoming, then the
// latest finished (at most limit of each).
func (s *Service) List(ctx context.Context, limit int) (running, upcoming, finished []models.Tournament, err error) {
	if running, err = s.db.Tournaments(ctx, []string{"running"}, limit); err != nil {
		return
	}
	if upcoming, err = s.db.Tournaments(ctx, []string{"created"}, limit); err != nil {
		return
	}
	finished, err = s.db.Tournaments(ctx, []string{"finished"}, limit)
	return
}

// Find returns tournament id, or ErrNotFound.
func (s *Service) Find(ctx context.Context, id string) (*models.Tournament, error) {
	t, err := s.db.FindTournament(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, ErrNotFound
	}
	return t, err
}

// TimeControl returns t's clock.
func TimeControl(t *models.Tournament) game.TimeControl {
	return game.TimeControl{Initial: t.ClockInitial, Increment: t.ClockIncrement}
}

// Join adds account userID to tournament id (password: the one asked,
// if any). Joining again after a withdrawal is allowed (not after
// MaxForfeits forfeits). A Swiss player who joins late plays from the
// next round and gets half a point for each round paired before
// (lateByes); a new player is refused (ErrTooLate) once more than half
// the rounds are paired.
func (s *Service) Join(ctx context.Context, id string, userID uint, password string) error {
	if userID == 0 {
		return ErrNeedsAccount
	}
	t, err := s.Find(ctx, id)
	if err != nil {
		return err
	}
	u, err := s.db.UserByID(ctx, userID)
	if errors.Is(err, models.ErrNotFound) {
		return ErrNeedsAccount
	}
	if err != nil {
		return err
	}
	switch {
	case t.Status == "finished":
		return ErrFinished
	case !Admits(t, u.Bot) && u.Bot:
		return ErrPeopleOnly
	case !Admits(t, u.Bot):
		return ErrBotsOnly
	case t.PasswordHash != "" && models.HashToken(password) != t.PasswordHash:
		return ErrWrongPassword
	}
	v, err := s.View(ctx, t)
	if err != nil {
		return err
	}
	if st := v.Standing(userID); st != nil && st.Forfeits >= MaxForfeits {
		return ErrForfeited
	}
	if v.Player(userID) == nil && len(v.Players) >= MaxPlayers {
		return ErrFull
	}
	if v.Player(userID) == nil && t.Kind == "swiss" && 2*t.Round > t.Rounds {
		return ErrTooLate
	}
	// The check above answers most; this one, in the insert's transaction,
	// holds against joins at once.
	if err := s.db.JoinTournament(ctx, id, userID, t.Round, s.games.Now(), MaxPlayers); errors.Is(err, models.ErrCapped) {
		return ErrFull
	} else if err != nil {
		return err
	}
	s.Kick(id)
	s.changed(id)
	return nil
}

// Withdraw withdraws account userID from tournament id: they are paired no
// more; a game in progress is played to its end and counts.
func (s *Service) Withdraw(ctx context.Context, id string, userID uint) error {
	if userID == 0 {
		return ErrNeedsAccount
	}
	if _, err := s.Find(ctx, id); err != nil {
		return err
	}
	ok, err := s.db.WithdrawTournament(ctx, id, userID)
	if err != nil {
		return err
	}
	if !ok {
		return ErrNotPlayer
	}
	s.changed(id)
	return nil
}
