package web

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/labstack/echo/v4"

	"oware/content"
	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
	"oware/views/picture"
)

// Sharing a game (issue 36): the pictures of positions and games, the
// link previews' images, the GIFs of finished games and the embeds.

// The refusals of a picture's parameters: 422, nothing drawn.
var (
	errPictureRules       = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "sh_err_rules"}
	errPicturePosition    = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "sh_err_position"}
	errPictureOrientation = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "sh_err_orientation"}
	errPictureLast        = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "sh_err_last"}
	errPictureSize        = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "sh_err_size"}
	errPicturePly         = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "sh_err_ply"}
	errGIFTooLong         = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "sh_err_too_long"}
)

// previewsKept bounds the previews kept in memory: 4,096 of about 35 KB,
// some 140 MB at most.
const previewsKept = 4096

// gifTime bounds the drawing of one GIF; gifsAtOnce the GIFs an instance
// draws at once (a GIF of MaxGIFPlies plies takes a few seconds of a core).
const (
	gifTime    = 30 * time.Second
	gifsAtOnce = 1
)

// pictures keeps the drawn previews of games by game, version, language
// and privacy, so that the crawlers of a chat and its readers draw each
// version once per instance, and bounds the GIFs drawn at once.
type pictures struct {
	kept *lru.Cache[string, []byte]
	gifs chan struct{}
}

// previewDraws counts the previews drawn by the process (the tests see
// the kept ones served without drawing).
var previewDraws atomic.Int64

func newPictures() *pictures {
	kept, _ := lru.New[string, []byte](previewsKept)
	return &pictures{kept: kept, gifs: make(chan struct{}, gifsAtOnce)}
}

// private reports whether g's players stay unnamed in its pictures: a
// guest's game, seen by whoever has its link (RULES aside: issue 36).
func private(g *game.Game) bool {
	for _, s := range g.Seats {
		if s.UserID == nil && s.Computer == 0 {
			return true
		}
	}
	return false
}

// pictureNames are the plates' names of g's pictures in l: the players'
// names, or the sides' when the game is private.
func pictureNames(l *core.Localizer, g *game.Game) [2]string {
	if private(g) {
		return [2]string{l.T("side_south"), l.T("side_north")}
	}
	return [2]string{core.PlayerName(l, g.Seats[engine.South]), core.PlayerName(l, g.Seats[engine.North])}
}

// gameNotes are the plates' notes of game g now: who is to move, who won.
func gameNotes(l *core.Localizer, g *game.Game) [2]string {
	var n [2]string
	switch {
	case g.Status == game.Playing:
		n[g.Engine.Position.ToMove] = l.T("sh_to_move")
	case g.Status == game.Over && g.Result == engine.SouthWins:
		n[engine.South] = l.T("sh_won")
	case g.Status == game.Over && g.Result == engine.NorthWins:
		n[engine.North] = l.T("sh_won")
	case g.Status == game.Over && g.Result == engine.Draw:
		n = [2]string{l.T("sh_drawn"), l.T("sh_drawn")}
	}
	return n
}

// lastPit is the pit of g's last move, -1 before any.
func lastPit(g *game.Game) int {
	if m := g.Engine.Moves; len(m) > 0 {
		return m[len(m)-1]
	}
	return -1
}

// servePNG answers a drawn picture, kept by the browser and the chat's
// crawler for maxAge.
func servePNG(c echo.Context, b []byte, maxAge time.Duration) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age="+strconv.Itoa(int(maxAge.Seconds())))
	return c.Blob(http.StatusOK, "image/png", b)
}

// drawPNG draws position p as a PNG.
func drawPNG(p engine.Position, o picture.Options, width int) ([]byte, error) {
	var b bytes.Buffer
	if err := picture.PNG(&b, p, o, width); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sizeParam reads the query's size, the picture's width: Width when
// missing, else MinWidth..MaxWidth pixels.
func sizeParam(c echo.Context) (int, error) {
	s := c.QueryParam("size")
	if s == "" {
		return picture.Width, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < picture.MinWidth || n > picture.MaxWidth {
		return 0, errPictureSize
	}
	return n, nil
}

// boardPicture: GET /board.png?rules=R&position=P&orientation=south|north&last=C&size=S,
// the picture of any position; every bad parameter is a localized 422.
func (h *Site) boardPicture(c echo.Context) error {
	r, err := engine.RulesByName(c.QueryParam("rules"))
	if err != nil {
		return errPictureRules
	}
	pos, err := r.ParsePosition(c.QueryParam("position"))
	if err != nil {
		return errPicturePosition
	}
	o := picture.Options{Last: -1}
	switch c.QueryParam("orientation") {
	case "", "south":
	case "north":
		o.Bottom = engine.North
	default:
		return errPictureOrientation
	}
	if s := c.QueryParam("last"); s != "" {
		if o.Last, err = engine.ParseLabel(s); err != nil {
			return errPictureLast
		}
	}
	width, err := sizeParam(c)
	if err != nil {
		return err
	}
	l := h.Visit(c).L
	o.Names = [2]string{l.T("side_south"), l.T("side_north")}
	_, o.Match = r.(engine.Rounds)
	b, err := drawPNG(pos, o, width)
	if err != nil {
		return err
	}
	c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
	return servePNG(c, b, 24*time.Hour)
}

// gamePlyPicture: GET /{lang}/games/{id}/ply/{n}.png (query size), the
// picture of a finished game after ply n (0 the start), its move ringed.
func (h *Site) gamePlyPicture(c echo.Context) error {
	g, err := h.finished(c)
	if err != nil {
		return err
	}
	s, ok := strings.CutSuffix(c.Param("file"), ".png")
	if !ok {
		return core.ErrNotFound
	}
	eg := g.Engine
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > len(eg.Moves) || strconv.Itoa(n) != s {
		return errPicturePly
	}
	width, err := sizeParam(c)
	if err != nil {
		return err
	}
	l := h.Visit(c).L
	o := picture.Options{Last: -1, Names: pictureNames(l, g), Match: g.NamNam()}
	pos := eg.Start
	_, err = engine.ReplayMatch(g.Rules, eg.Start, eg.Moves, eg.Agreements, func(rg *engine.Game, mv engine.Move, agreed bool) {
		if len(rg.Moves) == n {
			pos = rg.Position
			if !agreed {
				o.Last = mv.Pit
			}
		}
	})
	if err != nil {
		return err
	}
	b, err := drawPNG(pos, o, width)
	if err != nil {
		return err
	}
	return servePNG(c, b, 24*time.Hour)
}

// gamePreview: GET /{lang}/games/{id}/preview.png, the link preview's
// image of a game's page: its position now, the players (none in a
// private game), who is to move or who won, the last move ringed; drawn
// once per version and kept.
func (h *Site) gamePreview(c echo.Context) error {
	g, err := h.Games.Load(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return h.servePreview(c, g)
}

// watchPreview: GET /{lang}/watch/{key}/preview.png, gamePreview by the
// watch link's key (the game's id stays unknown to its spectators).
func (h *Site) watchPreview(c echo.Context) error {
	g, err := h.Games.LoadByKey(c.Request().Context(), c.Param("key"))
	if err != nil {
		return err
	}
	return h.servePreview(c, g)
}

// servePreview answers the preview of g, drawn or kept.
func (h *Site) servePreview(c echo.Context, g *game.Game) error {
	v := h.Visit(c)
	key := g.ID + "/" + strconv.Itoa(g.Version) + "/" + v.Lang
	b, ok := h.pictures.kept.Get(key)
	if !ok {
		o := picture.Options{Last: lastPit(g), Names: pictureNames(v.L, g), Notes: gameNotes(v.L, g), Match: g.NamNam()}
		var err error
		if b, err = drawPNG(g.Engine.Position, o, picture.Width); err != nil {
			return err
		}
		previewDraws.Add(1)
		h.pictures.kept.Add(key, b)
	}
	return servePNG(c, b, time.Minute)
}

// gameGIF: GET /games/{id}.gif, the animated GIF of a finished game
// (views/picture.GIF: one frame a ply, at most MaxGIFPlies); made on its
// first request and kept in the database (game.Service.KeepGIF). Its
// plates name the players with accounts, and nobody in a private game.
func (h *Site) gameGIF(c echo.Context) error {
	id, ok := strings.CutSuffix(c.Param("file"), ".gif")
	if !ok {
		return core.ErrNotFound
	}
	ctx := c.Request().Context()
	g, err := h.Games.Load(ctx, id)
	if err != nil {
		return err
	}
	if g.Status != game.Over {
		return core.ErrNotFound
	}
	b, err := h.Games.KeptGIF(ctx, g.ID)
	if errors.Is(err, game.ErrNotFound) {
		b, err = h.makeGIF(ctx, g)
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.Blob(http.StatusOK, "image/gif", b)
}

// makeGIF draws g's GIF (one at a time per instance, within gifTime) and
// keeps it.
func (h *Site) makeGIF(ctx context.Context, g *game.Game) ([]byte, error) {
	eg := g.Engine
	frames, err := picture.Frames(g.Rules, eg.Start, eg.Moves, eg.Agreements)
	if errors.Is(err, picture.ErrTooLong) {
		return nil, errGIFTooLong
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, gifTime)
	defer cancel()
	select {
	case h.pictures.gifs <- struct{}{}:
		defer func() { <-h.pictures.gifs }()
	case <-ctx.Done():
		return nil, game.ErrBusy
	}
	if b, err := h.Games.KeptGIF(ctx, g.ID); err == nil { // made while this request waited
		return b, nil
	}
	var o picture.Options
	if !private(g) {
		for side, s := range g.Seats {
			if s.UserID != nil && !s.Deleted {
				o.Names[side] = s.Name
			}
		}
	}
	o.Match = g.NamNam()
	var b bytes.Buffer
	err = picture.GIF(ctx, &b, frames, o)
	if errors.Is(err, picture.ErrTooLong) {
		return nil, errGIFTooLong
	}
	if err != nil {
		return nil, err
	}
	if err := h.Games.KeepGIF(ctx, g.ID, b.Bytes()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// gamePreviewOf returns the link preview of game g's page, whose image is
// at image: the players (or, private, the game's title), the position's
// state in the page's language.
func gamePreviewOf(l *core.Localizer, g *game.Game, image string) *views.Preview {
	names := pictureNames(l, g)
	pos := g.Engine.Position
	status := l.T("st_to_move", "Side", l.T("side_"+pos.ToMove.String()))
	if g.Status == game.Over {
		status = l.T("status_over", "Result", l.T("result_"+g.Result.String()), "Reason", l.T(views.ReasonKey(string(g.Reason))))
	}
	pv := &views.Preview{Image: image}
	pv.Title = l.T("sh_game_title", "South", names[engine.South], "North", names[engine.North])
	pv.Description = l.T("sh_game_description", "Rules", l.T("rules_"+g.Rules.Name()), "Plies", len(g.Engine.Moves), "Status", status)
	pv.Alt = l.T("sh_alt_players", "South", names[engine.South], "North", names[engine.North],
		"SouthCaptured", int(pos.Captured[engine.South]), "NorthCaptured", int(pos.Captured[engine.North]), "Status", status)
	return pv
}

// boardPreview returns the link preview of a page whose board is
// position pos of rules r (puzzles, lessons, the analysis board): the
// description of message descKey ("" keeps the page's), the picture of
// /board.png.
func boardPreview(l *core.Localizer, r engine.Rules, pos engine.Position, bottom engine.Side, descKey string) *views.Preview {
	orientation := "south"
	if bottom == engine.North {
		orientation = "north"
	}
	pv := &views.Preview{Image: route.BoardPicture(r.Name(), r.FormatPosition(pos), orientation, "", 0), Alt: boardAlt(l, pos)}
	if descKey != "" {
		pv.Description = l.T(descKey, "Rules", l.T("rules_"+r.Name()), "Side", l.T("side_"+pos.ToMove.String()))
	}
	return pv
}

// boardAlt is the text alternative of a preview without names.
func boardAlt(l *core.Localizer, pos engine.Position) string {
	return l.T("sh_alt_board", "Side", l.T("side_"+pos.ToMove.String()),
		"SouthCaptured", int(pos.Captured[engine.South]), "NorthCaptured", int(pos.Captured[engine.North]))
}

// invitationPreview is the link preview of g's invitation: the board as
// it stands, no names (the invitation is a guest's as often as not).
func invitationPreview(l *core.Localizer, g *game.Game, image string) *views.Preview {
	pos := g.Engine.Position
	return &views.Preview{
		Title: l.T("sh_invite_title"), Description: l.T("sh_invite_description", "Rules", l.T("rules_"+g.Rules.Name())), Image: image,
		Alt: boardAlt(l, pos),
	}
}

// lessonPreview is the link preview of a lesson's pages: the first board
// of the lesson (its first step with a position that its rules read);
// nil for a lesson without one.
func lessonPreview(l *core.Localizer, t *content.Tutorial) *views.Preview {
	for _, s := range t.Steps {
		r, err := engine.RulesByName(s.Rules)
		if err != nil || s.Position == "" {
			continue
		}
		if pos, err := r.ParsePosition(s.Position); err == nil {
			return boardPreview(l, r, pos, engine.South, "")
		}
	}
	return nil
}

// embedPage is the layout data of an embed, not indexed. An embed is in
// the query's lang when it is one of the site's (the visit's language for
// the whole request), else in the visitor's (Accept-Language).
func (h *Site) embedPage(c echo.Context, titleKey, path string) views.Page {
	if lang := c.QueryParam("lang"); core.ValidLang(lang) {
		v := h.Visit(c)
		v.Lang, v.L = lang, h.Localizers[lang]
	}
	p := h.Page(c, titleKey, path)
	p.NoIndex = true
	return p
}

// embedGame: GET /embed/games/{id}?lang=L&ply=N, a finished game's replay
// for another site's iframe: the board, the arrows and the move list, no
// header.
func (h *Site) embedGame(c echo.Context) error {
	g, err := h.finished(c)
	if err != nil {
		return err
	}
	p := h.embedPage(c, "title_replay", route.Fill(route.GameReplayPattern, g.ID))
	eg := g.Engine
	v, err := replayView(g.Rules, eg.Start, eg.Moves, eg.Agreements, plyParam(c, len(eg.Moves)))
	if err != nil {
		return err
	}
	names := pictureNames(h.Localizers[p.Lang], g)
	v.South, v.North = names[engine.South], names[engine.North]
	v.Bots = [2]bool{g.Seats[engine.South].Bot, g.Seats[engine.North].Bot}
	lang := p.Lang
	v.URL = func(ply int) string {
		return route.EmbedGame(g.ID) + "?lang=" + lang + "&ply=" + strconv.Itoa(ply)
	}
	core.AllowFraming(c)
	c.Response().Header().Add(echo.HeaderVary, "HX-Request")
	if core.Htmx(c) {
		v.Partial = true
		return core.Render(c, http.StatusOK, views.ReplayPanel(p.L, v))
	}
	e := views.EmbedView{Open: h.Base + gameReplayAt(lang, g.ID, v.Ply), Scripts: []string{h.Assets.URL("replay.js")}}
	return core.Render(c, http.StatusOK, views.EmbedReplayPage(p, e, v))
}

// shareView is the share box of finished game g's replay at ply.
func (h *Site) shareView(lang string, g *game.Game, ply int) *views.ShareView {
	v := &views.ShareView{Link: h.Base + route.GameReplay(lang, g.ID), Embed: h.Base + route.EmbedGame(g.ID) + "?lang=" + lang,
		Picture: route.GamePlyPicture(lang, g.ID, ply)}
	if len(g.Engine.Moves) <= picture.MaxGIFPlies {
		v.GIF = route.GameGIF(g.ID)
	}
	return v
}

// shareRoutes adds the pictures, the GIFs and the embeds.
func (h *Site) shareRoutes(e *echo.Echo, g *echo.Group) {
	e.GET(route.BoardPicturePattern, h.boardPicture)
	e.GET(route.GameGIFPattern, h.gameGIF)
	e.GET(route.EmbedGamePattern, h.embedGame)
	e.GET(route.EmbedPuzzlePattern, h.embedPuzzle)
	g.GET(route.GamePlyPicturePattern, h.gamePlyPicture)
	g.GET(route.GamePreviewPattern, h.gamePreview)
	g.GET(route.WatchPreviewPattern, h.watchPreview)
}

// embedPuzzle: GET /embed/puzzles/{id}?lang=L&line=M&pit=C, a puzzle
// solvable in another site's frame: the board's pits send the move with
// GET (no cookie, no CSRF token needed), judged as the puzzle page judges
// it but never rated, so, as for any attempt of nobody, it says right or
// wrong and the reply to a right move, never the solution; line is the
// solution's moves played so far.
func (h *Site) embedPuzzle(c echo.Context) error {
	pz, err := h.LoadPuzzle(c)
	if err != nil {
		return err
	}
	s, err := newSolving(pz)
	if err != nil {
		return err
	}
	if err := s.follow(c.QueryParam("line")); err != nil {
		return err
	}
	p := h.embedPage(c, "pz_puzzle_title", route.Fill(route.PuzzlePattern, pz.ID))
	p.Title = p.L.T("pz_puzzle_title_id", "ID", pz.ID)
	status, errMsg := http.StatusOK, (*string)(nil)
	if label := c.QueryParam("pit"); label != "" {
		pit, err := engine.ParseLabel(label)
		if err == nil {
			_, _, err = s.rules.Play(s.pos, pit)
		}
		if err != nil {
			msg := p.L.T("pz_err_move")
			var ue *core.UserError
			if errors.As(core.Refusal(err), &ue) {
				msg = p.L.T(ue.Key)
			}
			status, errMsg = http.StatusUnprocessableEntity, &msg
		} else {
			vd, err := h.Games.AttemptPuzzle(c.Request().Context(), "", pz, append(game.SolverMoves(s.line), label))
			if err != nil {
				return err
			}
			s.verdict, s.played = &vd, pit
		}
	}
	v := h.puzzleView(c, s, errMsg)
	if v.State != "solving" { // nobody's attempt shows right or wrong, never the solution (docs/puzzles.md)
		v.Solution, v.Best, v.Why, v.Options.Highlight = nil, "", nil, 0
	}
	embed := route.EmbedPuzzle(pz.ID)
	v.Card.URL = embed + "?lang=" + p.Lang
	if v.State == "solving" {
		v.Options.Action, v.Options.Get, v.Options.CSRF = embed, true, ""
		v.Options.Query = [][2]string{{"lang", p.Lang}}
		if len(s.line) > 0 {
			v.Options.Query = append(v.Options.Query, [2]string{"line", strings.Join(s.line, ",")})
		}
	}
	core.AllowFraming(c)
	c.Response().Header().Add(echo.HeaderVary, "HX-Request")
	if core.Htmx(c) {
		return core.Render(c, status, views.EmbedPuzzlePanel(p, v))
	}
	e := views.EmbedView{Open: h.Base + route.Puzzle(p.Lang, pz.ID)}
	return core.Render(c, status, views.EmbedPuzzlePage(p, e, v))
}
