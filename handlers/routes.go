package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/route"
)

// routes is the site's route table: every page, the JSON API, the static
// files and the health check.
func (h *handler) routes(e *echo.Echo) {
	e.GET(route.RootPattern, h.root)
	e.GET("/healthz", h.healthz)
	e.GET("/readyz", h.readyz)
	e.GET("/static/:file", h.static)
	e.GET("/sitemap.xml", h.sitemap)
	e.GET(route.JoinPattern, h.invite)
	for _, path := range []string{route.RulesPattern, route.VariantsPattern, route.HistoryPattern} {
		e.GET(path, h.pageInLanguage(path))
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

	g := e.Group(route.Lang, checkLang)
	g.GET("", func(c echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, route.Home(c.Param("lang")))
	})
	g.GET(route.HomePattern, h.home)

	// Games (games.go, actions.go, events.go, replay.go; computer.go, takeback.go).
	// The seat actions read the game with the visitor's seat and the
	// session's account in one query (game.Service.LoadSeated): the visitor
	// middleware does not read the account before them, so that a move
	// costs two round trips to the database.
	h.seatRoutes = map[string]bool{}
	seat := func(path string, f echo.HandlerFunc) {
		g.POST(path, f)
		h.seatRoutes[route.Lang+path] = true
	}
	g.GET(route.NewGamePattern, h.newGameForm)
	g.GET(route.GamesNowPattern, h.gamesNowPage)
	g.POST(route.NewGamePattern, h.createGameForm)
	g.GET(route.GamePattern, h.gamePage)
	g.GET(route.GameJoinPattern, h.joinPage)
	g.POST(route.GameJoinPattern, h.joinForm)
	seat(route.GameMovesPattern, h.moveForm)
	g.GET(route.GameResignPattern, h.resignPage)
	seat(route.GameResignPattern, h.resignForm)
	seat(route.GameEndOfferPattern, h.endForm("offer"))
	seat(route.GameEndAcceptPattern, h.endForm("accept"))
	seat(route.GameEndDeclinePattern, h.endForm("decline"))
	seat(route.GameNextRoundPattern, h.nextRoundForm)
	g.POST(route.GameRematchPattern, h.rematchForm)
	g.GET(route.GameRematchPattern, h.followRematch)
	g.GET(route.GameEventsPattern, h.gameEvents)
	g.GET(route.GamePresencePattern, h.presencePoll)
	seat(route.GameClaimPattern, h.claimForm)
	g.GET(route.GameChatPattern, h.chatPoll)
	g.POST(route.GameChatPattern, h.chatForm)
	g.GET(route.GameReplayPattern, h.replayPage)
	g.POST(route.GameAnalysisPattern, h.gameReviewForm)
	g.GET(route.GameAnalysisEventsPattern, h.reviewEvents("g/"))
	g.GET(route.GameLearnPattern, h.gameLearn)
	g.POST(route.GameLearnPattern, h.gameLearn)
	seat(route.GameHintPattern, h.hintForm)
	seat(route.GameTakebackPattern, h.takebackForm)
	seat(route.GameTakebackAcceptPattern, h.answerTakebackForm(true))
	seat(route.GameTakebackDeclinePattern, h.answerTakebackForm(false))
	g.GET(route.ComputerPattern, h.newComputerForm)
	g.POST(route.ComputerPattern, h.createComputerForm)
	g.GET(route.GameRecordPattern, h.recordFile)
	g.GET(route.WatchPattern, h.watchPage)
	g.GET(route.WatchEventsPattern, h.watchEvents)

	// Accounts and players (accounts.go, players.go; reset.go).
	g.GET(route.RegisterPattern, h.registerPage)
	g.POST(route.RegisterPattern, h.registerForm)
	g.GET(route.LoginPattern, h.loginPage)
	g.POST(route.LoginPattern, h.loginForm)
	g.POST(route.LogoutPattern, h.logoutForm)
	g.GET(route.AccountPattern, h.accountPage, h.requireUser)
	g.POST(route.AccountLanguagePattern, h.languageForm, h.requireUser)
	g.POST(route.AccountPasswordPattern, h.withPassword(h.passwordForm), h.requireUser)
	g.POST(route.AccountEmailPattern, h.withPassword(h.emailForm), h.requireUser)
	g.POST(route.AccountDeletePattern, h.withPassword(h.deleteForm), h.requireUser)
	g.GET(route.PlayerPattern, h.playerPage)
	g.POST(route.PlayerFollowPattern, h.followForm)
	g.GET(route.FollowingPattern, h.followingPage)
	g.GET(route.SettingsPattern, h.settingsPage)
	g.POST(route.SettingsPattern, h.settingsForm)
	g.GET(route.PlayersPattern, h.leaderboard)
	g.POST(route.AccountSoundPattern, h.soundForm)
	g.POST(route.AccountTurnEmailPattern, h.turnEmailForm)
	g.GET(route.UnsubscribePattern, h.unsubscribePage)
	g.POST(route.UnsubscribePattern, h.unsubscribeForm)
	g.GET(route.PasswordResetPattern, h.forgotPage)
	g.POST(route.PasswordResetPattern, h.forgotForm)
	g.GET(route.ResetTokenPattern, h.resetPage)
	g.POST(route.ResetTokenPattern, h.resetForm)

	// The lobby (lobby.go).
	g.GET(route.LobbyPattern, h.lobbyPage)
	g.GET(route.LobbyListPattern, h.lobbyList)
	g.POST(route.LobbyQuickPattern, h.quickForm)
	g.POST(route.ChallengesPattern, h.challengeForm)
	g.POST(route.ChallengeAcceptPattern, h.acceptForm)
	g.POST(route.ChallengeCancelPattern, h.cancelForm)

	// Tournaments (tournaments.go).
	g.GET(route.TournamentsPattern, h.tournamentsPage)
	g.POST(route.TournamentsPattern, h.createTournamentForm)
	g.GET(route.TournamentPattern, h.tournamentPage)
	g.POST(route.TournamentJoinPattern, h.tournamentAction(true))
	g.POST(route.TournamentWithdrawPattern, h.tournamentAction(false))
	g.GET(route.TournamentEventsPattern, h.tournamentEvents)

	// Import of a game record (import.go).
	g.GET(route.ImportPattern, h.importPage)
	g.POST(route.ImportPattern, h.importForm)
	g.GET(route.ImportReplayPattern, h.importReplay)
	g.POST(route.ImportAnalysisPattern, h.importReviewForm)
	g.GET(route.ImportAnalysisEventsPattern, h.reviewEvents("i/"))
	g.GET(route.ImportLearnPattern, h.importLearn)
	// The analysis board (analysisboard.go).
	g.GET(route.AnalysisPattern, h.analysisBoard)
	g.GET(route.AnalysisLinesPattern, h.analysisLines)
	g.POST(route.AnalysisPlayPattern, h.analysisPlay)
	g.POST(route.ImportLearnPattern, h.importLearn)

	// Pages from the database (pages.go) and tutorials (tutorials.go).
	g.GET(route.RulesPattern, h.pageBySlug("rules"))
	g.GET(route.HistoryPattern, h.pageBySlug("history"))
	g.GET(route.VariantsPattern, h.pageBySlug("variants"))
	g.GET(route.VariantPattern, h.variantPage)
	g.GET(route.TutorialsPattern, h.tutorialIndex)
	g.GET(route.TutorialPattern, h.tutorialStart)
	g.GET(route.TutorialStepPattern, h.tutorialStep)
	g.POST(route.TutorialStepPattern, h.tutorialAnswer)
	g.POST(route.TutorialHintPattern, h.tutorialHint)

	// The endgame explorer (explorer.go) and the puzzles (puzzles.go).
	g.GET(route.ExplorerPattern, h.explorerPage)
	g.GET(route.PuzzlesPattern, h.puzzleListPage)
	g.GET(route.PuzzlesNextPattern, h.nextPuzzle)
	g.GET(route.PuzzlePattern, h.puzzlePage)
	g.POST(route.PuzzlePattern, h.puzzleMoveForm)
}
