package route

// ComputerBotsPattern is "Play a bot": the challenge of a bot online
// from the computer form (issue 35).
const ComputerBotsPattern = ComputerPattern + "/bots"

// ComputerBots is where "Play a bot" posts: "/{lang}/computer/bots".
func ComputerBots(lang string) string { return In(lang, ComputerBotsPattern) }
