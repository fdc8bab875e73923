package route

import "strconv"

// The bots' and the account tokens' pages (issue 35), under the language
// prefix.
const (
	// AccountTokensPattern creates an account token (POST, the account
	// page's form).
	AccountTokensPattern = AccountPattern + "/tokens"
	// AccountTokenRevokePattern revokes one (POST).
	AccountTokenRevokePattern = AccountTokensPattern + "/:id/revoke"
	// AccountBotPattern stores a bot's engine and owner (POST).
	AccountBotPattern = AccountPattern + "/bot"
)

// AccountTokens creates an account token: "/{lang}/account/tokens".
func AccountTokens(lang string) string { return In(lang, AccountTokensPattern) }

// AccountTokenRevoke revokes token id: "/{lang}/account/tokens/{id}/revoke".
func AccountTokenRevoke(lang string, id uint) string {
	return In(lang, AccountTokenRevokePattern, strconv.FormatUint(uint64(id), 10))
}

// AccountBot stores a bot's profile: "/{lang}/account/bot".
func AccountBot(lang string) string { return In(lang, AccountBotPattern) }

// BotPlayers is the bots' leaderboard: "/{lang}/players?bots=1".
func BotPlayers(lang string) string { return In(lang, PlayersPattern) + "?bots=1" }
