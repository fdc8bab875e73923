package web

import (
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// newGameForm shows the table settings of a new game.
func (h *Site) newGameForm(c echo.Context) error {
	return core.Render(c, http.StatusOK, views.NewGamePage(h.Page(c, "title_new_game", route.NewGamePattern), core.CsrfToken(c), c.QueryParam("rules")))
}

// createGameForm sets up the table, keeps the creator's seat in the
// session and shows the game page (with the invitation link).
func (h *Site) createGameForm(c echo.Context) error {
	return h.startGame(c, game.Settings{})
}

// startGame sets up the table of the posted rule set, fours setting and
// seat (and set's opponent), keeps the creator's seat in the session and
// shows the game page.
func (h *Site) startGame(c echo.Context, set game.Settings) error {
	set.Rules, set.Seat, set.UserID = c.FormValue("rules"), c.FormValue("seat"), h.UserID(c)
	if set.Rules == "namnam" { // the form sends the fours setting with every rule set
		set.Fours = c.FormValue("fours")
	}
	var err error
	if set.Clock, err = formTimeControl(c); err != nil {
		return err
	}
	if err := h.RoomForSeat(c); err != nil {
		return err
	}
	g, token, err := h.Games.Create(c.Request().Context(), set)
	if err != nil {
		return err
	}
	if err := h.KeepSeat(c, g.ID, game.HashToken(token)); err != nil {
		return err
	}
	return core.Redirect(c, route.Game(core.LangOf(c), g.ID))
}

// load loads the game of the request's :id and the visitor's seat.
func (h *Site) load(c echo.Context) (*game.Game, engine.Side, error) {
	return h.Games.LoadFor(c.Request().Context(), c.Param("id"), h.VisitorOf(c))
}

// seated loads the game of the request's :id and the visitor's seat; a
// visitor without a seat is refused (403).
func (h *Site) seated(c echo.Context) (*game.Game, engine.Side, error) {
	return h.Games.LoadSeated(c.Request().Context(), c.Param("id"), h.VisitorOf(c))
}

// viewerOf returns the request's viewer of g in seat.
func (h *Site) viewerOf(c echo.Context, g *game.Game, seat engine.Side) viewer {
	w := viewer{lang: core.LangOf(c), seat: seat, csrf: core.CsrfToken(c), live: core.Htmx(c)}
	if seat == engine.Nobody && g.RematchID != "" {
		w.rematchKey = h.rematchKey(c, g)
	}
	return w
}

// rematchKey returns the spectator key of g's rematch, or "".
func (h *Site) rematchKey(c echo.Context, g *game.Game) string {
	ng, err := h.Games.Load(c.Request().Context(), g.RematchID)
	if err != nil {
		return ""
	}
	return ng.SpectatorKey
}

// gamePage is the game page of a seated player. A visitor without a seat
// goes to the join page while a seat is free, else sees the game as a
// spectator (a page kept for every visitor without an account).
func (h *Site) gamePage(c echo.Context) error {
	if h.Cacheable(c) {
		head, err := h.keptHead(c, c.Param("id"), false)
		if err != nil {
			return err
		}
		hash, err := h.GuestSeat(c, head)
		if err != nil {
			return err
		}
		if head.FreeSeat() == engine.Nobody && hash == "" && h.Pages.Serve(c, strconv.Itoa(head.Version)) {
			return nil
		}
	}
	g, seat, err := h.load(c)
	if err != nil {
		return err
	}
	if seat == engine.Nobody && g.FreeSeat() != engine.Nobody {
		return core.Redirect(c, route.GameJoin(core.LangOf(c), g.ID))
	}
	spectator := seat == engine.Nobody && h.Cacheable(c)
	v := h.gameView(g, h.viewerOf(c, g, seat))
	if seat != engine.Nobody {
		v.EventsURL += "&view=" + game.NewToken()[:12] // its actions' answers are not streamed again
	}
	p := h.Page(c, titleKey(g, "title_game"), route.Fill(route.GamePattern, g.ID))
	p.Preview = gamePreviewOf(h.Visit(c).L, g, route.GamePreview(p.Lang, g.ID, g.Version))
	key, err := h.Visit(c).Sess.TakeFlash()
	if err != nil {
		h.Log.ErrorContext(c.Request().Context(), "session", "err", err)
	}
	if key != "" {
		v.Error = p.L.T(key)
	}
	v.Presence = h.presenceView(c, g, seat)
	v.Practice = h.practiceBanner(c, g, seat)
	if v.Chat, err = h.chatView(c, g, seat); err != nil {
		return err
	}
	v.Sound, v.Mute = p.Board.Sound, !p.Board.Sound
	if spectator && key == "" && !g.Clock.On() {
		return h.Pages.RenderGame(c, g, p, func(p views.Page) templ.Component { return views.GamePage(p, v) })
	}
	return core.Render(c, http.StatusOK, views.GamePage(p, v))
}

// watchPage is the spectator view of the game with the :key (a page kept
// for every visitor without an account).
func (h *Site) watchPage(c echo.Context) error {
	cacheable := h.Cacheable(c)
	if cacheable {
		head, err := h.keptHead(c, c.Param("key"), true)
		if err != nil {
			return err
		}
		if h.Pages.Serve(c, strconv.Itoa(head.Version)) {
			return nil
		}
	}
	g, err := h.Games.LoadByKey(c.Request().Context(), c.Param("key"))
	if err != nil {
		return err
	}
	v := h.gameView(g, h.viewerOf(c, g, engine.Nobody))
	p := h.Page(c, titleKey(g, "title_watch"), route.Fill(route.WatchPattern, g.SpectatorKey))
	p.Preview = gamePreviewOf(h.Visit(c).L, g, route.WatchPreview(p.Lang, g.SpectatorKey, g.Version))
	if cacheable && !(g.Clock.On() && g.Status == game.Playing) { // a running clock is shown as of now
		return h.Pages.RenderGame(c, g, p, func(p views.Page) templ.Component { return views.GamePage(p, v) })
	}
	return core.Render(c, http.StatusOK, views.GamePage(p, v))
}

// keptHead returns the head of the game of a kept page's request (the
// game with the id, or the watch link's key when byKey): the kept page's
// when this instance knows from its events that the game is still at
// that version, with no query; else read from the database (Peek), which
// the events then know.
func (h *Site) keptHead(c echo.Context, idOrKey string, byKey bool) (*game.Head, error) {
	if head := h.Pages.KeptHead(c); head != nil {
		return head, nil
	}
	head, err := h.Games.Peek(c.Request().Context(), idOrKey, byKey)
	if err == nil {
		h.Pages.NoteHead(head)
	}
	return head, err
}

// joinPage is where the invitation link leads: the table settings and the
// free seat to take.
func (h *Site) joinPage(c echo.Context) error {
	g, seat, err := h.load(c)
	if err != nil {
		return err
	}
	lang := core.LangOf(c)
	if seat != engine.Nobody {
		return core.Redirect(c, route.Game(lang, g.ID))
	}
	v := views.JoinView{Rules: g.Rules.Name(), Fours: game.Fours(g.Rules), Join: route.GameJoin(lang, g.ID), CSRF: core.CsrfToken(c)}
	switch s := g.FreeSeat(); {
	case s != engine.Nobody:
		v.Seat = s.String()
	case g.Status == game.Over:
		v.Replay = route.GameReplay(lang, g.ID)
	default:
		v.Watch = route.Watch(lang, g.SpectatorKey)
	}
	p := h.Page(c, titleKey(g, "title_join"), route.Fill(route.GameJoinPattern, g.ID))
	p.Preview = invitationPreview(h.Visit(c).L, g, route.GamePreview(lang, g.ID, g.Version))
	return core.Render(c, http.StatusOK, views.JoinPage(p, v))
}

// joinForm takes the free seat: the game starts.
func (h *Site) joinForm(c echo.Context) error {
	g, seat, err := h.load(c)
	if err != nil {
		return err
	}
	if seat == engine.Nobody {
		if err := h.RoomForSeat(c); err != nil {
			return err
		}
		token, _, err := h.Games.Join(c.Request().Context(), g)
		if err != nil {
			return err
		}
		if err := h.KeepSeat(c, g.ID, game.HashToken(token)); err != nil {
			return err
		}
	}
	return core.Redirect(c, route.Game(core.LangOf(c), g.ID))
}
