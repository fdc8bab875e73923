package models

// DropEvents makes the publisher of db drop every batch while on, as if
// the instance died between each commit and its batch.
func DropEvents(db *DB, on bool) { db.publisher().drop.Store(on) }

// MoveGameSeen is moveGameSeen: the PostgreSQL text of a move written
// from a kept state, with the visitor's and the accounts' checks or not.
func MoveGameSeen(visitor, accounts bool) string { return moveGameSeen(visitor, accounts) }
