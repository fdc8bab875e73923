package live

import (
	"github.com/labstack/echo/v4"

	"oware/handlers/core"
	"oware/route"
	"oware/tournament"
	"oware/views"
)

// Server serves the event streams (SSE) of games, reviews and
// tournaments, over the handlers' shared state.
type Server struct {
	*core.Handlers
	hub       *hub       // the games' event streams (live.go)
	standings *standings // the tournaments' counts shared by the streams (standings.go)
	panels    core.RenderPanels
	// tournamentView is the live part of a tournament's page as the
	// request's visitor sees it (the site's).
	tournamentView func(echo.Context, *tournament.View) views.TournamentView
}

// New returns the event streams over h: the game panels are rendered by
// panels, a tournament's live part by tournamentView. It hooks them to
// the services (each version the game service stores, each change of a
// tournament) and sets h.Actions, so that the middleware holds a page's
// frames while its action is in flight.
func New(h *core.Handlers, panels core.RenderPanels,
	tournamentView func(echo.Context, *tournament.View) views.TournamentView) *Server {
	s := &Server{Handlers: h, panels: panels, tournamentView: tournamentView}
	s.hub = newHub(h.Events, h.Log, h.Games.Load, panels)
	h.Games.OnStore(s.hub.stored)
	h.Actions = s.hub
	h.Tournaments.OnChange(s.publishTournament)
	s.standings = newStandings(h.Events, h.Tournaments.ViewOf, h.Log)
	return s
}

// Routes adds the event streams to g, the group of the language prefix.
func (h *Server) Routes(g *echo.Group) {
	g.GET(route.GameEventsPattern, h.gameEvents)
	g.GET(route.WatchEventsPattern, h.watchEvents)
	g.GET(route.GameAnalysisEventsPattern, h.reviewEvents("g/"))
	g.GET(route.ImportAnalysisEventsPattern, h.reviewEvents("i/"))
	g.GET(route.TournamentEventsPattern, h.tournamentEvents)
}
