package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Study is a row of table studies (issue 32; migration 00080): a lesson an
// account wrote, its chapters kept whole as JSON (content.Studies reads
// and checks them; this package stores the text as given).
type Study struct {
	// ID is random: 12 characters of lowercase base32 (60 bits), the
	// study's link.
	ID      string `gorm:"primaryKey"`
	OwnerID uint
	Title   string
	// Lang is the study's language: "cs", "it" or "en".
	Lang string
	// Visibility is "public" (listed), "unlisted" (by link) or "private"
	// (its owner only).
	Visibility string
	// Hidden is set by an operator: nobody but the owner sees the study.
	Hidden bool
	// Chapters is the JSON array of the chapters.
	Chapters string
	// Search is the lower-case text the list's search looks in.
	Search string
	// ForkedFrom is the study this one was copied from, if any.
	ForkedFrom *string
	// Version counts the study's writes (the check of UpdateStudy).
	Version   int
	CreatedAt time.Time
	UpdatedAt time.Time

	// Owner is the owner's name (read with the study, not a column).
	Owner string `gorm:"->;-:migration"`
}

// studyColumns are the columns a study is read with, its owner's name
// joined.
const studyColumns = `studies.*, users.username AS owner`

// CreateStudy inserts s under a new random id (set in s, with its version
// 1 and times now) while its owner has fewer than max studies, counted in
// the insert's transaction under the cap's lock (Capped). It reports
// false, writing nothing, when the owner has max already.
func (db *DB) CreateStudy(ctx context.Context, s *Study, max int, now time.Time) (bool, error) {
	s.ID, s.Version, s.Hidden = randomKey(12), 1, false
	s.CreatedAt, s.UpdatedAt = now.UTC(), now.UTC()
	c := Cap{Key: fmt.Sprintf("studies:u%d", s.OwnerID), Limit: max, Count: func(tx *gorm.DB) *gorm.DB {
		return tx.Model(&Study{}).Where("owner_id = ?", s.OwnerID)
	}}
	err := db.Capped(db.Gorm.WithContext(ctx), c, func(tx *gorm.DB) error { return tx.Omit("Owner").Create(s).Error })
	if errors.Is(err, ErrCapped) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("models: create study: %w", err)
	}
	return true, nil
}

// StudyByID returns study id with its owner's name, or ErrNotFound
// (also when its owner's account was deleted).
func (db *DB) StudyByID(ctx context.Context, id string) (*Study, error) {
	var s Study
	err := db.studies(ctx).Where("studies.id = ?", id).Take(&s).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &s, nil
}

// studies reads studies with their owner's name, of existing accounts.
func (db *DB) studies(ctx context.Context) *gorm.DB {
	return db.Gorm.WithContext(ctx).Model(&Study{}).Select(studyColumns).
		Joins("JOIN users ON users.id = studies.owner_id AND users.deleted_at IS NULL")
}

// UpdateStudy writes s's title, language, visibility, chapters and search
// text when the stored study is still at version s.Version and owned by
// s.OwnerID; s.Version and s.UpdatedAt move on. ErrConflict when it
// changed meanwhile, ErrNotFound when it is gone or another's.
func (db *DB) UpdateStudy(ctx context.Context, s *Study, now time.Time) error {
	res := db.Gorm.WithContext(ctx).Model(&Study{}).
		Where("id = ? AND owner_id = ? AND version = ?", s.ID, s.OwnerID, s.Version).
		Updates(map[string]any{"title": s.Title, "lang": s.Lang, "visibility": s.Visibility,
			"chapters": s.Chapters, "search": s.Search, "version": s.Version + 1, "updated_at": now.UTC()})
	if res.Error != nil {
		return fmt.Errorf("models: update study %s: %w", s.ID, res.Error)
	}
	if res.RowsAffected == 0 {
		if got, err := db.StudyByID(ctx, s.ID); err != nil {
			return err
		} else if got.OwnerID != s.OwnerID {
			return ErrNotFound
		}
		return fmt.Errorf("models: update study %s: %w", s.ID, ErrConflict)
	}
	s.Version++
	s.UpdatedAt = now.UTC()
	return nil
}

// DeleteStudy deletes study id of account owner; ErrNotFound when it has
// no such study.
func (db *DB) DeleteStudy(ctx context.Context, id string, owner uint) error {
	res := db.Gorm.WithContext(ctx).Exec(`DELETE FROM studies WHERE id = ? AND owner_id = ?`, id, owner)
	if res.Error != nil {
		return fmt.Errorf("models: delete study %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// HideStudy sets whether study id is hidden (an operator's decision);
// ErrNotFound when there is no such study.
func (db *DB) HideStudy(ctx context.Context, id string, hidden bool) error {
	res := db.Gorm.WithContext(ctx).Model(&Study{}).Where("id = ?", id).Update("hidden", hidden)
	if res.Error != nil {
		return fmt.Errorf("models: hide study %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// PublicStudies returns the public studies in lang that are not hidden,
// whose search text holds every word of query (lower case, as given; ""
// holds all), the latest changed first, at most limit.
func (db *DB) PublicStudies(ctx context.Context, lang string, query []string, limit int) ([]Study, error) {
	q := db.studies(ctx).Where("studies.lang = ? AND studies.visibility = 'public' AND NOT studies.hidden", lang)
	for _, w := range query {
		q = q.Where(`studies.search LIKE ? ESCAPE '\'`, "%"+likeEscaper.Replace(w)+"%")
	}
	var out []Study
	err := q.Order("studies.updated_at DESC, studies.id").Limit(limit).Find(&out).Error
	return out, err
}

// likeEscaper escapes the LIKE pattern characters of a search word.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// StudiesOf returns account owner's studies, the latest changed first, at
// most limit.
func (db *DB) StudiesOf(ctx context.Context, owner uint, limit int) ([]Study, error) {
	var out []Study
	err := db.studies(ctx).Where("studies.owner_id = ?", owner).
		Order("studies.updated_at DESC, studies.id").Limit(limit).Find(&out).Error
	return out, err
}
