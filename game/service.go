package game

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"oware/engine"
	"oware/engine/search"
	"oware/models"
)

// Service loads games, plays their actions and publishes every change. It
// is safe for concurrent use.
type Service struct {
	db      *models.DB
	log     *slog.Logger
	stored  []func(context.Context, *Game)
	kept    keptGames // the games' states kept (kept.go)
	clock   func() time.Time
	pool    *Pool // the computer's searches and jobs (StartComputer); nil for none
	moved   func(time.Duration)
	outages outages // the site's heartbeat (outage.go)
	// settings are the settings of games in play read here (settings.go).
	settings keptSettings
}

// New returns the service of the games in db. Every change it stores is
// announced to the live views of every instance (models.DB.UpdateGame).
func New(db *models.DB, log *slog.Logger) *Service {
	return &Service{db: db, log: log, kept: newKeptGames(), clock: time.Now}
}

// SetClock makes the service read the time from now instead of time.Now
// (tests move the time by hand); call it before serving.
func (s *Service) SetClock(now func() time.Time) { s.clock = now }

// Now returns the service's time: in UTC, to the millisecond (the unit of
// the clocks).
func (s *Service) Now() time.Time { return s.clock().UTC().Truncate(time.Millisecond) }

// OnStore adds f to what runs after every change of a game is stored and
// published, in the request that stored it (ctx is its context), with the
// game as stored: f must not change g, and must return at once (hand long
// work to a goroutine). It is the hook of whatever must follow a change in
// this instance (the live views, a computer opponent's reply); call it
// before serving.
func (s *Service) OnStore(f func(ctx context.Context, g *Game)) { s.stored = append(s.stored, f) }

// OnMove makes the service report, after each player's move it stores
// (Move), the time from the call to the move stored and published (the
// move latency of the metrics); call it before serving.
func (s *Service) OnMove(f func(d time.Duration)) { s.moved = f }

// Load returns the game with the given id, or ErrNotFound (also for a
// string that cannot be an id). After an outage it waits for the
// heartbeat that moves the clocks on (caughtUp). It reads the game's row
// (one query) and
// rebuilds the engine's game from the row's cache; a row without a valid
// cache is rebuilt from its moves.
func (s *Service) Load(ctx context.Context, id string) (*Game, error) {
	if err := s.caughtUp(ctx); err != nil {
		return nil, s.asked(id, err)
	}
	row, err := s.db.FindGame(ctx, id)
	g, err := s.build(ctx, row, err)
	if err == nil {
		s.keep(g, nil, "")
	}
	return g, s.asked(id, err)
}

// LoadByKey returns the game whose watch link has the given key, or
// ErrNotFound.
func (s *Service) LoadByKey(ctx context.Context, key string) (*Game, error) {
	if err := s.caughtUp(ctx); err != nil {
		return nil, err
	}
	row, err := s.db.FindGameByKey(ctx, key)
	return s.build(ctx, row, err)
}

// Peek returns the head of the game with the given id or, when byKey, the
// key of its watch link: one light query, no engine; ErrNotFound when
// there is none.
func (s *Service) Peek(ctx context.Context, idOrKey string, byKey bool) (*Head, error) {
	row, err := s.db.FindGameHead(ctx, idOrKey, byKey)
	if errors.Is(err, models.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	h := headOf(row)
	return &h, nil
}

// build makes the Game of a row just read.
func (s *Service) build(ctx context.Context, row *models.Game, err error) (*Game, error) {
	if errors.Is(err, models.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	g, err := readRow(row)
	if err == nil && !s.kept.take(g) && g.resumeEngine(row.Resume) != nil {
		err = s.rebuild(ctx, g)
	}
	if err != nil && models.Unavailable(err) {
		return nil, fmt.Errorf("game %s: %w", row.ID, err) // the database away while rebuilding: 503
	}
	if err != nil {
		// The stored game is unreadable: a server fault, never a refusal.
		return nil, fmt.Errorf("game %s: %v", row.ID, err)
	}
	g.stored = g.turnNow()
	s.computerTurn(g) // whichever instance loads it schedules the computer's reply
	return g, nil
}

// keep keeps g, just read whole, while it is played (keptGames.keep),
// with gv, what was read with it for the visitor whose id hashes to
// visitor (nil and "" for none).
func (s *Service) keep(g *Game, gv *models.GameVisitor, visitor string) {
	if g.Status == Playing {
		s.kept.keep(g, gv, visitor)
	}
}

// rebuild builds g's engine game and cache from its stored moves.
func (s *Service) rebuild(ctx context.Context, g *Game) error {
	moves, err := s.db.Moves(ctx, g.ID)
	if err != nil {
		return err
	}
	pits := make([]int, len(moves))
	for i, m := range moves {
		pits[i] = m.Pit
	}
	return g.replay(pits)
}

// Settings are the table settings of a new game.
type Settings struct {
	// Rules is the rule set key ("abapa" when empty), Fours Nam-nam's fours
	// setting ("last" when empty; only for "namnam").
	Rules, Fours string
	// Seat is the creator's seat: "south" (when empty), "north" or
	// "random".
	Seat string
	// UserID is the creator's account, 0 for a guest.
	UserID uint
	// Clock is the time control (none by default).
	Clock TimeControl
	// Rated asks for a rated game: both players need an account, and the
	// game a clock (ratings.go).
	Rated bool
	// Computer is the level of the computer opponent, who takes the other
	// seat at once; 0 for a game against a person. Instant makes it answer
	// without its minimum thinking time.
	Computer search.Level
	Instant  bool
	// Start is the position string the game starts from (a lesson's
	// practice, issue 32), "" for the rule set's start; the game not over
	// in it: in Oware nobody at 25 (RULES.md 2.6), in Nam-nam a round that
	// can go on (RULES.md 4.5). It counts as the first position seen for
	// the repetition rule (RULES.md 3, fine points); in Nam-nam it is the
	// first round's start, which a later round may not repeat (RULES.md
	// 4.8), and the match goes on from it as any match does (4.6-4.7).
	Start string
}

// Create sets up a new table with the creator in their seat and returns it
// with the creator's bearer token. Bad settings are ErrBadSettings.
func (s *Service) Create(ctx context.Context, set Settings) (*Game, string, error) {
	r, err := engine.NewRules(set.Rules, set.Fours)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrBadSettings, err)
	}
	side, err := creatorSide(set.Seat)
	if err != nil {
		return nil, "", err
	}
	if err := set.Clock.Check(); err != nil {
		return nil, "", err
	}
	if set.Rated {
		return nil, "", ErrRatedNeedsLobby
	}
	g := newGame(r)
	if set.Start != "" {
		start, err := startPosition(r, set.Start)
		if err != nil {
			return nil, "", err
		}
		g = newGameAt(r, start)
	}
	g.Clock.TimeControl = set.Clock
	if err := g.seatComputer(side.Opponent(), set); err != nil {
		return nil, "", err
	}
	token := models.NewToken()
	g.Seats[side].Token = models.HashToken(token)
	if set.UserID != 0 {
		id := set.UserID
		g.Seats[side].UserID = &id
	}
	g.runClock(s.Now())
	row := g.row()
	if err := s.db.CreateGame(ctx, row); err != nil {
		return nil, "", fmt.Errorf("create game: %w", err)
	}
	g.stored = g.turnNow()
	g.ID, g.SpectatorKey, g.Version, g.CreatedAt, g.UpdatedAt = row.ID, row.SpectatorKey, row.Version, row.CreatedAt, row.UpdatedAt
	s.computerTurn(g)
	return g, token, nil
}

// startPosition reads the start position s of a game under r (Settings.Start).
// In Nam-nam it is the start of the match's first round, owners and stores
// as the string gives them (RULES.md 4); the round must be able to go on:
// 4 seeds or more on the board and a legal move (RULES.md 4.5).
func startPosition(r engine.Rules, s string) (engine.Position, error) {
	p, err := r.ParsePosition(s)
	if err != nil {
		return p, fmt.Errorf("%w: %w", ErrBadSettings, err)
	}
	over := r.LegalMoves(p) == 0
	if !NamNam(r) {
		over = over || p.Captured[engine.South] >= engine.WinningCaptures || p.Captured[engine.North] >= engine.WinningCaptures
	}
	if over {
		return p, fmt.Errorf("%w: the game is over in the start position %s", ErrBadSettings, s)
	}
	return p, nil
}

// creatorSide reads the creator's seat of Settings.
func creatorSide(seat string) (engine.Side, error) {
	switch seat {
	case "", "south":
		return engine.South, nil
	case "north":
		return engine.North, nil
	case "random":
		b := make([]byte, 1)
		rand.Read(b)
		return engine.Side(b[0] & 1), nil
	}
	return engine.Nobody, fmt.Errorf("%w: seat %q", ErrBadSettings, seat)
}

// Join gives the free seat of g to a new bearer token, which it returns
// with the seat; the game starts. ErrSeatsTaken when no seat is free.
func (s *Service) Join(ctx context.Context, g *Game) (string, engine.Side, error) {
	side := g.FreeSeat()
	if side == engine.Nobody {
		return "", side, ErrSeatsTaken
	}
	token := models.NewToken()
	g.Seats[side].Token = models.HashToken(token)
	g.Status = Playing
	if err := s.store(ctx, g, nil); err != nil {
		if errors.Is(err, ErrConflict) {
			return "", side, ErrSeatsTaken
		}
		return "", side, err
	}
	return token, side, nil
}

// ClaimSeats records the account userID as the player of the seats whose
// bearer tokens hash to the given hashes (models.HashToken, by game id),
// where a seat has no account yet and the other seat is not the same
// account's: the games of a guest join the account at registration or
// login.
func (s *Service) ClaimSeats(ctx context.Context, hashes map[string]string, userID uint) {
	for id, hash := range hashes {
		g, err := s.Load(ctx, id)
		if err != nil {
			continue
		}
		if side := g.SeatByHash(hash); side != engine.Nobody {
			if _, err := s.db.ClaimSeat(ctx, id, side.String(), userID); err != nil {
				s.log.Error("claim seat", "game", id, "err", err)
			}
		}
	}
}

// inTime refuses an action on g that comes at now, when g is not being
// played or its deadline passed: then the deadline decides first, as if
// the sweeper had come before the action: the flag falls (flagFall: a
// loss on time, a draw when the opponent cannot win, an abort in the
// first moves), that end is stored, and the action is refused with late
// (ErrTimeUp for a move, ErrLate for any other action). ErrConflict when
// another request stored a change first (the sweeper's flag, or a move
// that came in time): the game must be read again.
func (s *Service) inTime(ctx context.Context, g *Game, now time.Time, late error) error {
	if err := g.checkPlaying(); err != nil {
		return err
	}
	if !g.expired(now) {
		return nil
	}
	g.flagFall()
	if err := s.write(ctx, g, now, nil, 0, nil); err != nil {
		return err
	}
	return late
}

// checkPlaying refuses actions on a game that is waiting or over.
func (g *Game) checkPlaying() error {
	switch g.Status {
	case Waiting:
		return ErrNotStarted
	case Over:
		return engine.ErrGameOver
	}
	return nil
}

// Move plays the pit labelled label for seat: the engine checks it on the
// game as stored, the mover's clock stops (runClock), and the move, the
// clocks and the game are stored with the version check in one write.
// Errors: ErrNotStarted, engine.ErrGameOver, ErrNotYourTurn, the engine's
// errors of an illegal move (ErrBadLabel, ErrNotOwnPit, ...), ErrConflict,
// and ErrTimeUp when the time of the player to move ran out before the
// move came: the game's end is stored instead.
func (s *Service) Move(ctx context.Context, g *Game, seat engine.Side, label string) error {
	return s.move(ctx, g, seat, label, nil)
}

// MoveFor is LoadSeated, then Move: it plays the pit labelled label for
// the seat visitor v holds in game id, and returns the game (nil when it
// could not be loaded, or v holds no seat) and v's seat with LoadSeated's
// or Move's errors. When this instance kept the game's state (it stored
// or read the game last, keptGames) and what decided v's seat, nothing is
// read: the engine checks the move on that state and the write carries
// the version and what the seat was decided from (models.Seen), one
// statement in all. Only when that write is refused (another instance
// wrote the game, a session ended, ...) or the move is not one to store
// at once (refused, or late) is the game read and the move checked again,
// as LoadSeated and Move do.
func (s *Service) MoveFor(ctx context.Context, id string, v Visitor, label string) (*Game, engine.Side, error) {
	if g, seat, seen := s.keptFor(id, v); g != nil {
		if err := s.move(ctx, g, seat, label, seen); err == nil {
			return g, seat, nil
		}
	}
	g, seat, err := s.LoadSeated(ctx, id, v)
	if err != nil {
		return nil, seat, err
	}
	return g, seat, s.Move(ctx, g, seat, label)
}

// errUnsure: a move on a kept state that MoveFor must judge on the game
// read again (the game is not in play, or its time ran out).
var errUnsure = errors.New("game: judged on the game as stored")

// move is Move; with seen, on a kept state (MoveFor), whose write checks
// seen, and which stores nothing but the move: errUnsure instead of
// storing the end of a game whose time ran out.
func (s *Service) move(ctx context.Context, g *Game, seat engine.Side, label string, seen *models.Seen) error {
	start := time.Now()
	now := s.Now()
	if seen != nil && (g.checkPlaying() != nil || g.expired(now)) {
		return errUnsure
	}
	if err := s.inTime(ctx, g, now, ErrTimeUp); err != nil {
		return err
	}
	if g.Engine.Over {
		return engine.ErrGameOver
	}
	if g.Engine.Position.ToMove != seat {
		return ErrNotYourTurn
	}
	pit, err := engine.ParseLabel(label)
	if err != nil {
		return err
	}
	if err := g.play(pit); err != nil {
		return err
	}
	g.EndOffer = engine.Nobody
	m := &models.Move{Ply: len(g.Engine.Moves), Pit: pit, Label: engine.Label(pit), Position: g.Rules.FormatPosition(g.Position)}
	if err := s.write(ctx, g, now, m, 0, seen); err != nil {
		return err
	}
	if s.moved != nil {
		s.moved(time.Since(start))
	}
	return nil
}

// play plays pit on g's engine game and brings g and its cache up to date.
func (g *Game) play(pit int) error {
	before := snapshot(g.Engine)
	mv, err := g.Engine.Play(pit)
	if err != nil {
		return err
	}
	g.noteStep(before, mv, false)
	g.labels += engine.Label(pit)
	g.settle()
	return nil
}

// agree ends g's game, or Nam-nam round, by agreement on its engine game
// and brings g and its cache up to date.
func (g *Game) agree() error {
	before := snapshot(g.Engine)
	mv, err := g.Engine.Agree()
	if err != nil {
		return err
	}
	g.noteStep(before, mv, true)
	g.agreements = append(g.agreements, len(g.Engine.Moves))
	g.agreementList = addAgreement(g.agreementList, len(g.Engine.Moves))
	g.settle()
	return nil
}

// newGame returns a new game of r at its start, waiting for its players.
func newGame(r engine.Rules) *Game { return newGameAt(r, r.Start()) }

// newGameAt is newGame from the position start.
func newGameAt(r engine.Rules, start engine.Position) *Game {
	return &Game{Head: Head{Status: Waiting}, Rules: r, Position: start, start: start, Engine: engine.NewGame(r, start),
		EndOffer: engine.Nobody, RematchOffer: engine.Nobody, resume: newResume(r, start)}
}

// settle copies the engine's game into g: its position and, when it is
// over, the end.
func (g *Game) settle() {
	g.Position = g.Engine.Position
	if g.Engine.Over {
		g.Status, g.Result, g.Reason = Over, g.Engine.Result, g.Engine.Reason
		g.EndOffer = engine.Nobody
	}
}

// Resign ends g: seat loses (RULES.md 2.6, 4.7).
func (s *Service) Resign(ctx context.Context, g *Game, seat engine.Side) error {
	if err := s.inTime(ctx, g, s.Now(), ErrLate); err != nil {
		return err
	}
	if err := g.Engine.Resign(seat); err != nil {
		return err
	}
	g.settle()
	return s.store(ctx, g, nil)
}

// OfferEnd records that seat proposes to end g (a Nam-nam round, or between
// rounds the match) by agreement.
func (s *Service) OfferEnd(ctx context.Context, g *Game, seat engine.Side) error {
	if err := s.inTime(ctx, g, s.Now(), ErrLate); err != nil {
		return err
	}
	if g.VsComputer() {
		return ErrVsComputer
	}
	if g.EndOffer != engine.Nobody {
		return nil
	}
	g.EndOffer = seat
	return s.store(ctx, g, nil)
}

// AnswerEnd accepts or declines the opponent's proposal to end g. On
// acceptance each player captures the seeds on their row (RULES.md 2.6);
// in Nam-nam the round ends, or between rounds the match (4.5, 4.7).
// ErrNoOffer when the opponent proposed nothing.
func (s *Service) AnswerEnd(ctx context.Context, g *Game, seat engine.Side, accept bool) error {
	if err := s.inTime(ctx, g, s.Now(), ErrLate); err != nil {
		return err
	}
	if g.EndOffer != seat.Opponent() {
		return ErrNoOffer
	}
	g.EndOffer = engine.Nobody
	if accept {
		if err := g.agree(); err != nil {
			return err
		}
	}
	return s.store(ctx, g, nil)
}

// StartRound records that seat has seen the start of the current Nam-nam
// round: the summary of the round before is no longer shown to them.
// ErrNotNamNam for an Oware game.
func (s *Service) StartRound(ctx context.Context, g *Game, seat engine.Side) error {
	if !g.NamNam() {
		return ErrNotNamNam
	}
	if err := g.checkPlaying(); err != nil {
		return err
	}
	if g.RoundSeen[seat] >= g.Engine.Round {
		return nil
	}
	g.RoundSeen[seat] = g.Engine.Round
	return s.store(ctx, g, nil)
}

// rematchTries bounds how often Rematch reads the game again after a
// conflicting write (another change of the game came first).
const rematchTries = 5

// Rematch records seat's wish for a rematch of the finished game g; when
// the opponent asked already, the new game starts with the seats swapped
// (each player keeps their token and account) and g.RematchID names it.
// When another change of g (the opponent's own wish, most often) is
// stored first, Rematch reads g again and goes on from there, so that two
// wishes sent at the same moment start exactly one rematch. ErrNotOver
// while g is not over; ErrConflict only when g keeps changing.
func (s *Service) Rematch(ctx context.Context, g *Game, seat engine.Side) error {
	for try := 1; ; try++ {
		err := s.rematchOnce(ctx, g, seat)
		if !errors.Is(err, ErrConflict) || try == rematchTries {
			return err
		}
		fresh, lerr := s.Load(ctx, g.ID)
		if lerr != nil {
			return lerr
		}
		*g = *fresh
	}
}

// rematchOnce is one try of Rematch on g as read: ErrConflict when g
// changed meanwhile (nothing is left behind then).
func (s *Service) rematchOnce(ctx context.Context, g *Game, seat engine.Side) error {
	if g.Status != Over {
		return ErrNotOver
	}
	if g.RematchID != "" || g.RematchOffer == seat {
		return nil
	}
	if g.RematchOffer == engine.Nobody && !g.VsComputer() { // the computer accepts at once
		g.RematchOffer = seat
		return s.store(ctx, g, nil)
	}
	ng := newGame(g.Rules)
	ng.Status, ng.Seats, ng.Instant = Playing, [2]Seat{g.Seats[engine.North], g.Seats[engine.South]}, g.Instant
	ng.Clock.TimeControl, ng.Rated = g.Clock.TimeControl, g.Rated || g.Unrated == UnratedPair
	if ng.Rated {
		s.noteRatings(ctx, ng)
	}
	ng.runClock(s.Now())
	row := ng.row()
	row.ID = models.NewGameID()
	// The rematch exists before anyone hears of it; the version-checked
	// write then decides which answer started it, and a game that lost is
	// deleted.
	if err := s.db.CreateGame(ctx, row); err != nil {
		return fmt.Errorf("create rematch: %w", err)
	}
	g.RematchID = row.ID
	if err := s.store(ctx, g, nil); err != nil {
		if derr := s.db.DeleteGame(ctx, row.ID); derr != nil {
			s.log.Error("delete unused rematch", "game", row.ID, "err", derr)
		}
		g.RematchID = ""
		return err
	}
	ng.ID, ng.stored = row.ID, ng.turnNow()
	s.capPair(ctx, ng)
	s.computerTurn(ng)
	return nil
}

// store writes g (and m, the move just played) at the service's now:
// write.
func (s *Service) store(ctx context.Context, g *Game, m *models.Move) error {
	return s.write(ctx, g, s.Now(), m, 0, nil)
}

// write brings g's clock to now (runClock) and writes g's row with the
// version check, with m the move just played, or from ply popFrom on the
// moves taken back (0 for none); then it publishes the change. A move
// (m, and nothing taken back) writes only what a move changes
// (models.DB.MoveGame, which checks seen when it is not nil: MoveFor):
// Move changes nothing else of g.
func (s *Service) write(ctx context.Context, g *Game, now time.Time, m *models.Move, popFrom int, seen *models.Seen) error {
	g.runClock(now)
	g.abortEarly()
	row := g.row()
	if m != nil && popFrom == 0 {
		return s.wrote(ctx, g, row, s.db.MoveGame(ctx, row, m, seen))
	}
	row.PopFrom = popFrom
	return s.wrote(ctx, g, row, s.db.UpdateGame(ctx, row, m))
}

// wrote ends a versioned write of g's row, which returned err: a conflict
// is ErrConflict; after success g has the row's new version and the change
// is published.
func (s *Service) wrote(ctx context.Context, g *Game, row *models.Game, err error) error {
	if err != nil {
		if errors.Is(err, models.ErrConflict) {
			return ErrConflict
		}
		return s.asked(g.ID, err)
	}
	g.Version, g.UpdatedAt, g.stored = row.Version, row.UpdatedAt, g.turnNow()
	s.kept.keep(g, nil, "")
	s.published(ctx, g)
	if g.Status == Over && g.Rated {
		s.rate(ctx, g)
	}
	return nil
}

// published runs the OnStore hooks on g just stored (UpdateGame has
// announced its new version to every instance).
func (s *Service) published(ctx context.Context, g *Game) {
	for _, f := range s.stored {
		f(ctx, g)
	}
}

// OpenGames returns the games of account userID that are not over (at
// most 50, the latest changed first) with the names of their players.
func (s *Service) OpenGames(ctx context.Context, userID uint) ([]*Game, error) {
	rows, err := s.db.OpenGames(ctx, userID)
	if err != nil {
		return nil, err
	}
	games := make([]*Game, 0, len(rows))
	var ids []uint
	for i := range rows {
		g, err := s.build(ctx, &rows[i], nil)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
		for _, seat := range g.Seats {
			if seat.UserID != nil {
				ids = append(ids, *seat.UserID)
			}
		}
	}
	users, err := s.db.UsersByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		for i, seat := range g.Seats {
			if seat.UserID == nil {
				continue
			}
			if u := users[*seat.UserID]; u != nil && !u.Deleted() {
				g.Seats[i].Name, g.Seats[i].Bot = u.Username, u.Bot
			} else {
				g.Seats[i].Deleted = true
			}
		}
	}
	return games, nil
}

// Statuses returns the status of each of the given games that exists.
func (s *Service) Statuses(ctx context.Context, ids []string) (map[string]Status, error) {
	rows, err := s.db.GameStatuses(ctx, ids)
	out := make(map[string]Status, len(rows))
	for id, st := range rows {
		out[id] = Status(st)
	}
	return out, err
}
