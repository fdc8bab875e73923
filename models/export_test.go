package models

// DropEvents makes the publisher of db drop every batch while on, as if
// the instance died between each commit and its batch.
func DropEvents(db *DB, on bool) { db.publisher().drop.Store(on) }
