package handlers

import (
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/game"
	"oware/route"
	"oware/views"
)

// newGameForm shows the table settings of a new game.
func (h *handler) newGameForm(c echo.Context) error {
	return render(c, http.StatusOK, views.NewGamePage(h.page(c, "title_new_game", route.NewGamePattern), csrfToken(c), c.QueryParam("rules")))
}

// createGameForm sets up the table, keeps the creator's seat in the
// session and shows the game page (with the invitation link).
func (h *handler) createGameForm(c echo.Context) error {
	return h.startGame(c, game.Settings{})
}

// startGame sets up the table of the posted rule set, fours setting and
// seat (and set's opponent), keeps the creator's seat in the session and
// shows the game page.
func (h *handler) startGame(c echo.Context, set game.Settings) error {
	set.Rules, set.Seat, set.UserID = c.FormValue("rules"), c.FormValue("seat"), h.userID(c)
	if set.Rules == "namnam" { // the form sends the fours setting with every rule set
		set.Fours = c.FormValue("fours")
	}
	var err error
	if set.Clock, err = formTimeControl(c); err != nil {
		return err
	}
	if err := h.roomForSeat(c); err != nil {
		return err
	}
	g, token, err := h.games.Create(c.Request().Context(), set)
	if err != nil {
		return err
	}
	if err := h.keepSeat(c, g.ID, game.HashToken(token)); err != nil {
		return err
	}
	return redirect(c, route.Game(langOf(c), g.ID))
}

// load loads the game of the request's :id and the visitor's seat.
func (h *handler) load(c echo.Context) (*game.Game, engine.Side, error) {
	return h.games.LoadFor(c.Request().Context(), c.Param("id"), h.visitorOf(c))
}

// seated loads the game of the request's :id and the visitor's seat; a
// visitor without a seat is refused (403).
func (h *handler) seated(c echo.Context) (*game.Game, engine.Side, error) {
	return h.games.LoadSeated(c.Request().Context(), c.Param("id"), h.visitorOf(c))
}

// viewerOf returns the request's viewer of g in seat.
func (h *handler) viewerOf(c echo.Context, g *game.Game, seat engine.Side) viewer {
	w := viewer{lang: langOf(c), seat: seat, csrf: csrfToken(c), live: htmx(c)}
	if seat == engine.Nobody && g.RematchID != "" {
		w.rematchKey = h.rematchKey(c, g)
	}
	return w
}

// rematchKey returns the spectator key of g's rematch, or "".
func (h *handler) rematchKey(c echo.Context, g *game.Game) string {
	ng, err := h.games.Load(c.Request().Context(), g.RematchID)
	if err != nil {
		return ""
	}
	return ng.SpectatorKey
}

// gamePage is the game page of a seated player. A visitor without a seat
// goes to the join page while a seat is free, else sees the game as a
// spectator (a page kept for every visitor without an account).
func (h *handler) gamePage(c echo.Context) error {
	if h.cacheable(c) {
		head, err := h.keptHead(c, c.Param("id"), false)
		if err != nil {
			return err
		}
		hash, err := h.guestSeat(c, head)
		if err != nil {
			return err
		}
		if head.FreeSeat() == engine.Nobody && hash == "" && h.pages.serve(c, strconv.Itoa(head.Version)) {
			return nil
		}
	}
	g, seat, err := h.load(c)
	if err != nil {
		return err
	}
	if seat == engine.Nobody && g.FreeSeat() != engine.Nobody {
		return redirect(c, route.GameJoin(langOf(c), g.ID))
	}
	spectator := seat == engine.Nobody && h.cacheable(c)
	v := h.gameView(g, h.viewerOf(c, g, seat))
	if seat != engine.Nobody {
		v.EventsURL += "&view=" + game.NewToken()[:12] // its actions' answers are not streamed again
	}
	p := h.page(c, titleKey(g, "title_game"), route.Fill(route.GamePattern, g.ID))
	key, err := h.visit(c).sess.takeFlash()
	if err != nil {
		h.log.ErrorContext(c.Request().Context(), "session", "err", err)
	}
	if key != "" {
		v.Error = p.L.T(key)
	}
	v.Presence = h.presenceView(c, g, seat)
	if v.Chat, err = h.chatView(c, g, seat); err != nil {
		return err
	}
	v.Sound, v.Mute = p.Board.Sound, !p.Board.Sound
	if spectator && key == "" && !g.Clock.On() {
		return h.pages.renderGame(c, g, p, func(p views.Page) templ.Component { return views.GamePage(p, v) })
	}
	return render(c, http.StatusOK, views.GamePage(p, v))
}

// watchPage is the spectator view of the game with the :key (a page kept
// for every visitor without an account).
func (h *handler) watchPage(c echo.Context) error {
	cacheable := h.cacheable(c)
	if cacheable {
		head, err := h.keptHead(c, c.Param("key"), true)
		if err != nil {
			return err
		}
		if h.pages.serve(c, strconv.Itoa(head.Version)) {
			return nil
		}
	}
	g, err := h.games.LoadByKey(c.Request().Context(), c.Param("key"))
	if err != nil {
		return err
	}
	v := h.gameView(g, h.viewerOf(c, g, engine.Nobody))
	p := h.page(c, titleKey(g, "title_watch"), route.Fill(route.WatchPattern, g.SpectatorKey))
	if cacheable && !(g.Clock.On() && g.Status == game.Playing) { // a running clock is shown as of now
		return h.pages.renderGame(c, g, p, func(p views.Page) templ.Component { return views.GamePage(p, v) })
	}
	return render(c, http.StatusOK, views.GamePage(p, v))
}

// keptHead returns the head of the game of a kept page's request (the
// game with the id, or the watch link's key when byKey): the kept page's
// when this instance knows from its events that the game is still at
// that version, with no query; else read from the database (Peek), which
// the events then know.
func (h *handler) keptHead(c echo.Context, idOrKey string, byKey bool) (*game.Head, error) {
	if head := h.pages.keptHead(c); head != nil {
		return head, nil
	}
	head, err := h.games.Peek(c.Request().Context(), idOrKey, byKey)
	if err == nil {
		h.pages.noteHead(head)
	}
	return head, err
}

// joinPage is where the invitation link leads: the table settings and the
// free seat to take.
func (h *handler) joinPage(c echo.Context) error {
	g, seat, err := h.load(c)
	if err != nil {
		return err
	}
	lang := langOf(c)
	if seat != engine.Nobody {
		return redirect(c, route.Game(lang, g.ID))
	}
	v := views.JoinView{Rules: g.Rules.Name(), Fours: game.Fours(g.Rules), Join: route.GameJoin(lang, g.ID), CSRF: csrfToken(c)}
	switch s := g.FreeSeat(); {
	case s != engine.Nobody:
		v.Seat = s.String()
	case g.Status == game.Over:
		v.Replay = route.GameReplay(lang, g.ID)
	default:
		v.Watch = route.Watch(lang, g.SpectatorKey)
	}
	return render(c, http.StatusOK, views.JoinPage(h.page(c, titleKey(g, "title_join"), route.Fill(route.GameJoinPattern, g.ID)), v))
}

// joinForm takes the free seat: the game starts.
func (h *handler) joinForm(c echo.Context) error {
	g, seat, err := h.load(c)
	if err != nil {
		return err
	}
	if seat == engine.Nobody {
		if err := h.roomForSeat(c); err != nil {
			return err
		}
		token, _, err := h.games.Join(c.Request().Context(), g)
		if err != nil {
			return err
		}
		if err := h.keepSeat(c, g.ID, game.HashToken(token)); err != nil {
			return err
		}
	}
	return redirect(c, route.Game(langOf(c), g.ID))
}
