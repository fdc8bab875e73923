// Package engine implements the rules of the board games the site offers:
// Oware (Abapa, with the grand slam settings wari and warri) and Nam-nam,
// exactly as the product's rule book, RULES.md beside this file, describes
// them; "RULES.md 2.3" in a comment is its section 2, rule 3.
//
// The package is pure: no I/O, no mutable package state, no imports from the
// rest of the project. Bad input never panics; it returns an error that
// wraps one of the Err* sentinels, so callers can pick a localized message
// with errors.Is.
//
// A rule set is a value of type Rules ("abapa", "wari", "warri"; see
// RulesByName). Positions are plain values of type Position; a Game keeps
// the move history that the repetition rule needs.
package engine
