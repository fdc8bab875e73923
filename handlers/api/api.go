package api

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/engine/search"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
)

// The JSON API for bots and tests (routes.go). Seats are bearer tokens;
// the API needs no cookies and no CSRF token.

// gameJSON is a game in the API.
type gameJSON struct {
	ID       string     `json:"id"`
	Rules    string     `json:"rules"`
	Fours    string     `json:"fours,omitempty"` // namnam: "last" or "owner"
	Status   string     `json:"status"`          // waiting, playing, over
	Position string     `json:"position"`
	Moves    labelList  `json:"moves"`  // the labels, ["C","d",...]
	Result   *string    `json:"result"` // south, north, draw; null until over and for an aborted game
	Reason   *string    `json:"reason"` // null until over
	Clock    *clockJSON `json:"clock"`  // null without a clock (clock.go)
	Rated    bool       `json:"rated"`
	// Version counts the stored changes of the game; a resignation or a
	// claim may name it to act only on that version.
	Version int `json:"version"`
	// Computer is the computer opponent's seat and level; left out in a
	// game between people.
	Computer *computerJSON `json:"computer,omitempty"`
}

// computerJSON is the computer's seat in a game of the API.
type computerJSON struct {
	Seat  string `json:"seat"`  // south or north
	Level int    `json:"level"` // 1 to 8
}

func (h *API) toJSON(g *game.Game) gameJSON {
	j := gameJSON{ID: g.ID, Rules: g.Rules.Name(), Fours: game.Fours(g.Rules), Status: string(g.Status),
		Position: g.Rules.FormatPosition(g.Position), Moves: labelList(g.MoveLabels()),
		Clock: h.clockJSON(g), Rated: g.Rated, Version: g.Version}
	if g.Result != engine.NoResult {
		r := g.Result.String()
		j.Result = &r
	}
	if g.Reason != "" {
		r := string(g.Reason)
		j.Reason = &r
	}
	if cs := g.ComputerSide(); cs != engine.Nobody {
		j.Computer = &computerJSON{Seat: cs.String(), Level: int(g.Seats[cs].Computer)}
	}
	return j
}

// labelList is move labels (a character each), written in JSON as an
// array of strings.
type labelList string

// MarshalJSON writes l as a JSON array of strings.
func (l labelList) MarshalJSON() ([]byte, error) { return l.append(nil), nil }

// append appends l as a JSON array of strings to b.
func (l labelList) append(b []byte) []byte {
	b = slices.Grow(b, 2+4*len(l))
	b = append(b, '[')
	for i := range len(l) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"', l[i], '"')
	}
	return append(b, ']')
}

// appendJSON appends j to b as encoding/json writes it (the same bytes,
// and the newline of echo's c.JSON), without reflection: an API move's
// answer is written on every move.
func (j *gameJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, j.ID)
	b = append(b, `,"rules":`...)
	b = appendString(b, j.Rules)
	if j.Fours != "" {
		b = append(b, `,"fours":`...)
		b = appendString(b, j.Fours)
	}
	b = append(b, `,"status":`...)
	b = appendString(b, j.Status)
	b = append(b, `,"position":`...)
	b = appendString(b, j.Position)
	b = append(b, `,"moves":`...)
	b = j.Moves.append(b)
	b = append(b, `,"result":`...)
	b = appendStringOrNull(b, j.Result)
	b = append(b, `,"reason":`...)
	b = appendStringOrNull(b, j.Reason)
	b = append(b, `,"clock":`...)
	if j.Clock == nil {
		b = append(b, "null"...)
	} else {
		clock, _ := json.Marshal(j.Clock) // a fixed struct of numbers
		b = append(b, clock...)
	}
	b = append(b, `,"rated":`...)
	b = strconv.AppendBool(b, j.Rated)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, int64(j.Version), 10)
	if c := j.Computer; c != nil {
		b = append(b, `,"computer":{"seat":`...)
		b = appendString(b, c.Seat)
		b = append(b, `,"level":`...)
		b = strconv.AppendInt(b, int64(c.Level), 10)
		b = append(b, '}')
	}
	return append(b, "}\n"...)
}

// appendString appends s as a JSON string, escaped as encoding/json
// escapes it (with <, > and &).
func appendString(b []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendStringOrNull appends *s as a JSON string, null for nil.
func appendStringOrNull(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

// answerGame answers g (gameJSON) with status 200: written by hand
// (appendJSON) and compressed by core.Answer when it is large; with
// ?pretty as echo's c.JSON writes it.
func (h *API) answerGame(c echo.Context, g *game.Game) error {
	j := h.toJSON(g)
	if c.Request().URL.RawQuery != "" && c.QueryParams().Has("pretty") {
		return c.JSON(http.StatusOK, j)
	}
	buf := answers.Get().(*[]byte)
	defer answers.Put(buf)
	*buf = j.appendJSON((*buf)[:0])
	return core.Answer(c, http.StatusOK, echo.MIMEApplicationJSON, *buf)
}

// answers are the buffers answerGame writes in.
var answers = sync.Pool{New: func() any { return new([]byte) }}

// apiCreate: POST /api/v1/games {"rules","fours","seat","opponent"} -> 201
// {"id","token","seat","invite","invite_url"}: invite is the invitation's
// path, invite_url the same on Config.BaseURL. With "opponent": {"computer": LEVEL}
// the computer takes the other seat and plays by itself ("instant": true
// makes it answer without its minimum thinking time).
func (h *API) apiCreate(c echo.Context) error {
	var req struct {
		Rules    string           `json:"rules"`
		Fours    string           `json:"fours"` // namnam: "last" (default) or "owner"
		Seat     string           `json:"seat"`
		Clock    *timeControlJSON `json:"clock"`
		Opponent *struct {
			Computer int  `json:"computer"`
			Instant  bool `json:"instant"`
		} `json:"opponent"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	tc, err := req.Clock.timeControl()
	if err != nil {
		return err
	}
	set := game.Settings{Rules: req.Rules, Fours: req.Fours, Seat: req.Seat, Clock: tc}
	if o := req.Opponent; o != nil {
		if set.Computer = search.Level(o.Computer); !set.Computer.Valid() {
			return core.ErrBadLevel
		}
		set.Instant = o.Instant
	}
	g, token, err := h.Games.Create(c.Request().Context(), set)
	if err != nil {
		return err
	}
	seat := "south"
	if g.Seats[engine.North].Token != "" {
		seat = "north"
	}
	return c.JSON(http.StatusCreated, map[string]string{"id": g.ID, "token": token, "seat": seat,
		"invite": route.Join(g.ID), "invite_url": h.Base + route.Join(g.ID)})
}

// apiGame: GET /api/v1/games/{id}.
func (h *API) apiGame(c echo.Context) error {
	g, seat, err := h.Games.LoadFor(c.Request().Context(), c.Param("id"), h.VisitorOf(c))
	if err != nil {
		return err
	}
	if seat != engine.Nobody {
		h.Seen(c, g, seat) // a program reading its game is there
	}
	return h.answerGame(c, g)
}

// apiJoin: POST /api/v1/games/{id}/join -> 200 {"token","seat"}; 409 when
// both seats are taken.
func (h *API) apiJoin(c echo.Context) error {
	g, err := h.Games.Load(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	token, seat, err := h.Games.Join(c.Request().Context(), g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"token": token, "seat": seat.String()})
}

// bindJSON decodes a JSON request body into v: 415 for a body of another
// media type, 400 for malformed JSON (a value followed by anything but
// spaces too: {"pit":"C"}x, two values) or a string with a NUL character
// (as rejectBadText does for forms: PostgreSQL refuses it in text). An
// empty body leaves v as it is. The body is bounded by limitBody.
func bindJSON(c echo.Context, v any) error {
	body, err := jsonBody(c)
	if err != nil || body == nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil { // (trailing data too, unlike a Decoder)
		return core.ErrBadRequest
	}
	return nil
}

// jsonBody returns the JSON body of c's request as bindJSON checks it
// (nil for an empty body), with bindJSON's errors.
func jsonBody(c echo.Context) ([]byte, error) {
	r := c.Request()
	if r.ContentLength == 0 {
		return nil, nil
	}
	if ct := r.Header.Get(echo.HeaderContentType); ct != echo.MIMEApplicationJSON { // (the usual one, without parsing)
		if media, _, err := mime.ParseMediaType(ct); err != nil || media != echo.MIMEApplicationJSON {
			return nil, core.ErrNotJSON
		}
	}
	body, err := readBody(r)
	if err != nil || jsonHasNUL(body) {
		return nil, core.ErrBadRequest
	}
	return body, nil
}

// bindPit is bindJSON for a move's body {"pit":"C"}: it returns the pit's
// label. The body every client sends, {"pit":"X"} with X a letter and
// nothing else, is read as it is: decoding it by reflection was about 2.5 %
// of the server's CPU a move (pprof under loadtest -mode moves); any other
// body is decoded as bindJSON decodes it.
func bindPit(c echo.Context) (string, error) {
	body, err := jsonBody(c)
	if err != nil || body == nil {
		return "", err
	}
	if len(body) == len(`{"pit":"C"}`) && string(body[:8]) == `{"pit":"` && string(body[9:]) == `"}` &&
		('a' <= body[8] && body[8] <= 'z' || 'A' <= body[8] && body[8] <= 'Z') {
		return string(body[8:9]), nil
	}
	var req struct {
		Pit string `json:"pit"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", core.ErrBadRequest
	}
	return req.Pit, nil
}

// readBody reads r's body whole: into a buffer of its announced length
// when it has one (limitBody refused a longer one), else to its end.
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength <= 0 {
		return io.ReadAll(r.Body)
	}
	body := make([]byte, r.ContentLength) // net/http ends the body there
	if _, err := io.ReadFull(r.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}

// jsonHasNUL reports whether JSON text b escapes a NUL character, the
// only way a JSON string holds one: a backslash-u0000 whose backslash is
// not itself escaped (it ends an odd run of backslashes).
func jsonHasNUL(b []byte) bool {
	for i := 0; ; i++ {
		j := bytes.Index(b[i:], []byte(`\u0000`))
		if j < 0 {
			return false
		}
		i += j
		n := 0
		for k := i; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 1 {
			return true
		}
	}
}

// apiMove: POST /api/v1/games/{id}/moves {"pit":"C"} with the bearer token.
// The game is loaded and the move stored in one round trip when this
// instance kept the game (game.Service.MoveFor); a bad body is refused
// after the seat is checked, as for the other actions.
func (h *API) apiMove(c echo.Context) error {
	if core.BearerToken(c) == "" {
		_, _, err := h.Bearer(c) // 401
		return err
	}
	pit, err := bindPit(c)
	if err != nil {
		if _, _, serr := h.Bearer(c); serr != nil {
			return serr
		}
		return err
	}
	g, seat, err := h.Games.MoveFor(c.Request().Context(), c.Param("id"), h.VisitorOf(c), pit)
	if err != nil {
		return err
	}
	h.MailTurn(c, g, seat)
	return h.answerGame(c, g)
}

// apiResign: POST /api/v1/games/{id}/resign with the bearer token. The
// optional body {"version": N} names the version of the game (its
// "version") the resignation was made on: on another version it is 409
// and does nothing, so a replayed request acts once.
func (h *API) apiResign(c echo.Context) error {
	g, seat, err := h.Bearer(c)
	if err != nil {
		return err
	}
	var req struct {
		Version int `json:"version"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := g.CheckVersion(req.Version); err != nil {
		return err
	}
	if err := h.Games.Resign(c.Request().Context(), g, seat); err != nil {
		return err
	}
	return h.answerGame(c, g)
}
