package core

import (
	"net/http"
)

// The refusals of the analysis API.
var (
	ErrAnalysisRules    = &UserError{http.StatusBadRequest, "err_analysis_rules"}
	ErrAnalysisPosition = &UserError{http.StatusBadRequest, "err_analysis_position"}
	ErrAnalysisDepth    = &UserError{http.StatusBadRequest, "err_analysis_depth"}
	ErrAnalysisMovetime = &UserError{http.StatusBadRequest, "err_analysis_movetime"}
	ErrAnalysisOver     = &UserError{http.StatusBadRequest, "err_analysis_over"}
)

// ErrBadLevel refuses a level that is not 1 to 8.
var ErrBadLevel = &UserError{http.StatusUnprocessableEntity, "err_bad_level"}

// The endgame explorer: GET /api/v1/explorer?rules=R&position=P and the
// page /{lang}/explorer show every legal move of a position within the
// endgame tables with its proven outcome, best first (endgame.ProbeMoves).

// The refusals of the explorer.
var (
	errExplorerRules    = &UserError{http.StatusBadRequest, "exp_err_rules"}
	ErrExplorerPosition = &UserError{http.StatusBadRequest, "exp_err_position"}
	errExplorerOver     = &UserError{http.StatusUnprocessableEntity, "exp_err_over"}
	errExplorerNoTables = &UserError{http.StatusUnprocessableEntity, "exp_err_no_tables"}
	errExplorerSeeds    = &UserError{http.StatusUnprocessableEntity, "exp_err_seeds"}
)

// The puzzles: GET /api/v1/puzzles, GET /api/v1/puzzles/{id} and POST
// /api/v1/puzzles/{id}/attempt; the pages /{lang}/puzzles (the list by
// theme, the daily puzzle, the player's rating, streak and history),
// /{lang}/puzzles/next and /{lang}/puzzles/{id} (solving on the board: a
// form per move, htmx with JavaScript). Checking and rating are
// game.Service.AttemptPuzzle's.

// The refusals of the puzzles.
var (
	errPuzzleTheme    = &UserError{http.StatusUnprocessableEntity, "pz_err_theme"}
	ErrPuzzleLimit    = &UserError{http.StatusBadRequest, "pz_err_limit"}
	ErrPuzzleAfter    = &UserError{http.StatusBadRequest, "pz_err_after"}
	ErrPuzzleMoves    = &UserError{http.StatusUnprocessableEntity, "pz_err_moves"}
	ErrPuzzleLine     = &UserError{http.StatusBadRequest, "pz_err_line"}
	ErrPuzzleNotFound = &UserError{http.StatusNotFound, "pz_err_not_found"}
)

// Game review (docs/learning.md): the computer's analysis of a finished
// game or an imported record, asked for by a form on the replay or by the
// API, computed in the background by package game and shown beside the
// replay. Asking counts against the client's analysis limit (h.analyses);
// asking again changes nothing.
//
//	POST /api/v1/games/{id}/analysis   → 202 {"status"}; 409 not over; 404; 429
//	GET  /api/v1/games/{id}/analysis   → 200 {"status","plies","summary",...}
//	POST|GET /api/v1/imports/{id}/analysis   the same for an imported record
//	POST /{lang}/games/{id}/analysis   the form (htmx: the replay's panel)
//	POST /{lang}/import/{id}/analysis  the form of an imported record

// errReviewTooLong refuses a game longer than game.MaxReviewPlies.
var errReviewTooLong = &UserError{http.StatusUnprocessableEntity, "rv_err_too_long"}
