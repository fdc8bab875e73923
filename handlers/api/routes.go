package api

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/handlers/core"
)

// openAPI is the OpenAPI document of the JSON API, served at
// /api/v1/openapi.json; a test checks that it lists every /api/v1 route.
//
//go:embed openapi.json
var openAPI []byte

// API is the JSON API under /api/v1 (games, challenges, analyses, the
// explorer, puzzles, reviews, tournaments and the OpenAPI document), over
// the handlers' shared state.
type API struct {
	*core.Handlers
	tokenRate *core.ClientLimit // each account token's limit (bots.go)
}

// New returns the JSON API over the shared state h.
func New(h *core.Handlers) *API {
	return &API{Handlers: h, tokenRate: core.NewRateLimit(core.RateLimit{}, defaultTokenLimit, errBotRate)}
}

// Routes adds the API's routes to g, the group of /api/v1.
func (h *API) Routes(g *echo.Group) {
	h.gameRoutes(g)
	h.challengeRoutes(g)
	h.tournamentRoutes(g)
	h.studyRoutes(g)
	h.botRoutes(g)
	g.GET("/openapi.json", func(c echo.Context) error {
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPI)
	})
}

// gameRoutes adds the games, their analyses and reviews, the explorer and
// the puzzles.
func (h *API) gameRoutes(g *echo.Group) {
	g.POST("/games", h.apiCreate)
	g.POST("/games/:id/join", h.apiJoin)
	// The answers of a game (answerGame) compress themselves.
	for _, r := range []*echo.Route{g.GET("/games/:id", h.apiGame), g.POST("/games/:id/moves", h.apiMove),
		g.POST("/games/:id/resign", h.apiResign), g.POST("/games/:id/claim", h.apiClaim)} {
		h.SelfCompressed(r.Path)
	}
	g.GET("/analysis", h.apiAnalysis)
	g.GET("/explorer", h.apiExplorer)
	g.GET("/puzzles", h.apiPuzzles)
	g.GET("/puzzles/:id", h.apiPuzzle)
	g.POST("/puzzles/:id/attempt", h.apiPuzzleAttempt)
	g.GET("/lessons", h.apiLessons)
	// Game reviews (review.go).
	g.POST("/games/:id/analysis", h.apiRequestReview(h.FinishedSubject))
	g.GET("/games/:id/analysis", h.apiReview(h.GameSubject))
	g.POST("/imports/:id/analysis", h.apiRequestReview(h.apiImportSubject))
	g.GET("/imports/:id/analysis", h.apiReview(h.apiImportSubject))
}

// challengeRoutes adds the open challenges (lobby.go).
func (h *API) challengeRoutes(g *echo.Group) {
	g.GET("/challenges", h.apiChallenges)
	g.POST("/challenges", h.apiCreateChallenge)
	g.GET("/challenges/:id", h.apiChallenge)
	g.POST("/challenges/:id/accept", h.apiAccept)
	g.DELETE("/challenges/:id", h.apiCancel)
}

// tournamentRoutes adds the tournaments (tournaments_api.go).
func (h *API) tournamentRoutes(g *echo.Group) {
	g.GET("/tournaments", h.apiTournaments)
	g.POST("/tournaments", h.apiCreateTournament)
	g.GET("/tournaments/:id", h.apiTournament)
	g.POST("/tournaments/:id/join", h.apiJoinTournament)
	g.POST("/tournaments/:id/withdraw", h.apiWithdrawTournament)
	g.GET("/tournaments/:id/me", h.apiTournamentMe)
}

// botRoutes adds the account tokens and the Bot API (bots.go).
func (h *API) botRoutes(g *echo.Group) {
	g.POST("/account/tokens", h.apiCreateToken)
	g.GET("/account/tokens", h.apiTokens)
	g.DELETE("/account/tokens/:id", h.apiRevokeToken)
	g.POST("/challenge/:name", h.apiChallengeName)
	g.POST("/bot/account/upgrade", h.apiBotUpgrade)
	g.GET("/bot/stream/events", h.apiBotEvents)
	g.POST("/bot/challenge/:id/accept", h.apiBotAccept)
	g.POST("/bot/challenge/:id/decline", h.apiBotDecline)
	g.GET("/bot/game/stream/:id", h.apiBotGameStream)
	g.POST("/bot/game/:id/move/:label", h.apiBotMove)
	g.POST("/bot/game/:id/resign", h.apiBotResign)
	g.POST("/bot/game/:id/chat", h.apiBotChat)
}
