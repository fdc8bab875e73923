package route

import (
	"net/url"
	"strconv"
)

// The paths of sharing a game (issue 36): pictures, GIFs and embeds.
const (
	// BoardPicturePattern is the picture of any position (query rules,
	// position, orientation, last, size).
	BoardPicturePattern = "/board.png"
	// GameGIFPattern is a finished game's animated GIF, "/games/{id}.gif":
	// the parameter is the file name, the id with ".gif".
	GameGIFPattern = "/games/:file"
	// EmbedGamePattern and EmbedPuzzlePattern are the pages another site
	// may show in an iframe (query lang, optional).
	EmbedGamePattern   = "/embed/games/:id"
	EmbedPuzzlePattern = "/embed/puzzles/:id"
)

// Patterns under the language prefix.
const (
	// GamePlyPicturePattern is the picture of a finished game after a ply,
	// "/games/{id}/ply/{n}.png": the parameter is "{n}.png".
	GamePlyPicturePattern = GamePattern + "/ply/:file"
	// GamePreviewPattern and WatchPreviewPattern are the link preview's
	// image of a game's page and of its watch link (query v, the game's
	// version, so that a new version is a new address).
	GamePreviewPattern  = GamePattern + "/preview.png"
	WatchPreviewPattern = WatchPattern + "/preview.png"
)

// BoardPicture is the picture of position (a position string of rules)
// seen with orientation ("south" or "north") at the bottom, the last
// move's pit label ("" for none) ringed, size pixels wide (0: the
// default): "/board.png?rules=R&position=P&orientation=O&last=C&size=S".
func BoardPicture(rules, position, orientation, last string, size int) string {
	q := url.Values{"rules": {rules}, "position": {position}}
	if orientation != "" {
		q.Set("orientation", orientation)
	}
	if last != "" {
		q.Set("last", last)
	}
	if size > 0 {
		q.Set("size", strconv.Itoa(size))
	}
	return BoardPicturePattern + "?" + q.Encode()
}

// GameGIF is the animated GIF of finished game id: "/games/{id}.gif".
func GameGIF(id string) string { return Fill(GameGIFPattern, id+".gif") }

// EmbedGame is the embed of finished game id: "/embed/games/{id}".
func EmbedGame(id string) string { return Fill(EmbedGamePattern, id) }

// EmbedPuzzle is the embed of puzzle id: "/embed/puzzles/{id}".
func EmbedPuzzle(id string) string { return Fill(EmbedPuzzlePattern, id) }

// GamePlyPicture is the picture of finished game id after ply n (0 the
// start): "/{lang}/games/{id}/ply/{n}.png".
func GamePlyPicture(lang, id string, n int) string {
	return In(lang, GamePlyPicturePattern, id, strconv.Itoa(n)+".png")
}

// GamePreview is the link preview's image of game id's page at version
// v: "/{lang}/games/{id}/preview.png?v={v}".
func GamePreview(lang, id string, v int) string {
	return In(lang, GamePreviewPattern, id) + "?v=" + strconv.Itoa(v)
}

// WatchPreview is the link preview's image of the watch link key at
// version v: "/{lang}/watch/{key}/preview.png?v={v}".
func WatchPreview(lang, key string, v int) string {
	return In(lang, WatchPreviewPattern, key) + "?v=" + strconv.Itoa(v)
}
