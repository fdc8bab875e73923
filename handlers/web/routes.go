package web

import (
	"github.com/labstack/echo/v4"

	"oware/handlers/core"
	"oware/route"
)

// Site is the server-rendered site: its pages, forms and htmx partials,
// over the handlers' shared state.
type Site struct {
	*core.Handlers
	resets   *resetLimits // the password resets' limits (reset.go)
	pictures *pictures    // the previews kept, the GIFs drawn (share.go)
}

// New returns the site over the shared state h.
func New(h *core.Handlers) *Site {
	return &Site{Handlers: h, resets: newResetLimits(), pictures: newPictures()}
}

// Routes adds the site's routes: those at the root to e, those under the
// language prefix to g.
func (h *Site) Routes(e *echo.Echo, g *echo.Group) {
	h.rootRoutes(e)
	g.GET(route.HomePattern, h.home)
	h.shareRoutes(e, g)
	h.gameRoutes(g)
	h.accountRoutes(g)
	h.playRoutes(g)
	h.learnRoutes(g)
	h.studyRoutes(g)
}

// rootRoutes adds what is served without a language prefix.
func (h *Site) rootRoutes(e *echo.Echo) {
	e.GET(route.RootPattern, h.root)
	e.GET("/healthz", h.healthz)
	e.GET("/readyz", h.readyz)
	e.GET("/static/:file", h.static)
	e.GET("/sitemap.xml", h.sitemap)
	e.GET(route.JoinPattern, h.invite)
	for _, path := range []string{route.RulesPattern, route.VariantsPattern, route.HistoryPattern, route.GlossaryPattern} {
		e.GET(path, h.pageInLanguage(path))
	}
	h.siteRoutes(e)
}

// gameRoutes adds the games (games.go, actions.go, replay.go; computer.go,
// takeback.go). The seat actions read the game with the visitor's seat
// and the session's account in one query (game.Service.LoadSeated): the
// visitor middleware does not read the account before them, so that a
// move costs two round trips to the database. A bot's session is refused
// the seat actions there (game.ErrBotWeb) and the forms that start or
// join play by NotBot.
func (h *Site) gameRoutes(g *echo.Group) {
	h.SeatRoutes = map[string]bool{}
	seat := func(path string, f echo.HandlerFunc) {
		g.POST(path, f)
		h.SeatRoutes[route.Lang+path] = true
	}
	g.GET(route.NewGamePattern, h.newGameForm)
	g.GET(route.GamesNowPattern, h.gamesNowPage)
	g.POST(route.NewGamePattern, h.createGameForm, h.NotBot)
	g.GET(route.GamePattern, h.gamePage)
	g.GET(route.GameJoinPattern, h.joinPage)
	g.POST(route.GameJoinPattern, h.joinForm, h.NotBot)
	seat(route.GameMovesPattern, h.moveForm)
	g.GET(route.GameResignPattern, h.resignPage)
	seat(route.GameResignPattern, h.resignForm)
	seat(route.GameEndOfferPattern, h.endForm("offer"))
	seat(route.GameEndAcceptPattern, h.endForm("accept"))
	seat(route.GameEndDeclinePattern, h.endForm("decline"))
	seat(route.GameNextRoundPattern, h.nextRoundForm)
	g.POST(route.GameRematchPattern, h.rematchForm, h.NotBot)
	g.GET(route.GameRematchPattern, h.followRematch)
	g.GET(route.GamePresencePattern, h.presencePoll)
	seat(route.GameClaimPattern, h.claimForm)
	g.GET(route.GameChatPattern, h.chatPoll)
	g.POST(route.GameChatPattern, h.chatForm)
	g.GET(route.GameReplayPattern, h.replayPage)
	g.POST(route.GameAnalysisPattern, h.gameReviewForm)
	g.GET(route.GameLearnPattern, h.gameLearn)
	g.POST(route.GameLearnPattern, h.gameLearn)
	seat(route.GameHintPattern, h.hintForm)
	seat(route.GameTakebackPattern, h.takebackForm)
	seat(route.GameTakebackAcceptPattern, h.answerTakebackForm(true))
	seat(route.GameTakebackDeclinePattern, h.answerTakebackForm(false))
	g.GET(route.ComputerPattern, h.newComputerForm)
	g.POST(route.ComputerPattern, h.createComputerForm, h.NotBot)
	g.POST(route.ComputerBotsPattern, h.playBotForm, h.NotBot)
	g.GET(route.GameRecordPattern, h.recordFile)
	g.GET(route.WatchPattern, h.watchPage)
}

// accountRoutes adds the accounts and the players (accounts.go,
// players.go, follow.go, settings.go, turnmail.go; reset.go).
func (h *Site) accountRoutes(g *echo.Group) {
	g.GET(route.RegisterPattern, h.registerPage)
	g.POST(route.RegisterPattern, h.registerForm)
	g.GET(route.LoginPattern, h.loginPage)
	g.POST(route.LoginPattern, h.loginForm)
	g.POST(route.LogoutPattern, h.logoutForm)
	g.GET(route.AccountPattern, h.accountPage, h.RequireUser)
	g.POST(route.AccountLanguagePattern, h.languageForm, h.RequireUser)
	g.POST(route.AccountPasswordPattern, h.withPassword(h.passwordForm), h.RequireUser)
	g.POST(route.AccountEmailPattern, h.withPassword(h.emailForm), h.RequireUser)
	g.POST(route.AccountDeletePattern, h.withPassword(h.deleteForm), h.RequireUser)
	g.POST(route.AccountTokensPattern, h.tokenForm, h.RequireUser)
	g.POST(route.AccountTokenRevokePattern, h.revokeTokenForm, h.RequireUser)
	g.POST(route.AccountBotPattern, h.botForm, h.RequireUser)
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
}

// playRoutes adds the lobby (lobby.go), the tournaments (tournaments.go),
// the import of a game record (import.go) and the analysis board
// (analysisboard.go).
func (h *Site) playRoutes(g *echo.Group) {
	g.GET(route.LobbyPattern, h.lobbyPage)
	g.GET(route.LobbyListPattern, h.lobbyList)
	g.POST(route.LobbyQuickPattern, h.quickForm, h.NotBot)
	g.POST(route.ChallengesPattern, h.challengeForm, h.NotBot)
	g.POST(route.ChallengeAcceptPattern, h.acceptForm, h.NotBot)
	g.POST(route.ChallengeCancelPattern, h.cancelForm)

	g.GET(route.TournamentsPattern, h.tournamentsPage)
	g.POST(route.TournamentsPattern, h.createTournamentForm)
	g.GET(route.TournamentPattern, h.tournamentPage)
	g.POST(route.TournamentJoinPattern, h.tournamentAction(true), h.NotBot)
	g.POST(route.TournamentWithdrawPattern, h.tournamentAction(false))

	g.GET(route.ImportPattern, h.importPage)
	g.POST(route.ImportPattern, h.importForm)
	g.GET(route.ImportReplayPattern, h.importReplay)
	g.POST(route.ImportAnalysisPattern, h.importReviewForm)
	g.GET(route.ImportLearnPattern, h.importLearn)
	g.GET(route.AnalysisPattern, h.analysisBoard)
	g.GET(route.AnalysisLinesPattern, h.analysisLines)
	g.POST(route.AnalysisPlayPattern, h.analysisPlay)
	g.POST(route.ImportLearnPattern, h.importLearn)
}

// learnRoutes adds the pages from the database (pages.go), the tutorials
// (tutorials.go), the endgame explorer (explorer.go) and the puzzles
// (puzzles.go).
func (h *Site) learnRoutes(g *echo.Group) {
	g.GET(route.RulesPattern, h.pageBySlug("rules"))
	g.GET(route.HistoryPattern, h.pageBySlug("history"))
	g.GET(route.GlossaryPattern, h.pageBySlug("glossary"))
	g.GET(route.VariantsPattern, h.pageBySlug("variants"))
	g.GET(route.VariantPattern, h.variantPage)
	g.GET(route.TutorialsPattern, h.tutorialIndex)
	g.GET(route.TutorialPattern, h.tutorialStart)
	g.GET(route.TutorialStepPattern, h.tutorialStep)
	g.POST(route.TutorialStepPattern, h.tutorialAnswer)
	g.POST(route.TutorialHintPattern, h.tutorialHint)
	g.POST(route.TutorialPracticePattern, h.tutorialPractice, h.NotBot)

	g.GET(route.ExplorerPattern, h.explorerPage)
	g.GET(route.PuzzlesPattern, h.puzzleListPage)
	g.GET(route.PuzzlesNextPattern, h.nextPuzzle)
	g.GET(route.PuzzlePattern, h.puzzlePage)
	g.POST(route.PuzzlePattern, h.puzzleMoveForm)
}
