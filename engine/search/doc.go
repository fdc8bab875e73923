// Package search is the computer player: a game-tree search over the rules
// of package engine (Abapa, Wari, Warri and Nam-nam), the levels 1 to 8 of
// the site, hints with their reasons, and the analysis the API returns. It
// is pure: no I/O (the endgame tables come in through Tables, opened by the
// caller), no package state.
//
// # For the site
//
//   - NewSearcher(hashMB, tables) gives a worker its searcher (not safe for
//     concurrent use: one per worker; the tables may be shared, e.g. an
//     *endgame.Cache that fills in while the server runs).
//   - Searcher.Move(ctx, game, level, seed, minThink) chooses the computer's
//     move in a game in progress; the game's history gives the repetition
//     rule its positions. A new seed per game varies the play; minThink
//     keeps the reply from coming in under MinThinkTime.
//   - Searcher.Analyze(ctx, game, limits) answers the analysis API:
//     {"best","value","depth","pv","exact"} (Analysis).
//   - Searcher.Hint(ctx, game) gives the best move and a Reason to show
//     ("sow C: captures 5 seeds").
//   - Searcher.Search(ctx, game, options) is the search itself, with any
//     limits, noise and seed.
//
// # The search
//
// Iterative deepening principal variation search (alpha-beta with null
// windows after the first move) with a transposition table, move ordering
// (the table's move, captures by their size, two killer moves a ply, a
// history score), and a quiescence search of captures at the horizon. It
// plays each move with the engine's rules (Oware.Apply, or Rules.Play for
// Nam-nam), so it plays exactly by RULES.md: feeding, the grand slam
// settings, the 25-seed end, the end without moves, and the repetition
// rule, applied to the game's positions since its last capture followed by
// the search path (a capture starts a new stretch). Nam-nam is searched to
// the end of the round, scored by the seeds each side then holds.
//
// Scores are centi-seeds (100 = one seed) from the player to move: the
// capture difference the search expects when the game ends. Where it stops
// short of the end it evaluates the position: the capture difference, then
// the seeds on each row (hoarding), the non-empty pits (mobility), the seeds
// each side's next sowings could capture (attack and vulnerable pits) and
// a pit big enough to lap the board (Weights; tuned by self-play, see
// README). The limits are a depth, a time and a node count; the context
// cancels a search. For a given seed, limits other than time and position,
// the result is the same every time.
//
// # Proven values
//
// A value is proven (Result.Exact) when every line behind it ends the game
// within the search (the end of the game or a repetition, scored as RULES.md
// says) or reaches a position the endgame tables decide exactly. Scores
// after a 25-seed end are the captures at that moment; scores from the
// tables count the seeds left on the board as the game played out would
// share them (see package endgame): the two agree on who wins, so a proven
// value always gives the right result, and Result.Proven also reports a
// result that is proven while the number is not (a move proven to win).
// Because the repetition rule makes a value depend on the positions seen
// before, proofs are reused from the transposition table only for
// positions right after a capture; a value that a repetition of a
// position above the node decided is not stored at all (only the node's
// best move), and the positions searched before any capture have the
// game's positions since its last capture mixed into their keys.
//
// # Endgame tables
//
// With tables (levels 7 and 8, Analyze and Hint), a position right after a
// capture whose seeds the table covers gets the table's proven bounds: an
// exact value, or a bound outside the search window, ends the search
// there; otherwise the search goes on and, at its horizon, takes the middle
// of the bounds as the value of any position the table covers.
//
// # Levels
//
// Level.Options gives each level its depth or time and a noise on the
// evaluation: level 1 searches one ply with a noise of 15 seeds (legal,
// plausible, often poor moves), level 8 searches 1 s with the tables. The
// noise and the order of the first moves come from the seed, so every
// level varies from game to game.
package search
