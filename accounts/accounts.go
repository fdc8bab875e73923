// Package accounts is the service of the players' accounts. Handlers call
// it and never the storage (package models).
//
// This is the smallest part of it that following players needs; the
// package of issue 20 replaces this file.
package accounts

import "oware/models"

// User is a registered player (models.User): handlers read its fields
// through this name.
type User = models.User

// ErrNotFound: no such account.
var ErrNotFound = models.ErrNotFound

// Service keeps the accounts of db. It is safe for concurrent use.
type Service struct {
	db *models.DB
}

// New returns the accounts service of db.
func New(db *models.DB) *Service { return &Service{db: db} }
