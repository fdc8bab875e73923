package core

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/engine"
	"oware/game"
	"oware/locales"
	"oware/route"
	"oware/tournament"
	"oware/views"
)

// UserError is a refused request: the HTTP status and the message id that
// explains it. It is never a server fault.
type UserError struct {
	Status int
	Key    string
}

// Error returns the message id of the refusal.
func (e *UserError) Error() string { return e.Key }

// The refusals that the handlers make themselves.
var (
	ErrNotFound   = &UserError{http.StatusNotFound, "err_not_found"}
	ErrNoSeat     = &UserError{http.StatusForbidden, "err_no_seat"}
	ErrBadRequest = &UserError{http.StatusBadRequest, "err_bad_request"}
	ErrNotJSON    = &UserError{http.StatusUnsupportedMediaType, "err_not_json"}
	// ErrBotWeb refuses a bot's browser session the site's play forms: a
	// bot plays through the Bot API only (issue 35).
	ErrBotWeb = &UserError{http.StatusForbidden, "botweb_err_api_only"}
)

// refusals map the errors of the game service and the engine to refusals:
// 409 when the game's state forbids the action, 422 for an illegal move or
// bad table settings.
var refusals = []struct {
	err error
	ue  *UserError
}{
	{game.ErrNotFound, ErrNotFound},
	{accounts.ErrFollowSelf, &UserError{http.StatusUnprocessableEntity, "err_follow_self"}},
	{accounts.ErrFollowLimit, &UserError{http.StatusConflict, "err_follow_limit"}},
	{game.ErrNoSeat, ErrNoSeat},
	{game.ErrBotLobby, &UserError{http.StatusConflict, "bot_err_lobby"}},
	{game.ErrBotsChallengeBots, &UserError{http.StatusForbidden, "bot_err_bots_only"}},
	{game.ErrBotRated, &UserError{http.StatusUnprocessableEntity, "bot_err_rated"}},
	{game.ErrBotWeb, ErrBotWeb},
	{game.ErrBotBusy, &UserError{http.StatusTooManyRequests, "bot_err_busy"}},
	{game.ErrBotOffline, &UserError{http.StatusNotFound, "botplay_err_offline"}},
	{accounts.ErrHasGames, &UserError{http.StatusConflict, "bot_err_has_games"}},
	{accounts.ErrTokenName, &UserError{http.StatusUnprocessableEntity, "bot_err_token_name"}},
	{accounts.ErrScope, &UserError{http.StatusUnprocessableEntity, "bot_err_scope_unknown"}},
	{accounts.ErrTokenLimit, &UserError{http.StatusConflict, "bot_err_token_limit"}},
	{accounts.ErrBotEngine, &UserError{http.StatusUnprocessableEntity, "bot_err_engine"}},
	{accounts.ErrBotOwner, &UserError{http.StatusUnprocessableEntity, "bot_err_owner"}},
	{game.ErrTooManyGames, &UserError{http.StatusConflict, "err_too_many_games"}},
	{game.ErrBadClock, &UserError{http.StatusUnprocessableEntity, "clk_err_bad_clock"}},
	{game.ErrBadRatingRange, &UserError{http.StatusUnprocessableEntity, "fr_err_rating_range"}},
	{game.ErrTooManyChallenges, &UserError{http.StatusTooManyRequests, "fr_err_too_many_challenges"}},
	{game.ErrBadSettings, &UserError{http.StatusUnprocessableEntity, "err_bad_request"}},
	{game.ErrNotStarted, &UserError{http.StatusConflict, "err_not_started"}},
	{game.ErrNotYourTurn, &UserError{http.StatusConflict, "err_not_your_turn"}},
	{game.ErrSeatsTaken, &UserError{http.StatusConflict, "err_seats_taken"}},
	{game.ErrNoOffer, &UserError{http.StatusConflict, "err_no_offer"}},
	{game.ErrNotOver, &UserError{http.StatusConflict, "err_not_over"}},
	{game.ErrConflict, &UserError{http.StatusConflict, "err_conflict"}},
	{game.ErrStale, &UserError{http.StatusConflict, "fr_err_stale"}},
	{game.ErrNotNamNam, ErrBadRequest},
	{game.ErrTimeUp, &UserError{http.StatusConflict, "clk_err_time_up"}},
	{game.ErrLate, &UserError{http.StatusConflict, "fp_err_late"}},
	{game.ErrCannotClaim, &UserError{http.StatusConflict, "clk_err_cannot_claim"}},
	{game.ErrRatedNeedsLobby, &UserError{http.StatusUnprocessableEntity, "clk_err_rated_lobby"}},
	{game.ErrRatedNeedsAccount, &UserError{http.StatusUnprocessableEntity, "clk_err_rated_account"}},
	{game.ErrRatedNeedsClock, &UserError{http.StatusUnprocessableEntity, "clk_err_rated_clock"}},
	{game.ErrChallengeTaken, &UserError{http.StatusConflict, "clk_err_taken"}},
	{game.ErrOwnChallenge, &UserError{http.StatusConflict, "clk_err_own"}},
	{game.ErrNotForYou, &UserError{http.StatusForbidden, "clk_err_not_for_you"}},
	{game.ErrVsComputer, &UserError{http.StatusConflict, "err_vs_computer"}},
	{game.ErrNoHint, &UserError{http.StatusConflict, "err_no_hint"}},
	{game.ErrNoTakeback, &UserError{http.StatusConflict, "err_no_takeback"}},
	{game.ErrOfferPending, &UserError{http.StatusConflict, "err_offer_pending"}},
	{game.ErrBusy, &UserError{http.StatusServiceUnavailable, "err_busy"}},
	{tournament.ErrNotFound, &UserError{http.StatusNotFound, "trn_err_not_found"}},
	{tournament.ErrBadKind, &UserError{http.StatusUnprocessableEntity, "trn_err_kind"}},
	{tournament.ErrBadName, &UserError{http.StatusUnprocessableEntity, "trn_err_name"}},
	{tournament.ErrBadMinutes, &UserError{http.StatusUnprocessableEntity, "trn_err_minutes"}},
	{tournament.ErrBadRounds, &UserError{http.StatusUnprocessableEntity, "trn_err_rounds"}},
	{tournament.ErrBadInterval, &UserError{http.StatusUnprocessableEntity, "trn_err_round_minutes"}},
	{tournament.ErrBadStart, &UserError{http.StatusUnprocessableEntity, "trn_err_start"}},
	{tournament.ErrBadClock, &UserError{http.StatusUnprocessableEntity, "trn_err_clock"}},
	{tournament.ErrBadPassword, &UserError{http.StatusUnprocessableEntity, "trn_err_password_long"}},
	{tournament.ErrBadAdmits, &UserError{http.StatusUnprocessableEntity, "trn_err_admits"}},
	{tournament.ErrBadSettings, &UserError{http.StatusUnprocessableEntity, "trn_err_rules"}},
	{tournament.ErrNeedsAccount, ErrNeedsAccount},
	{tournament.ErrTooMany, &UserError{http.StatusConflict, "trn_err_too_many"}},
	{tournament.ErrFinished, &UserError{http.StatusConflict, "trn_err_finished"}},
	{tournament.ErrWrongPassword, &UserError{http.StatusForbidden, "trn_err_password"}},
	{tournament.ErrFull, &UserError{http.StatusConflict, "trn_err_full"}},
	{tournament.ErrForfeited, &UserError{http.StatusConflict, "trn_err_forfeited"}},
	{tournament.ErrTooLate, &UserError{http.StatusConflict, "trn_err_too_late"}},
	{tournament.ErrBotsOnly, &UserError{http.StatusForbidden, "trn_err_bots_only"}},
	{tournament.ErrPeopleOnly, &UserError{http.StatusForbidden, "trn_err_people_only"}},
	{tournament.ErrNotPlayer, &UserError{http.StatusConflict, "trn_err_not_player"}},
	{engine.ErrTooMuchWork, &UserError{http.StatusUnprocessableEntity, "err_too_much_work"}},
	{engine.ErrGameOver, &UserError{http.StatusConflict, "err_game_over"}},
	{engine.ErrBadLabel, &UserError{http.StatusUnprocessableEntity, "err_bad_label"}},
	{engine.ErrBadPit, &UserError{http.StatusUnprocessableEntity, "err_bad_pit"}},
	{engine.ErrNotOwnPit, &UserError{http.StatusUnprocessableEntity, "err_not_own_pit"}},
	{engine.ErrEmptyPit, &UserError{http.StatusUnprocessableEntity, "err_empty_pit"}},
	{engine.ErrMustFeed, &UserError{http.StatusUnprocessableEntity, "err_must_feed"}},
	{engine.ErrGrandSlamForbidden, &UserError{http.StatusUnprocessableEntity, "err_grand_slam_forbidden"}},
	{engine.ErrEndlessSowing, &UserError{http.StatusUnprocessableEntity, "err_endless_sowing"}},
}

// Refusal maps an error of the game service or the engine to its refusal;
// other errors are returned as they are (server faults).
func Refusal(err error) error {
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

// RetryAfter is the Retry-After of a 503 (the computer busy, the database
// out of reach): about how long a PostgreSQL restart takes.
const RetryAfter = 3 * time.Second

// SetRetryAfter sets the Retry-After header of the answer to d in whole
// seconds, rounded up, at least 1, and returns them.
func SetRetryAfter(c echo.Context, d time.Duration) int {
	secs := max(int((d+time.Second-1)/time.Second), 1)
	c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(secs))
	return secs
}

// allowHead adds HEAD to the Allow header of a 405 (Echo's router lists
// the methods of the path's routes) when it lists GET: a HEAD is served
// as a GET (headAsGet).
func allowHead(c echo.Context) {
	hdr := c.Response().Header()
	methods := strings.Split(hdr.Get(echo.HeaderAllow), ", ")
	if slices.Contains(methods, http.MethodGet) && !slices.Contains(methods, http.MethodHead) {
		hdr.Set(echo.HeaderAllow, strings.Join(append(methods, http.MethodHead), ", "))
	}
}

// langCode is the shape of a language tag as one writes it in an address:
// a language of 2 or 3 letters (ISO 639), maybe a region or a script
// ("de", "ces", "en-GB", "pt_BR", "zh-Hant-TW").
var langCode = regexp.MustCompile(`^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,2}$`)

// unknownLang tells whether a page's 404 comes from the first segment of
// its path, shaped as a language code (langCode) and not one of the
// site's, where the language prefix goes: then it returns the code and
// the address in each of the site's languages (the same rest of the path
// when a route under the prefix matched it, else the home page).
func unknownLang(c echo.Context) (code string, links map[string]string, ok bool) {
	seg, rest := pathLang(c)
	if ValidLang(seg) || !langCode.MatchString(seg) || seg == "api" {
		return "", nil, false
	}
	if !underLang(c) {
		rest = ""
	}
	links = map[string]string{}
	for _, l := range locales.Langs {
		links[l] = "/" + l + "/" + rest
	}
	return seg, links, true
}

// HandleError answers an error: JSON under /api/, else a localized page.
// A method the path does not serve (Echo's 405) keeps its Allow header.
// A page's 404 under a language code the site does not speak says so, in
// the language of Accept-Language, with links to the site's languages.
// Refusals keep their status (a 503 refusal, the computer busy, with
// Retry-After and no error in the log); the database out of reach
// (game.Unavailable) is 503 with Retry-After; anything else is logged as a
// 500.
func (h *Handlers) HandleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, key := http.StatusInternalServerError, "err_internal"
	var ue *UserError
	var he *echo.HTTPError
	switch {
	case errors.Is(err, game.ErrNotFound):
		status, key = http.StatusNotFound, missingKey(c.Request().URL.Path)
	case errors.As(Refusal(err), &ue):
		status, key = ue.Status, ue.Key
	case errors.As(err, &he):
		status = he.Code
		switch {
		case status == http.StatusNotFound:
			key = "err_not_found"
		case status == http.StatusMethodNotAllowed:
			key = "err_method_not_allowed"
			allowHead(c)
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
		SetRetryAfter(c, RetryAfter)
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
		_ = c.JSON(status, map[string]string{"error": h.Localizers[DefaultLang].T(key)})
		return
	}
	if r := c.Request(); r.Context().Err() != nil {
		// The connection's read failed (a body cut off by ReadTimeout):
		// the answer is still written.
		c.SetRequest(r.WithContext(context.WithoutCancel(r.Context())))
	}
	title := "title_error"
	switch status {
	case http.StatusNotFound:
		title = "title_not_found"
	case http.StatusMethodNotAllowed:
		title = "title_method_not_allowed"
	case http.StatusForbidden:
		title = "title_forbidden"
	}
	if key == "err_unavailable" {
		title = "title_unavailable"
	}
	code, links, unknown := "", map[string]string(nil), false
	if status == http.StatusNotFound {
		code, links, unknown = unknownLang(c)
	}
	if unknown {
		title = "title_unknown_lang"
	}
	p := h.Page(c, title, route.HomePattern)
	p.NoIndex, p.Query = true, "" // the language links lead home, without the query
	page := views.ErrorPage(p, p.L.T(key))
	if unknown {
		page = views.UnknownLangPage(p, p.L.T("err_unknown_lang", "Code", code), links)
	}
	if unsure != "" {
		c.Response().Header().Set("X-Move-Unsure", "1")
		page = views.UnsureMovePage(p, p.L.T("fp_err_move_unsure"), route.Game(LangOf(c), unsure))
	}
	if err := Render(c, status, page); err != nil {
		// The status alone, so that the log and the metrics name it (an
		// empty answer would go as 200).
		_ = c.NoContent(status)
		if c.Request().Context().Err() != nil { // the client went away
			h.logRequest(c, slog.LevelInfo, "request abandoned")
			return
		}
		h.Log.ErrorContext(c.Request().Context(), "render error page", "err", err)
	}
}
