package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Tournament is an arena or a Swiss event (table tournaments, migration
// 00024); package tournament runs it.
type Tournament struct {
	// ID is 12 characters of a-z and 2-7, random (CreateTournament).
	ID string `gorm:"primaryKey"`
	// Kind is "arena" or "swiss"; Name is shown as given.
	Kind, Name string
	// Rules and Fours are every game's rule set (as in Game); the clock
	// is real time, in seconds.
	Rules, Fours                 string
	ClockInitial, ClockIncrement int
	// Minutes is an arena's duration, Rounds a Swiss event's rounds.
	Minutes, Rounds int
	// RoundMinutes is the time between the scheduled starts of a Swiss
	// event's rounds, 0 for none (migration 00026).
	RoundMinutes int
	// Rated: every game is rated (a game of a bot and a person is casual
	// all the same, package game).
	Rated bool
	// Admits is who may play (migration 00110): "people" (the default),
	// "bots" or "both" (package tournament, AdmitPeople...).
	Admits string
	// PasswordHash is HashToken of the password to join, "" for none.
	PasswordHash string
	// CreatedBy is the account that made it, nil for the server's hourly
	// arenas (Schedule is then their unique key).
	CreatedBy *uint
	Schedule  *string
	// Status is "created", "running" or "finished".
	Status string
	// Round is the Swiss round paired last (0 before the first).
	Round int
	// PairCount counts an arena's pairing passes.
	PairCount int64
	// StartsAt is the start; EndsAt an arena's end (a Swiss event's is
	// StartsAt: it ends after its last round).
	StartsAt, EndsAt, CreatedAt time.Time
}

// TournamentPlayer is a player of a tournament (table tournament_players).
type TournamentPlayer struct {
	TournamentID string `gorm:"primaryKey"`
	UserID       uint   `gorm:"primaryKey"`
	// JoinedRound is the Swiss round paired when the player joined.
	JoinedRound int
	// Withdrawn players are paired no more (their games count).
	Withdrawn bool
	JoinedAt  time.Time
	// Name, Rating and Bot are the username, the rating in the
	// tournament's category (0 for none) and whether the account is a bot,
	// as TournamentPlayers reads them.
	Name   string  `gorm:"-"`
	Rating float64 `gorm:"-"`
	Bot    bool    `gorm:"-"`
}

// TournamentGame is a pairing of a tournament (table tournament_games): a
// game, or a Swiss bye (GameID and NorthID nil).
type TournamentGame struct {
	ID           uint `gorm:"primaryKey"`
	TournamentID string
	// Round is the Swiss round, 0 in an arena.
	Round   int
	GameID  *string
	SouthID uint
	NorthID *uint
	// SouthToken and NorthToken are the seats' bearer tokens.
	SouthToken, NorthToken string
	CreatedAt              time.Time
	// Game is the game as TournamentGames reads it (not a column).
	Game TournamentGameState `gorm:"-"`
}

// TournamentGameState is a pairing's game as TournamentGames reads it: its
// status ("" when it does not exist), result, reason, the end it would
// have had when aborted (Game.AbortedEnd), number of moves (Nam-nam's
// agreements not counted) and last change (nil when it does not exist).
type TournamentGameState struct {
	Status, Result, Reason, AbortedEnd string
	Plies                              int
	GameUpdated                        *time.Time
}

// ErrTournamentChanged: the tournament changed while a pairing was made
// (another instance paired the round first); nothing was written.
var ErrTournamentChanged = errors.New("models: the tournament changed meanwhile")

// CreateTournament inserts t with a new id, created at now. A Schedule
// already taken wraps ErrConflict.
func (db *DB) CreateTournament(ctx context.Context, t *Tournament, now time.Time) error {
	return db.createTournament(db.Gorm.WithContext(ctx), t, now)
}

// CreateOwnTournament is CreateTournament of a tournament made by account
// *t.CreatedBy, who may have limit tournaments not finished at once
// (ErrCapped: nothing inserted).
func (db *DB) CreateOwnTournament(ctx context.Context, t *Tournament, now time.Time, limit int) error {
	by := *t.CreatedBy
	c := Cap{Key: fmt.Sprintf("tournaments:u%d", by), Limit: limit, Count: func(tx *gorm.DB) *gorm.DB {
		return tx.Model(&Tournament{}).Where("created_by = ? AND status <> 'finished'", by)
	}}
	return db.Capped(db.Gorm.WithContext(ctx), c, func(tx *gorm.DB) error { return db.createTournament(tx, t, now) })
}

func (db *DB) createTournament(tx *gorm.DB, t *Tournament, now time.Time) error {
	t.ID, t.CreatedAt = NewGameID(), now.UTC()
	if t.Status == "" {
		t.Status = "created"
	}
	err := tx.Create(t).Error
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("models: create tournament: %w", ErrConflict)
	}
	return err
}

// FindTournament returns tournament id, or ErrNotFound.
func (db *DB) FindTournament(ctx context.Context, id string) (*Tournament, error) {
	if !ValidKey(id, 12) {
		return nil, ErrNotFound
	}
	var t Tournament
	if err := db.Gorm.WithContext(ctx).Take(&t, "id = ?", id).Error; err != nil {
		return nil, notFound(err)
	}
	return &t, nil
}

// Tournaments returns the tournaments of the given statuses, the latest
// start first within each status order given by the query, at most limit.
func (db *DB) Tournaments(ctx context.Context, statuses []string, limit int) ([]Tournament, error) {
	var ts []Tournament
	err := db.Gorm.WithContext(ctx).Where("status IN ?", statuses).Order("starts_at DESC, id").Limit(limit).Find(&ts).Error
	return ts, err
}

// DueTournaments returns the tournaments not finished whose start is
// not after now (at most limit, the earliest first).
func (db *DB) DueTournaments(ctx context.Context, now time.Time, limit int) ([]Tournament, error) {
	var ts []Tournament
	err := db.Gorm.WithContext(ctx).Where("status <> 'finished' AND starts_at <= ?", now.UTC()).
		Order("starts_at, id").Limit(limit).Find(&ts).Error
	return ts, err
}

// SetTournamentStatus moves tournament id from status from to status to;
// it reports whether it did (another instance may have first).
func (db *DB) SetTournamentStatus(ctx context.Context, id, from, to string) (bool, error) {
	res := db.Gorm.WithContext(ctx).Model(&Tournament{}).Where("id = ? AND status = ?", id, from).Update("status", to)
	return res.RowsAffected > 0, res.Error
}

// JoinTournament adds account userID to tournament id (again, when they
// had withdrawn), joining at round. A new player is refused with
// ErrCapped, nothing written, when the tournament already has maxPlayers
// players (withdrawn ones included): the count and the insert are one
// capped transaction (Capped), so joins at once never pass the cap, and
// joins of one account at once make one player and all succeed.
func (db *DB) JoinTournament(ctx context.Context, id string, userID uint, round int, now time.Time, maxPlayers int) error {
	return db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&TournamentPlayer{}).Where("tournament_id = ? AND user_id = ?", id, userID).
			Update("withdrawn", false)
		if res.Error != nil || res.RowsAffected > 0 {
			return res.Error
		}
		// Another join of the same account may insert first while this
		// one waits for the cap: the others are counted, and the insert
		// then only makes sure the player is not withdrawn.
		players := Cap{Key: "tournament-players:" + id, Limit: maxPlayers, Count: func(tx *gorm.DB) *gorm.DB {
			return tx.Model(&TournamentPlayer{}).Where("tournament_id = ? AND user_id <> ?", id, userID)
		}}
		return db.Capped(tx, players, func(tx *gorm.DB) error {
			return tx.Clauses(clause.OnConflict{
				Columns:   []clause.Column{{Name: "tournament_id"}, {Name: "user_id"}},
				DoUpdates: clause.Assignments(map[string]any{"withdrawn": false}),
			}).Create(&TournamentPlayer{TournamentID: id, UserID: userID, JoinedRound: round, JoinedAt: now.UTC()}).Error
		})
	})
}

// WithdrawTournament marks account userID withdrawn from tournament id;
// it reports whether they were a player.
func (db *DB) WithdrawTournament(ctx context.Context, id string, userID uint) (bool, error) {
	res := db.Gorm.WithContext(ctx).Model(&TournamentPlayer{}).Where("tournament_id = ? AND user_id = ?", id, userID).
		Update("withdrawn", true)
	return res.RowsAffected > 0, res.Error
}

// TournamentPlayers returns the players of tournament id with their names,
// ratings in category (0 for none) and whether each is a bot, in the order
// they joined.
func (db *DB) TournamentPlayers(ctx context.Context, id, category string) ([]TournamentPlayer, error) {
	var rows []struct {
		TournamentPlayer `gorm:"embedded"`
		Name             string
		Rating           float64
		Bot              bool
	}
	err := db.Gorm.WithContext(ctx).Table("tournament_players p").
		Select("p.*, COALESCE(u.username, '') AS name, COALESCE(r.rating, 0) AS rating, COALESCE(u.bot, ?) AS bot", false).
		Joins("LEFT JOIN users u ON u.id = p.user_id").
		Joins("LEFT JOIN ratings r ON r.user_id = p.user_id AND r.category = ?", category).
		Where("p.tournament_id = ?", id).Order("p.joined_at, p.user_id").Scan(&rows).Error
	ps := make([]TournamentPlayer, len(rows))
	for i, r := range rows {
		ps[i] = r.TournamentPlayer
		ps[i].Name, ps[i].Rating, ps[i].Bot = r.Name, r.Rating, r.Bot
	}
	return ps, err
}

// TournamentGames returns the pairings of tournament id in the order they
// were made, each with its game's status, result, reason, moves and last
// change.
func (db *DB) TournamentGames(ctx context.Context, id string) ([]TournamentGame, error) {
	return db.tournamentGames(db.Gorm.WithContext(ctx), id)
}

func (db *DB) tournamentGames(tx *gorm.DB, id string) ([]TournamentGame, error) {
	var rows []struct {
		TournamentGame      `gorm:"embedded"`
		TournamentGameState `gorm:"embedded"`
	}
	err := tx.Table("tournament_games t").
		Select("t.*, COALESCE(g.status, '') AS status, COALESCE(g.result, '') AS result, "+
			"COALESCE(g.reason, '') AS reason, COALESCE(g.aborted_end, '') AS aborted_end, "+
			"(SELECT COUNT(*) FROM moves m WHERE m.game_id = t.game_id) AS plies, "+
			"g.updated_at AS game_updated").
		Joins("LEFT JOIN games g ON g.id = t.game_id").
		Where("t.tournament_id = ?", id).Order("t.id").Scan(&rows).Error
	gs := make([]TournamentGame, len(rows))
	for i, r := range rows {
		gs[i] = r.TournamentGame
		gs[i].Game = r.TournamentGameState
	}
	return gs, err
}

// TournamentOfGame returns the pairing of game id, or ErrNotFound when the
// game is no tournament's.
func (db *DB) TournamentOfGame(ctx context.Context, gameID string) (*TournamentGame, error) {
	var tg TournamentGame
	if err := db.Gorm.WithContext(ctx).Take(&tg, "game_id = ?", gameID).Error; err != nil {
		return nil, notFound(err)
	}
	return &tg, nil
}

// PairTournament makes pairings of tournament id in one transaction:
// it takes the tournament's row lock (an update of pair_count; on SQLite
// the one writer), reads the tournament, its players and its pairings,
// asks pair for the new pairings and inserts them (created_at: clock's
// time once the lock is held).
// When round > 0 (a Swiss round), the tournament's round must still be
// round - 1 and becomes round: of two instances pairing the same round,
// the second gets ErrTournamentChanged and writes nothing. It returns the
// pairings inserted, with their ids.
func (db *DB) PairTournament(ctx context.Context, id string, round int, clock func() time.Time,
	pair func(t *Tournament, players []TournamentPlayer, games []TournamentGame) ([]TournamentGame, error)) ([]TournamentGame, error) {
	var made []TournamentGame
	err := db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		made = nil
		q := tx.Model(&Tournament{}).Where("id = ? AND status = 'running'", id)
		if round > 0 {
			q = q.Where("round = ?", round-1)
		}
		res := q.Updates(map[string]any{"pair_count": gorm.Expr("pair_count + 1"), "round": gorm.Expr("round + ?", min(round, 1))})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrTournamentChanged
		}
		var t Tournament
		if err := tx.Take(&t, "id = ?", id).Error; err != nil {
			return err
		}
		var players []TournamentPlayer
		if err := tx.Where("tournament_id = ?", id).Order("joined_at, user_id").Find(&players).Error; err != nil {
			return err
		}
		games, err := db.tournamentGames(tx, id)
		if err != nil {
			return err
		}
		if made, err = pair(&t, players, games); err != nil {
			return err
		}
		now := clock().UTC()
		for i := range made {
			made[i].TournamentID, made[i].CreatedAt = id, now
		}
		if len(made) == 0 {
			return nil
		}
		return tx.Create(&made).Error
	})
	if err != nil {
		return nil, err
	}
	return made, nil
}

// DeleteTournamentGame deletes the pairing id (its game could not be
// made).
func (db *DB) DeleteTournamentGame(ctx context.Context, id uint) error {
	return db.Gorm.WithContext(ctx).Delete(&TournamentGame{ID: id}).Error
}

// TournamentsOf returns the tournaments account userID played in, the
// latest first (at most limit).
func (db *DB) TournamentsOf(ctx context.Context, userID uint, status string, limit int) ([]Tournament, error) {
	var ts []Tournament
	err := db.Gorm.WithContext(ctx).Table("tournaments t").Select("t.*").
		Joins("JOIN tournament_players p ON p.tournament_id = t.id AND p.user_id = ?", userID).
		Where("t.status = ?", status).Order("t.starts_at DESC, t.id").Limit(limit).Scan(&ts).Error
	return ts, err
}

// InRealTimeGames returns which of the accounts ids are seated in a game
// in play with a real-time clock (any game, of a tournament or not):
// tournaments pair none of them.
func (db *DB) InRealTimeGames(ctx context.Context, ids []uint) (map[uint]bool, error) {
	out := map[uint]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct{ SouthUserID, NorthUserID *uint }
	err := db.Gorm.WithContext(ctx).Model(&Game{}).Select("south_user_id, north_user_id").
		Where("status = 'playing' AND clock_days = 0 AND (south_user_id IN ? OR north_user_id IN ?)", ids, ids).
		Scan(&rows).Error
	for _, r := range rows {
		for _, id := range []*uint{r.SouthUserID, r.NorthUserID} {
			if id != nil {
				out[*id] = true
			}
		}
	}
	return out, err
}
