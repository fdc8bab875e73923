package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// routes is the site's route table: every page, the JSON API, the static
// files and the health check.
func (h *handler) routes(e *echo.Echo) {
	e.GET("/", h.root)
	e.GET("/healthz", h.healthz)
	e.GET("/readyz", h.readyz)
	e.GET("/static/:file", h.static)
	e.GET("/sitemap.xml", h.sitemap)
	e.GET("/join/:id", h.invite)
	for _, slug := range []string{"rules", "variants", "history"} {
		e.GET("/"+slug, h.pageInLanguage(slug))
	}
	h.siteRoutes(e)

	api := e.Group("/api/v1")
	api.POST("/games", h.apiCreate)
	api.GET("/games/:id", h.apiGame)
	api.POST("/games/:id/join", h.apiJoin)
	api.POST("/games/:id/moves", h.apiMove)
	api.POST("/games/:id/resign", h.apiResign)
	api.POST("/games/:id/claim", h.apiClaim)
	api.GET("/challenges", h.apiChallenges)
	api.POST("/challenges", h.apiCreateChallenge)
	api.GET("/challenges/:id", h.apiChallenge)
	api.POST("/challenges/:id/accept", h.apiAccept)
	api.DELETE("/challenges/:id", h.apiCancel)
	api.GET("/analysis", h.apiAnalysis)
	api.GET("/explorer", h.apiExplorer)
	api.GET("/puzzles", h.apiPuzzles)
	api.GET("/puzzles/:id", h.apiPuzzle)
	api.POST("/puzzles/:id/attempt", h.apiPuzzleAttempt)
	// Game reviews (review.go).
	api.POST("/games/:id/analysis", h.apiRequestReview(h.finishedSubject))
	api.GET("/games/:id/analysis", h.apiReview(h.gameSubject))
	api.POST("/imports/:id/analysis", h.apiRequestReview(h.apiImportSubject))
	api.GET("/imports/:id/analysis", h.apiReview(h.apiImportSubject))
	api.GET("/tournaments", h.apiTournaments)
	api.POST("/tournaments", h.apiCreateTournament)
	api.GET("/tournaments/:id", h.apiTournament)
	api.POST("/tournaments/:id/join", h.apiJoinTournament)
	api.POST("/tournaments/:id/withdraw", h.apiWithdrawTournament)
	api.GET("/tournaments/:id/me", h.apiTournamentMe)

	g := e.Group("/:lang", checkLang)
	g.GET("", func(c echo.Context) error { return c.Redirect(http.StatusMovedPermanently, "/"+c.Param("lang")+"/") })
	g.GET("/", h.home)

	// Games (games.go, actions.go, events.go, replay.go; computer.go, takeback.go).
	// The seat actions read the game with the visitor's seat and the
	// session's account in one query (game.Service.LoadSeated): the visitor
	// middleware does not read the account before them, so that a move
	// costs two round trips to the database.
	h.seatRoutes = map[string]bool{}
	seat := func(path string, f echo.HandlerFunc) {
		g.POST(path, f)
		h.seatRoutes["/:lang"+path] = true
	}
	g.GET("/games/new", h.newGameForm)
	g.GET("/games/now", h.gamesNowPage)
	g.POST("/games/new", h.createGameForm)
	g.GET("/games/:id", h.gamePage)
	g.GET("/games/:id/join", h.joinPage)
	g.POST("/games/:id/join", h.joinForm)
	seat("/games/:id/moves", h.moveForm)
	g.GET("/games/:id/resign", h.resignPage)
	seat("/games/:id/resign", h.resignForm)
	seat("/games/:id/end/offer", h.endForm("offer"))
	seat("/games/:id/end/accept", h.endForm("accept"))
	seat("/games/:id/end/decline", h.endForm("decline"))
	seat("/games/:id/round/next", h.nextRoundForm)
	g.POST("/games/:id/rematch", h.rematchForm)
	g.GET("/games/:id/rematch", h.followRematch)
	g.GET("/games/:id/events", h.gameEvents)
	g.GET("/games/:id/presence", h.presencePoll)
	seat("/games/:id/claim", h.claimForm)
	g.GET("/games/:id/chat", h.chatPoll)
	g.POST("/games/:id/chat", h.chatForm)
	g.GET("/games/:id/replay", h.replayPage)
	g.POST("/games/:id/analysis", h.gameReviewForm)
	g.GET("/games/:id/analysis/events", h.reviewEvents("g/"))
	g.GET("/games/:id/learn", h.gameLearn)
	g.POST("/games/:id/learn", h.gameLearn)
	seat("/games/:id/hint", h.hintForm)
	seat("/games/:id/takeback", h.takebackForm)
	seat("/games/:id/takeback/accept", h.answerTakebackForm(true))
	seat("/games/:id/takeback/decline", h.answerTakebackForm(false))
	g.GET("/computer", h.newComputerForm)
	g.POST("/computer", h.createComputerForm)
	g.GET("/games/:id/record.ogn", h.recordFile)
	g.GET("/watch/:key", h.watchPage)
	g.GET("/watch/:key/events", h.watchEvents)

	// Accounts and players (accounts.go, players.go; reset.go).
	g.GET("/register", h.registerPage)
	g.POST("/register", h.registerForm)
	g.GET("/login", h.loginPage)
	g.POST("/login", h.loginForm)
	g.POST("/logout", h.logoutForm)
	g.GET("/account", h.accountPage, h.requireUser)
	g.POST("/account/language", h.languageForm, h.requireUser)
	g.POST("/account/password", h.withPassword(h.passwordForm), h.requireUser)
	g.POST("/account/email", h.withPassword(h.emailForm), h.requireUser)
	g.POST("/account/delete", h.withPassword(h.deleteForm), h.requireUser)
	g.GET("/players/:name", h.playerPage)
	g.POST("/players/:name/follow", h.followForm)
	g.GET("/following", h.followingPage)
	g.GET("/settings", h.settingsPage)
	g.POST("/settings", h.settingsForm)
	g.GET("/players", h.leaderboard)
	g.POST("/account/sound", h.soundForm)
	g.POST("/account/turn-email", h.turnEmailForm)
	g.GET("/unsubscribe/:key", h.unsubscribePage)
	g.POST("/unsubscribe/:key", h.unsubscribeForm)
	g.GET("/password-reset", h.forgotPage)
	g.POST("/password-reset", h.forgotForm)
	g.GET("/password-reset/:token", h.resetPage)
	g.POST("/password-reset/:token", h.resetForm)

	// The lobby (lobby.go).
	g.GET("/lobby", h.lobbyPage)
	g.GET("/lobby/list", h.lobbyList)
	g.POST("/lobby/quick", h.quickForm)
	g.POST("/lobby/challenges", h.challengeForm)
	g.POST("/lobby/challenges/:id/accept", h.acceptForm)
	g.POST("/lobby/challenges/:id/cancel", h.cancelForm)

	// Tournaments (tournaments.go).
	g.GET("/tournaments", h.tournamentsPage)
	g.POST("/tournaments", h.createTournamentForm)
	g.GET("/tournaments/:id", h.tournamentPage)
	g.POST("/tournaments/:id/join", h.tournamentAction(true))
	g.POST("/tournaments/:id/withdraw", h.tournamentAction(false))
	g.GET("/tournaments/:id/events", h.tournamentEvents)

	// Import of a game record (import.go).
	g.GET("/import", h.importPage)
	g.POST("/import", h.importForm)
	g.GET("/import/:id", h.importReplay)
	g.POST("/import/:id/analysis", h.importReviewForm)
	g.GET("/import/:id/analysis/events", h.reviewEvents("i/"))
	g.GET("/import/:id/learn", h.importLearn)
	// The analysis board (analysisboard.go).
	g.GET("/analysis", h.analysisBoard)
	g.GET("/analysis/lines", h.analysisLines)
	g.POST("/analysis/play", h.analysisPlay)
	g.POST("/import/:id/learn", h.importLearn)

	// Pages from the database (pages.go) and tutorials (tutorials.go).
	g.GET("/rules", h.pageBySlug("rules"))
	g.GET("/history", h.pageBySlug("history"))
	g.GET("/variants", h.pageBySlug("variants"))
	g.GET("/variants/:slug", h.variantPage)
	g.GET("/tutorials", h.tutorialIndex)
	g.GET("/tutorials/:slug", h.tutorialStart)
	g.GET("/tutorials/:slug/:step", h.tutorialStep)
	g.POST("/tutorials/:slug/:step", h.tutorialAnswer)
	g.POST("/tutorials/:slug/:step/hint", h.tutorialHint)

	// The endgame explorer (explorer.go) and the puzzles (puzzles.go).
	g.GET("/explorer", h.explorerPage)
	g.GET("/puzzles", h.puzzleListPage)
	g.GET("/puzzles/next", h.nextPuzzle)
	g.GET("/puzzles/:id", h.puzzlePage)
	g.POST("/puzzles/:id", h.puzzleMoveForm)
}
