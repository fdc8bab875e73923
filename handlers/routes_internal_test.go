package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"oware/handlers/api"
	"oware/handlers/core"
	"oware/handlers/live"
	"oware/handlers/web"

	"github.com/labstack/echo/v4"

	"oware/route"
)

// builtRoutes is one call of every builder of package route, with the
// method its path is asked with, and the pattern it must reach.
var builtRoutes = []struct {
	builder, method, path, pattern string
}{
	{"Join", http.MethodGet, route.Join("abc"), route.JoinPattern},
	{"Theme", http.MethodPost, route.Theme(), route.ThemePattern},
	{"Home", http.MethodGet, route.Home("en"), route.Lang + route.HomePattern},
	{"NewGame", http.MethodPost, route.NewGame("en"), route.Lang + route.NewGamePattern},
	{"GamesNow", http.MethodGet, route.GamesNow("cs"), route.Lang + route.GamesNowPattern},
	{"Game", http.MethodGet, route.Game("en", "abc"), route.Lang + route.GamePattern},
	{"GameJoin", http.MethodPost, route.GameJoin("en", "abc"), route.Lang + route.GameJoinPattern},
	{"GameMoves", http.MethodPost, route.GameMoves("en", "abc"), route.Lang + route.GameMovesPattern},
	{"GameResign", http.MethodGet, route.GameResign("en", "abc"), route.Lang + route.GameResignPattern},
	{"GameEndOffer", http.MethodPost, route.GameEndOffer("en", "abc"), route.Lang + route.GameEndOfferPattern},
	{"GameEndAccept", http.MethodPost, route.GameEndAccept("en", "abc"), route.Lang + route.GameEndAcceptPattern},
	{"GameEndDecline", http.MethodPost, route.GameEndDecline("en", "abc"), route.Lang + route.GameEndDeclinePattern},
	{"GameNextRound", http.MethodPost, route.GameNextRound("en", "abc"), route.Lang + route.GameNextRoundPattern},
	{"GameRematch", http.MethodPost, route.GameRematch("en", "abc"), route.Lang + route.GameRematchPattern},
	{"GameEvents", http.MethodGet, route.GameEvents("en", "abc"), route.Lang + route.GameEventsPattern},
	{"GamePresence", http.MethodGet, route.GamePresence("en", "abc"), route.Lang + route.GamePresencePattern},
	{"GameClaim", http.MethodPost, route.GameClaim("en", "abc"), route.Lang + route.GameClaimPattern},
	{"GameChat", http.MethodPost, route.GameChat("en", "abc"), route.Lang + route.GameChatPattern},
	{"GameReplay", http.MethodGet, route.GameReplay("en", "abc"), route.Lang + route.GameReplayPattern},
	{"GameAnalysis", http.MethodPost, route.GameAnalysis("en", "abc"), route.Lang + route.GameAnalysisPattern},
	{"GameAnalysisEvents", http.MethodGet, route.GameAnalysisEvents("en", "abc"), route.Lang + route.GameAnalysisEventsPattern},
	{"GameLearn", http.MethodGet, route.GameLearn("en", "abc"), route.Lang + route.GameLearnPattern},
	{"GameHint", http.MethodPost, route.GameHint("en", "abc"), route.Lang + route.GameHintPattern},
	{"GameTakeback", http.MethodPost, route.GameTakeback("en", "abc"), route.Lang + route.GameTakebackPattern},
	{"GameTakebackAccept", http.MethodPost, route.GameTakebackAccept("en", "abc"), route.Lang + route.GameTakebackAcceptPattern},
	{"GameTakebackDecline", http.MethodPost, route.GameTakebackDecline("en", "abc"), route.Lang + route.GameTakebackDeclinePattern},
	{"GameRecord", http.MethodGet, route.GameRecord("en", "abc"), route.Lang + route.GameRecordPattern},
	{"GamePlyPicture", http.MethodGet, route.GamePlyPicture("en", "abc", 3), route.Lang + route.GamePlyPicturePattern},
	{"GamePreview", http.MethodGet, strings.Split(route.GamePreview("en", "abc", 2), "?")[0], route.Lang + route.GamePreviewPattern},
	{"WatchPreview", http.MethodGet, strings.Split(route.WatchPreview("en", "k", 2), "?")[0], route.Lang + route.WatchPreviewPattern},
	{"BoardPicture", http.MethodGet, strings.Split(route.BoardPicture("abapa", "p", "", "", 0), "?")[0], route.BoardPicturePattern},
	{"GameGIF", http.MethodGet, route.GameGIF("abc"), route.GameGIFPattern},
	{"EmbedGame", http.MethodGet, route.EmbedGame("abc"), route.EmbedGamePattern},
	{"EmbedPuzzle", http.MethodGet, route.EmbedPuzzle("abc"), route.EmbedPuzzlePattern},
	{"Computer", http.MethodPost, route.Computer("en"), route.Lang + route.ComputerPattern},
	{"Watch", http.MethodGet, route.Watch("en", "k1"), route.Lang + route.WatchPattern},
	{"WatchEvents", http.MethodGet, route.WatchEvents("en", "k1"), route.Lang + route.WatchEventsPattern},
	{"Register", http.MethodPost, route.Register("en"), route.Lang + route.RegisterPattern},
	{"Login", http.MethodGet, route.Login("en"), route.Lang + route.LoginPattern},
	{"Logout", http.MethodPost, route.Logout("en"), route.Lang + route.LogoutPattern},
	{"Account", http.MethodGet, route.Account("en"), route.Lang + route.AccountPattern},
	{"AccountLanguage", http.MethodPost, route.AccountLanguage("en"), route.Lang + route.AccountLanguagePattern},
	{"AccountPassword", http.MethodPost, route.AccountPassword("en"), route.Lang + route.AccountPasswordPattern},
	{"AccountEmail", http.MethodPost, route.AccountEmail("en"), route.Lang + route.AccountEmailPattern},
	{"AccountDelete", http.MethodPost, route.AccountDelete("en"), route.Lang + route.AccountDeletePattern},
	{"AccountSound", http.MethodPost, route.AccountSound("en"), route.Lang + route.AccountSoundPattern},
	{"AccountTurnEmail", http.MethodPost, route.AccountTurnEmail("en"), route.Lang + route.AccountTurnEmailPattern},
	{"Players", http.MethodGet, route.Players("en"), route.Lang + route.PlayersPattern},
	{"Player", http.MethodGet, route.Player("en", "a b"), route.Lang + route.PlayerPattern},
	{"PlayerFollow", http.MethodPost, route.PlayerFollow("en", "a b"), route.Lang + route.PlayerFollowPattern},
	{"Following", http.MethodGet, route.Following("en"), route.Lang + route.FollowingPattern},
	{"Settings", http.MethodPost, route.Settings("en"), route.Lang + route.SettingsPattern},
	{"Unsubscribe", http.MethodPost, route.Unsubscribe("en", "k1"), route.Lang + route.UnsubscribePattern},
	{"PasswordReset", http.MethodPost, route.PasswordReset("en"), route.Lang + route.PasswordResetPattern},
	{"ResetToken", http.MethodPost, route.ResetToken("en", "t1"), route.Lang + route.ResetTokenPattern},
	{"Lobby", http.MethodGet, route.Lobby("en"), route.Lang + route.LobbyPattern},
	{"LobbyList", http.MethodGet, route.LobbyList("en"), route.Lang + route.LobbyListPattern},
	{"LobbyQuick", http.MethodPost, route.LobbyQuick("en"), route.Lang + route.LobbyQuickPattern},
	{"Challenges", http.MethodPost, route.Challenges("en"), route.Lang + route.ChallengesPattern},
	{"ChallengeAccept", http.MethodPost, route.ChallengeAccept("en", "c1"), route.Lang + route.ChallengeAcceptPattern},
	{"ChallengeCancel", http.MethodPost, route.ChallengeCancel("en", "c1"), route.Lang + route.ChallengeCancelPattern},
	{"Tournaments", http.MethodPost, route.Tournaments("en"), route.Lang + route.TournamentsPattern},
	{"Tournament", http.MethodGet, route.Tournament("en", "t1"), route.Lang + route.TournamentPattern},
	{"TournamentJoin", http.MethodPost, route.TournamentJoin("en", "t1"), route.Lang + route.TournamentJoinPattern},
	{"TournamentWithdraw", http.MethodPost, route.TournamentWithdraw("en", "t1"), route.Lang + route.TournamentWithdrawPattern},
	{"TournamentEvents", http.MethodGet, route.TournamentEvents("en", "t1"), route.Lang + route.TournamentEventsPattern},
	{"Import", http.MethodPost, route.Import("en"), route.Lang + route.ImportPattern},
	{"ImportReplay", http.MethodGet, route.ImportReplay("en", "i1"), route.Lang + route.ImportReplayPattern},
	{"ImportAnalysis", http.MethodPost, route.ImportAnalysis("en", "i1"), route.Lang + route.ImportAnalysisPattern},
	{"ImportAnalysisEvents", http.MethodGet, route.ImportAnalysisEvents("en", "i1"), route.Lang + route.ImportAnalysisEventsPattern},
	{"ImportLearn", http.MethodPost, route.ImportLearn("en", "i1"), route.Lang + route.ImportLearnPattern},
	{"Analysis", http.MethodGet, route.Analysis("en"), route.Lang + route.AnalysisPattern},
	{"AnalysisLines", http.MethodGet, route.AnalysisLines("en"), route.Lang + route.AnalysisLinesPattern},
	{"AnalysisPlay", http.MethodPost, route.AnalysisPlay("en"), route.Lang + route.AnalysisPlayPattern},
	{"Rules", http.MethodGet, route.Rules("en"), route.Lang + route.RulesPattern},
	{"History", http.MethodGet, route.History("en"), route.Lang + route.HistoryPattern},
	{"Glossary", http.MethodGet, route.Glossary("en"), route.Lang + route.GlossaryPattern},
	{"Variants", http.MethodGet, route.Variants("en"), route.Lang + route.VariantsPattern},
	{"Variant", http.MethodGet, route.Variant("en", "abapa"), route.Lang + route.VariantPattern},
	{"Tutorials", http.MethodGet, route.Tutorials("en"), route.Lang + route.TutorialsPattern},
	{"TutorialStep", http.MethodPost, route.TutorialStep("en", "sowing", 2), route.Lang + route.TutorialStepPattern},
	{"TutorialPractice", http.MethodPost, route.TutorialPractice("en", "rules-practice", 2), route.Lang + route.TutorialPracticePattern},
	{"Explorer", http.MethodGet, route.Explorer("en"), route.Lang + route.ExplorerPattern},
	{"Puzzles", http.MethodGet, route.Puzzles("en"), route.Lang + route.PuzzlesPattern},
	{"PuzzlesNext", http.MethodGet, route.PuzzlesNext("en"), route.Lang + route.PuzzlesNextPattern},
	{"Puzzle", http.MethodPost, route.Puzzle("en", "p1"), route.Lang + route.PuzzlePattern},
	{"Studies", http.MethodGet, route.Studies("en"), route.Lang + route.StudiesPattern},
	{"NewStudy", http.MethodPost, route.NewStudy("en"), route.Lang + route.NewStudyPattern},
	{"Study", http.MethodGet, route.Study("en", "s1"), route.Lang + route.StudyPattern},
	{"StudyEdit", http.MethodPost, route.StudyEdit("en", "s1"), route.Lang + route.StudyEditPattern},
	{"StudyFork", http.MethodPost, route.StudyFork("en", "s1"), route.Lang + route.StudyForkPattern},
	{"StudyDelete", http.MethodPost, route.StudyDelete("en", "s1"), route.Lang + route.StudyDeletePattern},
	{"StudyChapters", http.MethodPost, route.StudyChapters("en", "s1"), route.Lang + route.StudyChaptersPattern},
	{"StudyChapter", http.MethodPost, route.StudyChapter("en", "s1", 2), route.Lang + route.StudyChapterPattern},
	{"StudyChapterEdit", http.MethodPost, route.StudyChapterEdit("en", "s1", 2), route.Lang + route.StudyChapterEditPattern},
	{"StudyChapterMove", http.MethodPost, route.StudyChapterMove("en", "s1", 2), route.Lang + route.StudyChapterMovePattern},
	{"StudyChapterDelete", http.MethodPost, route.StudyChapterDelete("en", "s1", 2), route.Lang + route.StudyChapterDeletePattern},
	{"APIStudy", http.MethodGet, route.APIStudy("s1"), route.APIStudyPattern},
	{"AccountTokens", http.MethodPost, route.AccountTokens("en"), route.Lang + route.AccountTokensPattern},
	{"AccountTokenRevoke", http.MethodPost, route.AccountTokenRevoke("en", 7), route.Lang + route.AccountTokenRevokePattern},
	{"AccountBot", http.MethodPost, route.AccountBot("en"), route.Lang + route.AccountBotPattern},
	{"BotPlayers", http.MethodGet, route.BotPlayers("en"), route.Lang + route.PlayersPattern},
	{"ComputerBots", http.MethodPost, route.ComputerBots("en"), route.Lang + route.ComputerBotsPattern},
}

// TestRouteBuildersAreServed: every path a builder of package route makes
// reaches, with its method, the route of the route table it names, so no
// link of a handler or a view points at a path the site does not serve;
// and the table above calls every builder, so a new one is checked too.
func TestRouteBuildersAreServed(t *testing.T) {
	e := echo.New()
	h := &core.Handlers{}
	routes(e, &web.Site{Handlers: h}, &api.API{Handlers: h}, &live.Server{Handlers: h})
	for _, b := range builtRoutes {
		if got := servedPattern(e, b.method, b.path); got != b.pattern {
			t.Errorf("%s: %s %s reaches %q, want %q", b.builder, b.method, b.path, got, b.pattern)
		}
	}
	var tested []string
	for _, b := range builtRoutes {
		tested = append(tested, b.builder)
	}
	for _, name := range routeBuilders(t) {
		if !slices.Contains(tested, name) {
			t.Errorf("route.%s is not in builtRoutes: its paths are not checked against the route table", name)
		}
	}
}

// TestServedPatternSeesMisses: the check of TestRouteBuildersAreServed
// tells a path or a method the route table does not serve.
func TestServedPatternSeesMisses(t *testing.T) {
	e := echo.New()
	h := &core.Handlers{}
	routes(e, &web.Site{Handlers: h}, &api.API{Handlers: h}, &live.Server{Handlers: h})
	for _, c := range []struct{ method, path string }{
		{http.MethodPost, "/en/games/abc/move"},      // no such action
		{http.MethodGet, "/en/games/abc/moves"},      // a POST route
		{http.MethodPost, "/en/lobby/challenges/c1"}, // no pattern ends there
	} {
		if got := servedPattern(e, c.method, c.path); got != "" {
			t.Errorf("%s %s reaches %q, want no route", c.method, c.path, got)
		}
	}
	if got := servedPattern(e, http.MethodPost, "/en/games/abc/moves"); got != route.Lang+route.GameMovesPattern {
		t.Errorf("POST /en/games/abc/moves reaches %q", got)
	}
}

// servedPattern returns the pattern of the route table that serves method
// and path, "" when none does (no path, or not that method).
func servedPattern(e *echo.Echo, method, path string) string {
	c := e.NewContext(nil, nil)
	path, _, _ = strings.Cut(path, "?")
	e.Router().Find(method, path, c)
	for _, r := range e.Routes() {
		if r.Method == method && r.Path == c.Path() && r.Path != "/:lang/*" {
			return r.Path
		}
	}
	return ""
}

// routeBuilders returns the names of package route's builders: the
// exported functions of its non-test files but Fill and In.
func routeBuilders(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "route", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.IsExported() && fn.Recv == nil && fn.Name.Name != "Fill" && fn.Name.Name != "In" {
				names = append(names, fn.Name.Name)
			}
		}
	}
	if len(names) == 0 {
		t.Fatal("no builder found in package route")
	}
	return names
}
