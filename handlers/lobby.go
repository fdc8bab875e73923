package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/route"
	"oware/views"
)

// The lobby (issue 12): open challenges, quick pairing, and the API of
// challenges. A visitor's open challenge is kept in their session; its
// game's seat token is kept at once under the game's id to be, so the
// lobby takes the creator to the game as soon as someone accepts.

// player returns the lobby identity of the request's visitor (making the
// browser's key when needed; the caller saves the session).
func (h *handler) player(c echo.Context) game.Player {
	v := h.visit(c)
	return game.Player{UserID: h.userID(c), Owner: game.OwnerOf(h.userID(c), v.sess.browserKey()), Client: clientKey(c)}
}

// lobbyPage is the lobby. A visitor whose challenge was taken goes to
// their game; while it is open it stays open (the page reloads without
// JavaScript, the list polls with it).
func (h *handler) lobbyPage(c echo.Context) error {
	key, _ := h.visit(c).sess.takeFlash()
	return h.renderLobby(c, http.StatusOK, key)
}

// renderLobby shows the lobby with status and the refusal errKey ("" for
// none).
func (h *handler) renderLobby(c echo.Context, status int, errKey string) error {
	v, game, err := h.lobbyView(c)
	if err != nil {
		return err
	}
	if game != "" {
		return redirect(c, route.Game(langOf(c), game))
	}
	p := h.page(c, "title_lobby", route.LobbyPattern)
	p.Description = p.L.T("lobby_description")
	if v.Mine != nil {
		p.Refresh = 5
	}
	if errKey != "" {
		v.Error = p.L.T(errKey)
	}
	return render(c, status, views.LobbyPage(p, v))
}

// lobbyList is the list of challenges that the lobby and the home page
// poll; when the visitor's challenge was taken it sends them to the game
// (HX-Redirect).
func (h *handler) lobbyList(c echo.Context) error {
	v, game, err := h.lobbyView(c)
	if err != nil {
		return err
	}
	if game != "" {
		c.Response().Header().Set("HX-Redirect", route.Game(langOf(c), game))
		return c.NoContent(http.StatusOK)
	}
	if c.QueryParam("for") == "me" {
		mine, err := h.challengesForMe(c)
		if err != nil || mine == nil {
			return err
		}
		v = *mine
	}
	return render(c, http.StatusOK, views.LobbyList(h.visit(c).l, langOf(c), v))
}

// lobbyView returns the lobby as the visitor sees it, or the id of the
// game their challenge became.
func (h *handler) lobbyView(c echo.Context) (views.LobbyView, string, error) {
	ctx := c.Request().Context()
	vis := h.visit(c)
	lang := langOf(c)
	v := views.LobbyView{CSRF: csrfToken(c), ListURL: route.LobbyList(lang), Player: h.user(c) != nil}
	if id := vis.sess.challenge(); id != "" {
		ch, err := h.games.FindChallenge(ctx, id)
		switch {
		case err == nil && ch.Status == "taken":
			vis.sess.setChallenge("")
			return v, ch.GameID, vis.sess.save()
		case err == nil && ch.Status == "open":
			if err := h.games.KeepChallenge(ctx, ch, false); err != nil {
				return v, "", err
			}
		default:
			vis.sess.setChallenge("")
			if err := vis.sess.save(); err != nil {
				return v, "", err
			}
		}
	}
	me := h.player(c)
	list, err := h.games.Challenges(ctx, me)
	if err != nil {
		return v, "", err
	}
	for _, ch := range list {
		row := views.ChallengeRow{ID: ch.ID, Rules: ch.Rules, Clock: ch.Clock.String(), By: ch.By, ByRating: ch.ByRating,
			Rated: ch.Rated, CasualForViewer: ch.CasualForViewer, PairGames: game.PairGames,
			MinRating: ch.MinRating, MaxRating: ch.MaxRating, ForMe: ch.ForMe,
			Mine: ch.Owner == me.Owner, Action: route.ChallengeAccept(lang, ch.ID)}
		if row.Mine {
			row.Action = route.ChallengeCancel(lang, ch.ID)
			if ch.ID == vis.sess.challenge() {
				mine := row
				v.Mine = &mine
			}
		}
		v.Challenges = append(v.Challenges, row)
	}
	return v, "", nil
}

// quickForm is a quick-pairing button (form field clock, a preset; rated
// for a player who asks for it): the visitor plays whoever waits with the
// same button, or waits for the next one in the lobby.
func (h *handler) quickForm(c echo.Context) error {
	tc, err := game.ParseTimeControl(c.FormValue("clock"))
	if err != nil || !tc.On() {
		return errBadRequest
	}
	if err := h.roomForSeat(c); err != nil {
		return err
	}
	if err := h.challenges.check(c); err != nil {
		return err
	}
	rated := c.FormValue("rated") == "on" && h.user(c) != nil
	g, ch, token, _, err := h.games.QuickPair(c.Request().Context(), "abapa", tc, rated, h.player(c))
	if err != nil {
		return h.lobbyRefusal(c, err)
	}
	if g != nil {
		if err := h.keepSeat(c, g.ID, game.HashToken(token)); err != nil {
			return err
		}
		return redirect(c, route.Game(langOf(c), g.ID))
	}
	return h.waitInLobby(c, ch, token)
}

// waitInLobby keeps the visitor's new challenge ch (and the seat token of
// its game to be) and shows the lobby.
func (h *handler) waitInLobby(c echo.Context, ch *game.Challenge, token string) error {
	sess := h.visit(c).sess
	if old := sess.challenge(); old != "" && old != ch.ID {
		if err := h.games.CancelChallenge(c.Request().Context(), old); err != nil {
			return err
		}
	}
	sess.setChallenge(ch.ID)
	if err := sess.save(); err != nil {
		return err
	}
	if err := h.keepSeat(c, ch.NextGame(), game.HashToken(token)); err != nil {
		return err
	}
	return redirect(c, route.Lobby(langOf(c)))
}

// lobbyRefusal shows a refused lobby action on the lobby page (Post/
// Redirect/Get); bad settings (422) are answered with the lobby page at
// once, so that its status says so; server faults, and a refusal past a
// limit (429, a page of its own), go on.
func (h *handler) lobbyRefusal(c echo.Context, err error) error {
	var ue *userError
	if !errors.As(refusal(err), &ue) || ue.status == http.StatusTooManyRequests {
		return err
	}
	if ue.status == http.StatusUnprocessableEntity {
		return h.renderLobby(c, ue.status, ue.key)
	}
	if err := h.visit(c).sess.setFlash(ue.key); err != nil {
		return err
	}
	return redirect(c, route.Lobby(langOf(c)))
}

// challengeForm opens a challenge with the form's settings.
func (h *handler) challengeForm(c echo.Context) error {
	set, err := challengeSettings(c)
	if err != nil {
		return h.lobbyRefusal(c, err)
	}
	if err := h.roomForSeat(c); err != nil {
		return err
	}
	if err := h.challenges.check(c); err != nil {
		return err
	}
	set.UserID = h.userID(c)
	ch, token, err := h.games.CreateChallenge(c.Request().Context(), set, h.player(c))
	if err != nil {
		return h.lobbyRefusal(c, err)
	}
	return h.waitInLobby(c, ch, token)
}

// challengeSettings reads the form of a new challenge.
func challengeSettings(c echo.Context) (game.ChallengeSettings, error) {
	set := game.ChallengeSettings{Settings: game.Settings{Rules: c.FormValue("rules"), Seat: c.FormValue("seat")},
		For: c.FormValue("for")}
	if set.Rules == "namnam" {
		set.Fours = c.FormValue("fours")
	}
	var err error
	if set.Clock, err = formTimeControl(c); err != nil {
		return set, err
	}
	set.Rated = c.FormValue("rated") == "on"
	for _, f := range []struct {
		name string
		to   *int
	}{{"min_rating", &set.MinRating}, {"max_rating", &set.MaxRating}} {
		if s := c.FormValue(f.name); s != "" && set.Rated {
			n, err := strconv.Atoi(s)
			if err != nil {
				return set, game.ErrBadRatingRange
			}
			*f.to = n
		}
	}
	return set, nil
}

// formTimeControl reads the time control field of a form (clock: a
// choice of views.TimeControls; minutes and increment for a custom one).
func formTimeControl(c echo.Context) (game.TimeControl, error) {
	clock := c.FormValue("clock")
	if clock == "custom" {
		clock = c.FormValue("minutes") + "+" + c.FormValue("increment")
	}
	return game.ParseTimeControl(clock)
}

// acceptForm takes a challenge: the visitor goes to the game.
func (h *handler) acceptForm(c echo.Context) error {
	if err := h.roomForSeat(c); err != nil {
		return err
	}
	g, token, _, err := h.games.Accept(c.Request().Context(), c.Param("id"), h.player(c))
	if err != nil {
		return h.lobbyRefusal(c, err)
	}
	if err := h.keepSeat(c, g.ID, game.HashToken(token)); err != nil {
		return err
	}
	return redirect(c, route.Game(langOf(c), g.ID))
}

// cancelForm cancels the visitor's own challenge.
func (h *handler) cancelForm(c echo.Context) error {
	ctx := c.Request().Context()
	ch, err := h.games.FindChallenge(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if ch.Owner != h.player(c).Owner {
		return errNoSeat
	}
	if err := h.games.CancelChallenge(ctx, ch.ID); err != nil {
		return err
	}
	sess := h.visit(c).sess
	if sess.challenge() == ch.ID {
		sess.setChallenge("")
	}
	if err := sess.save(); err != nil {
		return err
	}
	return redirect(c, route.Lobby(langOf(c)))
}

// challengeJSON is a challenge in the API.
type challengeJSON struct {
	ID        string           `json:"id"`
	Rules     string           `json:"rules"`
	Fours     string           `json:"fours,omitempty"`
	Clock     *timeControlJSON `json:"clock"`
	Rated     bool             `json:"rated"`
	By        *string          `json:"by"`               // the creator's username; null for a guest
	Rating    *string          `json:"rating,omitempty"` // the creator's rating in the game's category
	Seat      string           `json:"seat"`             // the creator's: south, north, random
	MinRating int              `json:"min_rating,omitempty"`
	MaxRating int              `json:"max_rating,omitempty"`
}

func toChallengeJSON(ch *game.Challenge) challengeJSON {
	j := challengeJSON{ID: ch.ID, Rules: ch.Rules, Fours: ch.Fours, Clock: timeControlOf(ch.Clock), Rated: ch.Rated,
		Seat: ch.Seat, MinRating: ch.MinRating, MaxRating: ch.MaxRating}
	if ch.By != "" {
		by := ch.By
		j.By = &by
	}
	if ch.ByRating != "" {
		r := ch.ByRating
		j.Rating = &r
	}
	return j
}

// apiChallenges: GET /api/v1/challenges -> the open challenges.
func (h *handler) apiChallenges(c echo.Context) error {
	list, err := h.games.Challenges(c.Request().Context(), game.Player{UserID: h.userID(c)})
	if err != nil {
		return err
	}
	out := make([]challengeJSON, len(list))
	for i, ch := range list {
		out[i] = toChallengeJSON(ch)
	}
	return c.JSON(http.StatusOK, out)
}

// apiCreateChallenge: POST /api/v1/challenges {"rules","fours","seat",
// "clock","rated","for","min_rating","max_rating"} -> 201 {"id","token"}.
// A rated challenge needs an account: the session cookie of a logged-in
// player.
func (h *handler) apiCreateChallenge(c echo.Context) error {
	var req struct {
		Rules     string           `json:"rules"`
		Fours     string           `json:"fours"`
		Seat      string           `json:"seat"`
		Clock     *timeControlJSON `json:"clock"`
		Rated     bool             `json:"rated"`
		For       string           `json:"for"`
		MinRating int              `json:"min_rating"`
		MaxRating int              `json:"max_rating"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := h.challenges.check(c); err != nil {
		return err
	}
	tc, err := req.Clock.timeControl()
	if err != nil {
		return err
	}
	by := h.apiPlayer(c)
	set := game.ChallengeSettings{Settings: game.Settings{Rules: req.Rules, Fours: req.Fours, Seat: req.Seat,
		UserID: by.UserID, Clock: tc, Rated: req.Rated}, For: req.For, MinRating: req.MinRating, MaxRating: req.MaxRating, API: true}
	ch, token, err := h.games.CreateChallenge(c.Request().Context(), set, by)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]string{"id": ch.ID, "token": token})
}

// apiPlayer returns the lobby identity of an API client: the account of
// its session cookie, else a new one of its own.
func (h *handler) apiPlayer(c echo.Context) game.Player {
	if id := h.userID(c); id != 0 {
		return game.Player{UserID: id, Owner: game.OwnerOf(id, ""), Client: clientKey(c)}
	}
	return game.Player{Owner: "a" + game.NewToken()[:16], Client: clientKey(c)}
}

// apiChallenge: GET /api/v1/challenges/{id} -> the challenge with "game"
// (its game's id once taken, else null) and "status". The creator's
// bearer token keeps it open (APIWait).
func (h *handler) apiChallenge(c echo.Context) error {
	ctx := c.Request().Context()
	ch, err := h.games.FindChallenge(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if ch.SeatToken(bearerToken(c)) {
		if err := h.games.KeepChallenge(ctx, ch, true); err != nil {
			return err
		}
	}
	var out struct {
		challengeJSON
		Game   *string `json:"game"`
		Status string  `json:"status"` // open, taken, cancelled
	}
	out.challengeJSON, out.Status = toChallengeJSON(ch), ch.Status
	if ch.GameID != "" {
		id := ch.GameID
		out.Game = &id
	}
	return c.JSON(http.StatusOK, out)
}

// apiAccept: POST /api/v1/challenges/{id}/accept -> 200 {"game","token",
// "seat"}; 409 when taken (or cancelled, or gone).
func (h *handler) apiAccept(c echo.Context) error {
	ctx := c.Request().Context()
	p := h.apiPlayer(c)
	if t := bearerToken(c); t != "" {
		if ch, err := h.games.FindChallenge(ctx, c.Param("id")); err == nil && ch.SeatToken(t) {
			return game.ErrOwnChallenge
		}
	}
	g, token, seat, err := h.games.Accept(ctx, c.Param("id"), p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"game": g.ID, "token": token, "seat": seat.String()})
}

// apiCancel: DELETE /api/v1/challenges/{id} with the creator's bearer
// token -> 204.
func (h *handler) apiCancel(c echo.Context) error {
	ctx := c.Request().Context()
	ch, err := h.games.FindChallenge(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if !ch.SeatToken(bearerToken(c)) {
		return errNoSeat
	}
	if err := h.games.CancelChallenge(ctx, ch.ID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// challengesForMe returns the lobby list of the open challenges for the
// logged-in visitor alone, nil when there are none.
func (h *handler) challengesForMe(c echo.Context) (*views.LobbyView, error) {
	v, _, err := h.lobbyView(c)
	if err != nil {
		return nil, err
	}
	var mine []views.ChallengeRow
	for _, ch := range v.Challenges {
		if ch.ForMe && !ch.Mine {
			mine = append(mine, ch)
		}
	}
	if len(mine) == 0 {
		return nil, nil
	}
	v.Challenges, v.ListURL = mine, v.ListURL+"?for=me"
	return &v, nil
}
