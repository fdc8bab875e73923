// Package route names the site's paths: one pattern per page or action, in
// Echo's syntax, and a typed builder for each pattern that something links
// to. The route table of handlers registers these patterns and handlers and
// views build their links with the builders, so a path is written once.
//
// Patterns under the language prefix (Lang) are relative to it: the route
// table registers them in the "/:lang" group, and a builder puts the
// language first: Game("en", "abc") is "/en/games/abc". Every argument is
// path-escaped (a player named "a b" is "/en/players/a%20b"). The paths are
// contracts (links in mails, bookmarks, the API): extend, never rename.
package route

import (
	"net/url"
	"strconv"
	"strings"
)

// Lang is the prefix of every page in a language ("/en", "/cs", "/it").
const Lang = "/:lang"

// Patterns outside the language prefix.
const (
	// RootPattern picks a language from Accept-Language.
	RootPattern = "/"
	// JoinPattern is a game's invitation link, in the visitor's language.
	JoinPattern = "/join/:id"
	// ThemePattern sets the colour theme (POST), for every language.
	ThemePattern = "/theme"
	// FaviconPattern, AppleTouchIconPattern and ManifestPattern are the
	// icons and the web app manifest at the fixed addresses browsers ask.
	FaviconPattern        = "/favicon.ico"
	AppleTouchIconPattern = "/apple-touch-icon.png"
	ManifestPattern       = "/manifest.webmanifest"
)

// Patterns of the pages and actions under the language prefix, relative to it.
const (
	HomePattern = "/"

	NewGamePattern             = "/games/new"
	GamesNowPattern            = "/games/now"
	GamePattern                = "/games/:id"
	GameJoinPattern            = GamePattern + "/join"
	GameMovesPattern           = GamePattern + "/moves"
	GameResignPattern          = GamePattern + "/resign"
	GameEndOfferPattern        = GamePattern + "/end/offer"
	GameEndAcceptPattern       = GamePattern + "/end/accept"
	GameEndDeclinePattern      = GamePattern + "/end/decline"
	GameNextRoundPattern       = GamePattern + "/round/next"
	GameRematchPattern         = GamePattern + "/rematch"
	GameEventsPattern          = GamePattern + "/events"
	GamePresencePattern        = GamePattern + "/presence"
	GameClaimPattern           = GamePattern + "/claim"
	GameChatPattern            = GamePattern + "/chat"
	GameReplayPattern          = GamePattern + "/replay"
	GameAnalysisPattern        = GamePattern + "/analysis"
	GameAnalysisEventsPattern  = GameAnalysisPattern + "/events"
	GameLearnPattern           = GamePattern + "/learn"
	GameHintPattern            = GamePattern + "/hint"
	GameTakebackPattern        = GamePattern + "/takeback"
	GameTakebackAcceptPattern  = GameTakebackPattern + "/accept"
	GameTakebackDeclinePattern = GameTakebackPattern + "/decline"
	GameRecordPattern          = GamePattern + "/record.ogn"
	ComputerPattern            = "/computer"
	WatchPattern               = "/watch/:key"
	WatchEventsPattern         = WatchPattern + "/events"

	RegisterPattern         = "/register"
	LoginPattern            = "/login"
	LogoutPattern           = "/logout"
	AccountPattern          = "/account"
	AccountLanguagePattern  = AccountPattern + "/language"
	AccountPasswordPattern  = AccountPattern + "/password"
	AccountEmailPattern     = AccountPattern + "/email"
	AccountDeletePattern    = AccountPattern + "/delete"
	AccountSoundPattern     = AccountPattern + "/sound"
	AccountTurnEmailPattern = AccountPattern + "/turn-email"
	PlayersPattern          = "/players"
	PlayerPattern           = PlayersPattern + "/:name"
	PlayerFollowPattern     = PlayerPattern + "/follow"
	FollowingPattern        = "/following"
	SettingsPattern         = "/settings"
	UnsubscribePattern      = "/unsubscribe/:key"
	PasswordResetPattern    = "/password-reset"
	ResetTokenPattern       = PasswordResetPattern + "/:token"

	LobbyPattern           = "/lobby"
	LobbyListPattern       = LobbyPattern + "/list"
	LobbyQuickPattern      = LobbyPattern + "/quick"
	ChallengesPattern      = LobbyPattern + "/challenges"
	ChallengeAcceptPattern = ChallengesPattern + "/:id/accept"
	ChallengeCancelPattern = ChallengesPattern + "/:id/cancel"

	TournamentsPattern        = "/tournaments"
	TournamentPattern         = TournamentsPattern + "/:id"
	TournamentJoinPattern     = TournamentPattern + "/join"
	TournamentWithdrawPattern = TournamentPattern + "/withdraw"
	TournamentEventsPattern   = TournamentPattern + "/events"

	ImportPattern               = "/import"
	ImportReplayPattern         = ImportPattern + "/:id"
	ImportAnalysisPattern       = ImportReplayPattern + "/analysis"
	ImportAnalysisEventsPattern = ImportAnalysisPattern + "/events"
	ImportLearnPattern          = ImportReplayPattern + "/learn"
	AnalysisPattern             = "/analysis"
	AnalysisLinesPattern        = AnalysisPattern + "/lines"
	AnalysisPlayPattern         = AnalysisPattern + "/play"

	RulesPattern        = "/rules"
	HistoryPattern      = "/history"
	VariantsPattern     = "/variants"
	VariantPattern      = VariantsPattern + "/:slug"
	TutorialsPattern    = "/tutorials"
	TutorialPattern     = TutorialsPattern + "/:slug"
	TutorialStepPattern = TutorialPattern + "/:step"
	TutorialHintPattern = TutorialStepPattern + "/hint"
	ExplorerPattern     = "/explorer"
	PuzzlesPattern      = "/puzzles"
	PuzzlesNextPattern  = PuzzlesPattern + "/next"
	PuzzlePattern       = PuzzlesPattern + "/:id"
)

// Fill returns pattern with its parameters (":id" segments) replaced in
// order by args, each path-escaped; a parameter without an argument stays
// as it is, an argument without a parameter is ignored.
// Fill(GameJoinPattern, "abc") is "/games/abc/join".
func Fill(pattern string, args ...string) string {
	var b strings.Builder
	for seg := range strings.SplitSeq(strings.TrimPrefix(pattern, "/"), "/") {
		b.WriteByte('/')
		if strings.HasPrefix(seg, ":") && len(args) > 0 {
			seg, args = url.PathEscape(args[0]), args[1:]
		}
		b.WriteString(seg)
	}
	return b.String()
}

// In returns the path of pattern (under the language prefix) in lang, its
// parameters filled by args as Fill does: In("en", GamePattern, "abc") is
// "/en/games/abc", In("en", HomePattern) is "/en/".
func In(lang, pattern string, args ...string) string {
	return "/" + url.PathEscape(lang) + Fill(pattern, args...)
}

// Join is a game's invitation link: "/join/{id}".
func Join(id string) string { return Fill(JoinPattern, id) }

// Theme sets the colour theme: "/theme".
func Theme() string { return ThemePattern }

// Home is the home page in lang: "/{lang}/".
func Home(lang string) string { return In(lang, HomePattern) }

// NewGame is the form of a game between two people: "/{lang}/games/new".
func NewGame(lang string) string { return In(lang, NewGamePattern) }

// GamesNow is the list of games being played: "/{lang}/games/now".
func GamesNow(lang string) string { return In(lang, GamesNowPattern) }

// Game is a game's page: "/{lang}/games/{id}".
func Game(lang, id string) string { return In(lang, GamePattern, id) }

// GameJoin is where a visitor takes a game's free seat: "/{lang}/games/{id}/join".
func GameJoin(lang, id string) string { return In(lang, GameJoinPattern, id) }

// GameMoves takes a move (form field pit): "/{lang}/games/{id}/moves".
func GameMoves(lang, id string) string { return In(lang, GameMovesPattern, id) }

// GameResign asks (GET) and resigns (POST): "/{lang}/games/{id}/resign".
func GameResign(lang, id string) string { return In(lang, GameResignPattern, id) }

// GameEndOffer offers to end a game by agreement: "/{lang}/games/{id}/end/offer".
func GameEndOffer(lang, id string) string { return In(lang, GameEndOfferPattern, id) }

// GameEndAccept accepts the offer: "/{lang}/games/{id}/end/accept".
func GameEndAccept(lang, id string) string { return In(lang, GameEndAcceptPattern, id) }

// GameEndDecline declines the offer: "/{lang}/games/{id}/end/decline".
func GameEndDecline(lang, id string) string { return In(lang, GameEndDeclinePattern, id) }

// GameNextRound starts a match's next round: "/{lang}/games/{id}/round/next".
func GameNextRound(lang, id string) string { return In(lang, GameNextRoundPattern, id) }

// GameRematch offers (POST) or follows (GET) a rematch: "/{lang}/games/{id}/rematch".
func GameRematch(lang, id string) string { return In(lang, GameRematchPattern, id) }

// GameEvents is a game's event stream for its players: "/{lang}/games/{id}/events".
func GameEvents(lang, id string) string { return In(lang, GameEventsPattern, id) }

// GamePresence is the poll of the opponent's presence: "/{lang}/games/{id}/presence".
func GamePresence(lang, id string) string { return In(lang, GamePresencePattern, id) }

// GameClaim claims a game on time or absence: "/{lang}/games/{id}/claim".
func GameClaim(lang, id string) string { return In(lang, GameClaimPattern, id) }

// GameChat is a game's chat (GET the news, POST a message): "/{lang}/games/{id}/chat".
func GameChat(lang, id string) string { return In(lang, GameChatPattern, id) }

// GameReplay is a game's replay: "/{lang}/games/{id}/replay".
func GameReplay(lang, id string) string { return In(lang, GameReplayPattern, id) }

// GameAnalysis asks for a finished game's review: "/{lang}/games/{id}/analysis".
func GameAnalysis(lang, id string) string { return In(lang, GameAnalysisPattern, id) }

// GameAnalysisEvents is the progress of a game's review: "/{lang}/games/{id}/analysis/events".
func GameAnalysisEvents(lang, id string) string { return In(lang, GameAnalysisEventsPattern, id) }

// GameLearn is the learning from a game's mistakes: "/{lang}/games/{id}/learn".
func GameLearn(lang, id string) string { return In(lang, GameLearnPattern, id) }

// GameHint asks the computer for a hint: "/{lang}/games/{id}/hint".
func GameHint(lang, id string) string { return In(lang, GameHintPattern, id) }

// GameTakeback asks to take a move back: "/{lang}/games/{id}/takeback".
func GameTakeback(lang, id string) string { return In(lang, GameTakebackPattern, id) }

// GameTakebackAccept accepts a takeback: "/{lang}/games/{id}/takeback/accept".
func GameTakebackAccept(lang, id string) string { return In(lang, GameTakebackAcceptPattern, id) }

// GameTakebackDecline declines a takeback: "/{lang}/games/{id}/takeback/decline".
func GameTakebackDecline(lang, id string) string { return In(lang, GameTakebackDeclinePattern, id) }

// GameRecord is a game's record file: "/{lang}/games/{id}/record.ogn".
func GameRecord(lang, id string) string { return In(lang, GameRecordPattern, id) }

// Computer is the form of a game against the computer: "/{lang}/computer".
func Computer(lang string) string { return In(lang, ComputerPattern) }

// Watch is a game's spectator page: "/{lang}/watch/{key}".
func Watch(lang, key string) string { return In(lang, WatchPattern, key) }

// WatchEvents is a game's event stream for spectators: "/{lang}/watch/{key}/events".
func WatchEvents(lang, key string) string { return In(lang, WatchEventsPattern, key) }

// Register is the registration form: "/{lang}/register".
func Register(lang string) string { return In(lang, RegisterPattern) }

// Login is the login form: "/{lang}/login".
func Login(lang string) string { return In(lang, LoginPattern) }

// Logout logs out (POST): "/{lang}/logout".
func Logout(lang string) string { return In(lang, LogoutPattern) }

// Account is the account page: "/{lang}/account".
func Account(lang string) string { return In(lang, AccountPattern) }

// AccountLanguage sets the account's language: "/{lang}/account/language".
func AccountLanguage(lang string) string { return In(lang, AccountLanguagePattern) }

// AccountPassword changes the password: "/{lang}/account/password".
func AccountPassword(lang string) string { return In(lang, AccountPasswordPattern) }

// AccountEmail changes the e-mail address: "/{lang}/account/email".
func AccountEmail(lang string) string { return In(lang, AccountEmailPattern) }

// AccountDelete deletes the account: "/{lang}/account/delete".
func AccountDelete(lang string) string { return In(lang, AccountDeletePattern) }

// AccountSound sets the sound: "/{lang}/account/sound".
func AccountSound(lang string) string { return In(lang, AccountSoundPattern) }

// AccountTurnEmail sets the turn e-mails: "/{lang}/account/turn-email".
func AccountTurnEmail(lang string) string { return In(lang, AccountTurnEmailPattern) }

// Players is the leaderboard: "/{lang}/players".
func Players(lang string) string { return In(lang, PlayersPattern) }

// Player is a player's page: "/{lang}/players/{name}".
func Player(lang, name string) string { return In(lang, PlayerPattern, name) }

// PlayerFollow follows or unfollows a player: "/{lang}/players/{name}/follow".
func PlayerFollow(lang, name string) string { return In(lang, PlayerFollowPattern, name) }

// Following lists the players one follows: "/{lang}/following".
func Following(lang string) string { return In(lang, FollowingPattern) }

// Settings is the board settings page: "/{lang}/settings".
func Settings(lang string) string { return In(lang, SettingsPattern) }

// Unsubscribe stops the turn e-mails of a mail key: "/{lang}/unsubscribe/{key}".
func Unsubscribe(lang, key string) string { return In(lang, UnsubscribePattern, key) }

// PasswordReset asks for a reset link: "/{lang}/password-reset".
func PasswordReset(lang string) string { return In(lang, PasswordResetPattern) }

// ResetToken is a reset link's page: "/{lang}/password-reset/{token}".
func ResetToken(lang, token string) string { return In(lang, ResetTokenPattern, token) }

// Lobby is the lobby: "/{lang}/lobby".
func Lobby(lang string) string { return In(lang, LobbyPattern) }

// LobbyList is the lobby's list of challenges: "/{lang}/lobby/list".
func LobbyList(lang string) string { return In(lang, LobbyListPattern) }

// LobbyQuick is the quick pairing: "/{lang}/lobby/quick".
func LobbyQuick(lang string) string { return In(lang, LobbyQuickPattern) }

// Challenges makes a challenge: "/{lang}/lobby/challenges".
func Challenges(lang string) string { return In(lang, ChallengesPattern) }

// ChallengeAccept accepts a challenge: "/{lang}/lobby/challenges/{id}/accept".
func ChallengeAccept(lang, id string) string { return In(lang, ChallengeAcceptPattern, id) }

// ChallengeCancel cancels one's challenge: "/{lang}/lobby/challenges/{id}/cancel".
func ChallengeCancel(lang, id string) string { return In(lang, ChallengeCancelPattern, id) }

// Tournaments lists (GET) and makes (POST) tournaments: "/{lang}/tournaments".
func Tournaments(lang string) string { return In(lang, TournamentsPattern) }

// Tournament is a tournament's page: "/{lang}/tournaments/{id}".
func Tournament(lang, id string) string { return In(lang, TournamentPattern, id) }

// TournamentJoin joins a tournament: "/{lang}/tournaments/{id}/join".
func TournamentJoin(lang, id string) string { return In(lang, TournamentJoinPattern, id) }

// TournamentWithdraw withdraws from it: "/{lang}/tournaments/{id}/withdraw".
func TournamentWithdraw(lang, id string) string { return In(lang, TournamentWithdrawPattern, id) }

// TournamentEvents is a tournament's event stream: "/{lang}/tournaments/{id}/events".
func TournamentEvents(lang, id string) string { return In(lang, TournamentEventsPattern, id) }

// Import is the import of a game record: "/{lang}/import".
func Import(lang string) string { return In(lang, ImportPattern) }

// ImportReplay is an imported game's replay: "/{lang}/import/{id}".
func ImportReplay(lang, id string) string { return In(lang, ImportReplayPattern, id) }

// ImportAnalysis asks for an imported game's review: "/{lang}/import/{id}/analysis".
func ImportAnalysis(lang, id string) string { return In(lang, ImportAnalysisPattern, id) }

// ImportAnalysisEvents is the progress of an imported game's review: "/{lang}/import/{id}/analysis/events".
func ImportAnalysisEvents(lang, id string) string { return In(lang, ImportAnalysisEventsPattern, id) }

// ImportLearn is the learning from an imported game: "/{lang}/import/{id}/learn".
func ImportLearn(lang, id string) string { return In(lang, ImportLearnPattern, id) }

// Analysis is the analysis board: "/{lang}/analysis".
func Analysis(lang string) string { return In(lang, AnalysisPattern) }

// AnalysisLines is the analysis board's lines: "/{lang}/analysis/lines".
func AnalysisLines(lang string) string { return In(lang, AnalysisLinesPattern) }

// AnalysisPlay plays a move on the analysis board: "/{lang}/analysis/play".
func AnalysisPlay(lang string) string { return In(lang, AnalysisPlayPattern) }

// Rules is the rules page: "/{lang}/rules".
func Rules(lang string) string { return In(lang, RulesPattern) }

// History is the history page: "/{lang}/history".
func History(lang string) string { return In(lang, HistoryPattern) }

// Variants is the variants page: "/{lang}/variants".
func Variants(lang string) string { return In(lang, VariantsPattern) }

// Variant is a variant's page: "/{lang}/variants/{slug}".
func Variant(lang, slug string) string { return In(lang, VariantPattern, slug) }

// Tutorials is the list of tutorials: "/{lang}/tutorials".
func Tutorials(lang string) string { return In(lang, TutorialsPattern) }

// TutorialStep is a tutorial's step (1 the first): "/{lang}/tutorials/{slug}/{step}".
func TutorialStep(lang, slug string, step int) string {
	return In(lang, TutorialStepPattern, slug, strconv.Itoa(step))
}

// Explorer is the endgame explorer: "/{lang}/explorer".
func Explorer(lang string) string { return In(lang, ExplorerPattern) }

// Puzzles is the list of puzzles: "/{lang}/puzzles".
func Puzzles(lang string) string { return In(lang, PuzzlesPattern) }

// PuzzlesNext is the next puzzle to solve: "/{lang}/puzzles/next".
func PuzzlesNext(lang string) string { return In(lang, PuzzlesNextPattern) }

// Puzzle is a puzzle's page: "/{lang}/puzzles/{id}".
func Puzzle(lang, id string) string { return In(lang, PuzzlePattern, id) }
