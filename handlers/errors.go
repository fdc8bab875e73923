package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/engine"
	"oware/game"
	"oware/route"
	"oware/tournament"
	"oware/views"
)

// userError is a refused request: the HTTP status and the message id that
// explains it. It is never a server fault.
type userError struct {
	status int
	key    string
}

func (e *userError) Error() string { return e.key }

// The refusals that the handlers make themselves.
var (
	errNotFound   = &userError{http.StatusNotFound, "err_not_found"}
	errNoSeat     = &userError{http.StatusForbidden, "err_no_seat"}
	errBadRequest = &userError{http.StatusBadRequest, "err_bad_request"}
	errNotJSON    = &userError{http.StatusUnsupportedMediaType, "err_not_json"}
)

// refusals map the errors of the game service and the engine to refusals:
// 409 when the game's state forbids the action, 422 for an illegal move or
// bad table settings.
var refusals = []struct {
	err error
	ue  *userError
}{
	{game.ErrNotFound, errNotFound},
	{accounts.ErrFollowSelf, &userError{http.StatusUnprocessableEntity, "err_follow_self"}},
	{accounts.ErrFollowLimit, &userError{http.StatusConflict, "err_follow_limit"}},
	{game.ErrNoSeat, errNoSeat},
	{game.ErrTooManyGames, &userError{http.StatusConflict, "err_too_many_games"}},
	{game.ErrBadClock, &userError{http.StatusUnprocessableEntity, "clk_err_bad_clock"}},
	{game.ErrBadRatingRange, &userError{http.StatusUnprocessableEntity, "fr_err_rating_range"}},
	{game.ErrTooManyChallenges, &userError{http.StatusTooManyRequests, "fr_err_too_many_challenges"}},
	{game.ErrComputerClock, &userError{http.StatusUnprocessableEntity, "fp_err_computer_clock"}},
	{game.ErrBadSettings, &userError{http.StatusUnprocessableEntity, "err_bad_request"}},
	{game.ErrNotStarted, &userError{http.StatusConflict, "err_not_started"}},
	{game.ErrNotYourTurn, &userError{http.StatusConflict, "err_not_your_turn"}},
	{game.ErrSeatsTaken, &userError{http.StatusConflict, "err_seats_taken"}},
	{game.ErrNoOffer, &userError{http.StatusConflict, "err_no_offer"}},
	{game.ErrNotOver, &userError{http.StatusConflict, "err_not_over"}},
	{game.ErrConflict, &userError{http.StatusConflict, "err_conflict"}},
	{game.ErrStale, &userError{http.StatusConflict, "fr_err_stale"}},
	{game.ErrNotNamNam, errBadRequest},
	{game.ErrTimeUp, &userError{http.StatusConflict, "clk_err_time_up"}},
	{game.ErrLate, &userError{http.StatusConflict, "fp_err_late"}},
	{game.ErrCannotClaim, &userError{http.StatusConflict, "clk_err_cannot_claim"}},
	{game.ErrRatedNeedsLobby, &userError{http.StatusUnprocessableEntity, "clk_err_rated_lobby"}},
	{game.ErrRatedNeedsAccount, &userError{http.StatusUnprocessableEntity, "clk_err_rated_account"}},
	{game.ErrRatedNeedsClock, &userError{http.StatusUnprocessableEntity, "clk_err_rated_clock"}},
	{game.ErrChallengeTaken, &userError{http.StatusConflict, "clk_err_taken"}},
	{game.ErrOwnChallenge, &userError{http.StatusConflict, "clk_err_own"}},
	{game.ErrNotForYou, &userError{http.StatusForbidden, "clk_err_not_for_you"}},
	{game.ErrVsComputer, &userError{http.StatusConflict, "err_vs_computer"}},
	{game.ErrNoHint, &userError{http.StatusConflict, "err_no_hint"}},
	{game.ErrNoTakeback, &userError{http.StatusConflict, "err_no_takeback"}},
	{game.ErrOfferPending, &userError{http.StatusConflict, "err_offer_pending"}},
	{game.ErrBusy, &userError{http.StatusServiceUnavailable, "err_busy"}},
	{tournament.ErrNotFound, &userError{http.StatusNotFound, "trn_err_not_found"}},
	{tournament.ErrBadKind, &userError{http.StatusUnprocessableEntity, "trn_err_kind"}},
	{tournament.ErrBadName, &userError{http.StatusUnprocessableEntity, "trn_err_name"}},
	{tournament.ErrBadMinutes, &userError{http.StatusUnprocessableEntity, "trn_err_minutes"}},
	{tournament.ErrBadRounds, &userError{http.StatusUnprocessableEntity, "trn_err_rounds"}},
	{tournament.ErrBadInterval, &userError{http.StatusUnprocessableEntity, "trn_err_round_minutes"}},
	{tournament.ErrBadStart, &userError{http.StatusUnprocessableEntity, "trn_err_start"}},
	{tournament.ErrBadClock, &userError{http.StatusUnprocessableEntity, "trn_err_clock"}},
	{tournament.ErrBadPassword, &userError{http.StatusUnprocessableEntity, "trn_err_password_long"}},
	{tournament.ErrBadSettings, &userError{http.StatusUnprocessableEntity, "trn_err_rules"}},
	{tournament.ErrNeedsAccount, errNeedsAccount},
	{tournament.ErrTooMany, &userError{http.StatusConflict, "trn_err_too_many"}},
	{tournament.ErrFinished, &userError{http.StatusConflict, "trn_err_finished"}},
	{tournament.ErrWrongPassword, &userError{http.StatusForbidden, "trn_err_password"}},
	{tournament.ErrFull, &userError{http.StatusConflict, "trn_err_full"}},
	{tournament.ErrForfeited, &userError{http.StatusConflict, "trn_err_forfeited"}},
	{tournament.ErrTooLate, &userError{http.StatusConflict, "trn_err_too_late"}},
	{tournament.ErrNotPlayer, &userError{http.StatusConflict, "trn_err_not_player"}},
	{engine.ErrTooMuchWork, &userError{http.StatusUnprocessableEntity, "err_too_much_work"}},
	{engine.ErrGameOver, &userError{http.StatusConflict, "err_game_over"}},
	{engine.ErrBadLabel, &userError{http.StatusUnprocessableEntity, "err_bad_label"}},
	{engine.ErrBadPit, &userError{http.StatusUnprocessableEntity, "err_bad_pit"}},
	{engine.ErrNotOwnPit, &userError{http.StatusUnprocessableEntity, "err_not_own_pit"}},
	{engine.ErrEmptyPit, &userError{http.StatusUnprocessableEntity, "err_empty_pit"}},
	{engine.ErrMustFeed, &userError{http.StatusUnprocessableEntity, "err_must_feed"}},
	{engine.ErrGrandSlamForbidden, &userError{http.StatusUnprocessableEntity, "err_grand_slam_forbidden"}},
	{engine.ErrEndlessSowing, &userError{http.StatusUnprocessableEntity, "err_endless_sowing"}},
}

// refusal maps an error of the game service or the engine to its refusal;
// other errors are returned as they are (server faults).
func refusal(err error) error {
	for _, r := range refusals {
		if errors.Is(err, r.err) {
			return r.ue
		}
	}
	return err
}

// unsureMove returns the id of the game whose move the request sent, when
// it met the database out of reach (a 503): the move may have been
// stored all the same (the connection dropped after the commit), so the
// answer says to read the game again rather than to retry. "" for any
// other request.
func unsureMove(c echo.Context) string {
	r := c.Request()
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/moves") {
		return ""
	}
	return c.Param("id")
}

// missingKey names what the game service did not find at path (a game, a
// challenge or a player), for the message of its 404.
func missingKey(path string) string {
	switch {
	case strings.Contains(path, "/challenges"):
		return "err_no_challenge"
	case strings.Contains(path, "/players/"):
		return "err_no_player"
	}
	return "err_no_game"
}

// retryAfter is the Retry-After of a 503 (the computer busy, the database
// out of reach): about how long a PostgreSQL restart takes.
const retryAfter = 3 * time.Second

// setRetryAfter sets the Retry-After header of the answer to d in whole
// seconds, rounded up, at least 1, and returns them.
func setRetryAfter(c echo.Context, d time.Duration) int {
	secs := max(int((d+time.Second-1)/time.Second), 1)
	c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(secs))
	return secs
}

// handleError answers an error: JSON under /api/, else a localized page.
// Refusals keep their status (a 503 refusal, the computer busy, with
// Retry-After and no error in the log); the database out of reach
// (game.Unavailable) is 503 with Retry-After; anything else is logged as a
// 500.
func (h *handler) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, key := http.StatusInternalServerError, "err_internal"
	var ue *userError
	var he *echo.HTTPError
	switch {
	case errors.Is(err, game.ErrNotFound):
		status, key = http.StatusNotFound, missingKey(c.Request().URL.Path)
	case errors.As(refusal(err), &ue):
		status, key = ue.status, ue.key
	case errors.As(err, &he):
		status = he.Code
		switch {
		case status == http.StatusNotFound || status == http.StatusMethodNotAllowed:
			key = "err_not_found"
		case status == http.StatusForbidden:
			key = "err_forbidden"
		case status == http.StatusRequestEntityTooLarge:
			key = "err_too_large"
		case status < 500:
			key = "err_bad_request"
		}
	case game.Unavailable(err):
		status, key = http.StatusServiceUnavailable, "err_unavailable"
	}
	unsure := "" // the game of a move that may have been stored
	if key == "err_unavailable" {
		unsure = unsureMove(c)
	}
	if status == http.StatusServiceUnavailable { // the computer busy or the database away: try again soon
		setRetryAfter(c, retryAfter)
	}
	if status >= 500 && c.Request().Context().Err() != nil {
		// The client went away: not a fault of the server, and nobody reads
		// the answer.
		h.logRequest(c, slog.LevelInfo, "request abandoned")
		return
	}
	switch {
	case key == "err_unavailable":
		h.logRequest(c, slog.LevelWarn, "database unavailable", "err", err)
	case status >= 500 && ue == nil:
		h.logRequest(c, slog.LevelError, "request failed", "err", err)
	}
	if strings.HasPrefix(c.Request().URL.Path, "/api/") {
		if unsure != "" {
			key = "fp_err_move_unsure_api"
		}
		_ = c.JSON(status, map[string]string{"error": h.localizers[defaultLang].T(key)})
		return
	}
	if r := c.Request(); r.Context().Err() != nil {
		// The connection's read failed (a body cut off by ReadTimeout):
		// the answer is still written.
		c.SetRequest(r.WithContext(context.WithoutCancel(r.Context())))
	}
	title := "title_error"
	switch status {
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		title = "title_not_found"
	case http.StatusForbidden:
		title = "title_forbidden"
	}
	if key == "err_unavailable" {
		title = "title_unavailable"
	}
	p := h.page(c, title, route.HomePattern)
	p.NoIndex, p.Query = true, "" // the language links lead home, without the query
	page := views.ErrorPage(p, p.L.T(key))
	if unsure != "" {
		c.Response().Header().Set("X-Move-Unsure", "1")
		page = views.UnsureMovePage(p, p.L.T("fp_err_move_unsure"), route.Game(langOf(c), unsure))
	}
	if err := render(c, status, page); err != nil {
		// The status alone, so that the log and the metrics name it (an
		// empty answer would go as 200).
		_ = c.NoContent(status)
		if c.Request().Context().Err() != nil { // the client went away
			h.logRequest(c, slog.LevelInfo, "request abandoned")
			return
		}
		h.log.ErrorContext(c.Request().Context(), "render error page", "err", err)
	}
}
