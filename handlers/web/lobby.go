package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// The lobby (issue 12): open challenges, quick pairing, and the API of
// challenges. A visitor's open challenge is kept in their session; its
// game's seat token is kept at once under the game's id to be, so the
// lobby takes the creator to the game as soon as someone accepts.

// player returns the lobby identity of the request's visitor (making the
// browser's key when needed; the caller saves the session).
func (h *Site) player(c echo.Context) game.Player {
	v := h.Visit(c)
	return game.Player{UserID: h.UserID(c), Owner: game.OwnerOf(h.UserID(c), v.Sess.BrowserKey()), Client: core.ClientKey(c)}
}

// lobbyPage is the lobby. A visitor whose challenge was taken goes to
// their game; while it is open it stays open (the page reloads without
// JavaScript, the list polls with it).
func (h *Site) lobbyPage(c echo.Context) error {
	key, _ := h.Visit(c).Sess.TakeFlash()
	return h.renderLobby(c, http.StatusOK, key)
}

// renderLobby shows the lobby with status and the refusal errKey ("" for
// none).
func (h *Site) renderLobby(c echo.Context, status int, errKey string) error {
	v, gameID, err := h.lobbyView(c)
	if err != nil {
		return err
	}
	if gameID != "" {
		return core.Redirect(c, route.Game(core.LangOf(c), gameID))
	}
	p := h.Page(c, "title_lobby", route.LobbyPattern)
	p.Description = p.L.T("lobby_description")
	if v.Mine != nil {
		p.Refresh = 5
	}
	if errKey != "" {
		v.Error = p.L.T(errKey)
	}
	if r := c.QueryParam("declined"); v.Declined == "" && slices.Contains(game.DeclineReasons, r) {
		v.Declined = r // the list's poll saw the decline (lobbyList)
	}
	return core.Render(c, status, views.LobbyPage(p, v))
}

// lobbyList is the list of challenges that the lobby and the home page
// poll; when the visitor's challenge was taken it sends them to the game
// (HX-Redirect).
func (h *Site) lobbyList(c echo.Context) error {
	v, game, err := h.lobbyView(c)
	if err != nil {
		return err
	}
	if game != "" {
		c.Response().Header().Set("HX-Redirect", route.Game(core.LangOf(c), game))
		return c.NoContent(http.StatusOK)
	}
	if v.Declined != "" {
		c.Response().Header().Set("HX-Redirect", route.Lobby(core.LangOf(c))+"?declined="+v.Declined)
		return c.NoContent(http.StatusOK)
	}
	if c.QueryParam("for") == "me" {
		mine, err := h.challengesForMe(c)
		if err != nil || mine == nil {
			return err
		}
		v = *mine
	}
	return core.Render(c, http.StatusOK, views.LobbyList(h.Visit(c).L, core.LangOf(c), v))
}

// lobbyView returns the lobby as the visitor sees it, or the id of the
// game their challenge became; a challenge declined is forgotten, its
// reason in v.Declined.
func (h *Site) lobbyView(c echo.Context) (views.LobbyView, string, error) {
	ctx := c.Request().Context()
	vis := h.Visit(c)
	lang := core.LangOf(c)
	v := views.LobbyView{CSRF: core.CsrfToken(c), ListURL: route.LobbyList(lang), Player: h.User(c) != nil}
	if id := vis.Sess.Challenge(); id != "" {
		ch, err := h.Games.FindChallenge(ctx, id)
		switch {
		case err == nil && ch.Status == "taken":
			vis.Sess.SetChallenge("")
			return v, ch.GameID, vis.Sess.Save()
		case err == nil && ch.Status == "open":
			if err := h.Games.KeepChallenge(ctx, ch, false); err != nil {
				return v, "", err
			}
		case err == nil && ch.Declined != "": // the challenged bot said why (the Bot API's decline)
			v.Declined = ch.Declined
			fallthrough
		default:
			vis.Sess.SetChallenge("")
			if err := vis.Sess.Save(); err != nil {
				return v, "", err
			}
		}
	}
	me := h.player(c)
	list, err := h.Games.Challenges(ctx, me)
	if err != nil {
		return v, "", err
	}
	for _, ch := range list {
		row := views.ChallengeRow{ID: ch.ID, Rules: ch.Rules, Clock: ch.Clock.String(), By: ch.By, ByBot: ch.ByBot, ByRating: ch.ByRating,
			Rated: ch.Rated, CasualForViewer: ch.CasualForViewer, PairGames: game.PairGames,
			MinRating: ch.MinRating, MaxRating: ch.MaxRating, ForMe: ch.ForMe,
			Mine: ch.Owner == me.Owner, Action: route.ChallengeAccept(lang, ch.ID)}
		if row.Mine {
			row.Action = route.ChallengeCancel(lang, ch.ID)
			if ch.ID == vis.Sess.Challenge() {
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
func (h *Site) quickForm(c echo.Context) error {
	tc, err := game.ParseTimeControl(c.FormValue("clock"))
	if err != nil || !tc.On() {
		return core.ErrBadRequest
	}
	if err := h.RoomForSeat(c); err != nil {
		return err
	}
	if err := h.Challenges.Check(c); err != nil {
		return err
	}
	rated := c.FormValue("rated") == "on" && h.User(c) != nil
	g, ch, token, _, err := h.Games.QuickPair(c.Request().Context(), "abapa", tc, rated, h.player(c))
	if err != nil {
		return h.lobbyRefusal(c, err)
	}
	if g != nil {
		if err := h.KeepSeat(c, g.ID, game.HashToken(token)); err != nil {
			return err
		}
		return core.Redirect(c, route.Game(core.LangOf(c), g.ID))
	}
	return h.waitInLobby(c, ch, token)
}

// waitInLobby keeps the visitor's new challenge ch (and the seat token of
// its game to be) and shows the lobby.
func (h *Site) waitInLobby(c echo.Context, ch *game.Challenge, token string) error {
	sess := h.Visit(c).Sess
	if old := sess.Challenge(); old != "" && old != ch.ID {
		if err := h.Games.CancelChallenge(c.Request().Context(), old); err != nil {
			return err
		}
	}
	sess.SetChallenge(ch.ID)
	if err := sess.Save(); err != nil {
		return err
	}
	if err := h.KeepSeat(c, ch.NextGame(), game.HashToken(token)); err != nil {
		return err
	}
	return core.Redirect(c, route.Lobby(core.LangOf(c)))
}

// lobbyRefusal shows a refused lobby action on the lobby page (Post/
// Redirect/Get); bad settings (422) are answered with the lobby page at
// once, so that its status says so; server faults, and a refusal past a
// limit (429, a page of its own), go on.
func (h *Site) lobbyRefusal(c echo.Context, err error) error {
	var ue *core.UserError
	if !errors.As(core.Refusal(err), &ue) || ue.Status == http.StatusTooManyRequests {
		return err
	}
	if ue.Status == http.StatusUnprocessableEntity {
		return h.renderLobby(c, ue.Status, ue.Key)
	}
	if err := h.Visit(c).Sess.SetFlash(ue.Key); err != nil {
		return err
	}
	return core.Redirect(c, route.Lobby(core.LangOf(c)))
}

// challengeForm opens a challenge with the form's settings.
func (h *Site) challengeForm(c echo.Context) error {
	set, err := challengeSettings(c)
	if err != nil {
		return h.lobbyRefusal(c, err)
	}
	return h.sendChallenge(c, set, h.lobbyRefusal)
}

// sendChallenge opens the challenge set for the visitor, who waits for
// its answer in the lobby; refused answers a refusal of the settings.
func (h *Site) sendChallenge(c echo.Context, set game.ChallengeSettings, refused func(echo.Context, error) error) error {
	if err := h.RoomForSeat(c); err != nil {
		return err
	}
	if err := h.Challenges.Check(c); err != nil {
		return err
	}
	set.UserID = h.UserID(c)
	ch, token, err := h.Games.CreateChallenge(c.Request().Context(), set, h.player(c))
	if err != nil {
		return refused(c, err)
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
func (h *Site) acceptForm(c echo.Context) error {
	if err := h.RoomForSeat(c); err != nil {
		return err
	}
	g, token, _, err := h.Games.Accept(c.Request().Context(), c.Param("id"), h.player(c))
	if err != nil {
		return h.lobbyRefusal(c, err)
	}
	if err := h.KeepSeat(c, g.ID, game.HashToken(token)); err != nil {
		return err
	}
	return core.Redirect(c, route.Game(core.LangOf(c), g.ID))
}

// cancelForm cancels the visitor's own challenge.
func (h *Site) cancelForm(c echo.Context) error {
	ctx := c.Request().Context()
	ch, err := h.Games.FindChallenge(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if ch.Owner != h.player(c).Owner {
		return core.ErrNoSeat
	}
	if err := h.Games.CancelChallenge(ctx, ch.ID); err != nil {
		return err
	}
	sess := h.Visit(c).Sess
	if sess.Challenge() == ch.ID {
		sess.SetChallenge("")
	}
	if err := sess.Save(); err != nil {
		return err
	}
	return core.Redirect(c, route.Lobby(core.LangOf(c)))
}

// challengesForMe returns the lobby list of the open challenges for the
// logged-in visitor alone, nil when there are none.
func (h *Site) challengesForMe(c echo.Context) (*views.LobbyView, error) {
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
