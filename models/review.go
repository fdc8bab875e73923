package models

import (
	"context"
	"time"

	"gorm.io/gorm/clause"
)

// Review is the computer's review of a finished game or an imported record
// (table reviews, migration 00018), written by package game's reviewer.
type Review struct {
	// Subject names what was reviewed: "g/<game id>" or "i/<import id>".
	Subject string `gorm:"primaryKey"`
	// Status is "queued", "running" or "done".
	Status string
	// Plies is the JSON array of the plies reviewed so far, in order.
	Plies string
	// Reviewed counts the plies reviewed, of Total (the moves of the game).
	Reviewed, Total int
	// CreatedAt is when it was first asked for; UpdatedAt when it last
	// changed (its progress), both UTC.
	CreatedAt, UpdatedAt time.Time
}

// LoadReview returns the review of subject, or ErrNotFound.
func (db *DB) LoadReview(ctx context.Context, subject string) (*Review, error) {
	var r Review
	if err := db.Gorm.WithContext(ctx).Where("subject = ?", subject).Take(&r).Error; err != nil {
		return nil, notFound(err)
	}
	return &r, nil
}

// ClaimReview queues a review of subject with total plies and reports
// whether the caller got it to compute: true when there was none, or when
// the one there is not done and has not changed since staleBefore (the
// server computing it stopped). It returns the row as it now is.
func (db *DB) ClaimReview(ctx context.Context, subject string, total int, staleBefore time.Time) (bool, *Review, error) {
	now := time.Now().UTC()
	fresh := Review{Subject: subject, Status: "queued", Plies: "[]", Total: total, CreatedAt: now, UpdatedAt: now}
	g := db.Gorm.WithContext(ctx)
	res := g.Clauses(clause.OnConflict{DoNothing: true}).Create(&fresh)
	if res.Error != nil {
		return false, nil, res.Error
	}
	if res.RowsAffected > 0 {
		return true, &fresh, nil
	}
	res = g.Model(&Review{}).Where("subject = ? AND status <> ? AND updated_at < ?", subject, "done", staleBefore.UTC()).
		Updates(map[string]any{"status": "queued", "plies": "[]", "reviewed": 0, "total": total, "updated_at": now})
	if res.Error != nil {
		return false, nil, res.Error
	}
	r, err := db.LoadReview(ctx, subject)
	return res.RowsAffected > 0, r, err
}

// SaveReview records the progress of the review of subject: its status,
// the plies reviewed so far (JSON) and how many they are.
func (db *DB) SaveReview(ctx context.Context, subject, status, plies string, reviewed int) error {
	return db.Gorm.WithContext(ctx).Model(&Review{}).Where("subject = ?", subject).
		Updates(map[string]any{"status": status, "plies": plies, "reviewed": reviewed, "updated_at": time.Now().UTC()}).Error
}

// LoadReviewProgress returns the review of subject without its plies (its
// status and counts: one light read for the progress streams), or
// ErrNotFound.
func (db *DB) LoadReviewProgress(ctx context.Context, subject string) (*Review, error) {
	var r Review
	err := db.Gorm.WithContext(ctx).Select("subject", "status", "reviewed", "total", "updated_at").
		Where("subject = ?", subject).Take(&r).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &r, nil
}
