package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/views"
)

// The Bot API (issue 35, docs/api.md "Bots"): account tokens, the bot
// upgrade, challenges by name, and NDJSON streams of a bot's events and of
// its games, after Lichess's. A bot acts by its account token (scope
// bot:play), which holds its account's seats (game.Visitor.Account).

// Refusals of the Bot API.
var (
	errBadToken    = &core.UserError{Status: http.StatusUnauthorized, Key: "bot_err_token"}
	errTokenScope  = &core.UserError{Status: http.StatusForbidden, Key: "bot_err_scope"}
	errNotBot      = &core.UserError{Status: http.StatusForbidden, Key: "bot_err_not_bot"}
	errBotRate     = &core.UserError{Status: http.StatusTooManyRequests, Key: "bot_err_rate"}
	errNeedsLogin  = &core.UserError{Status: http.StatusUnauthorized, Key: "bot_err_login"}
	errBadDecline  = &core.UserError{Status: http.StatusBadRequest, Key: "bot_err_decline_reason"}
	errBotChatText = &core.UserError{Status: http.StatusBadRequest, Key: "bot_err_chat"}
)

// defaultTokenLimit bounds the requests of one account token (every Bot
// API call, streams included): 100 at once, then one every 20 ms (a fast
// engine playing MaxBotGames games at once moves some 15 times a second).
var defaultTokenLimit = core.RateLimit{Burst: 100, Every: 20 * time.Millisecond}

// botKeepAlive is how often a quiet NDJSON stream sends an empty line;
// botPoll how often the event stream reads the bot's challenges and games.
const (
	botKeepAlive = 5 * time.Second
	botPoll      = time.Second
)

// tokenAccount returns the account of the request's account token when it
// holds one of the scopes: 401 without a token or for an unknown or revoked one, 403
// without the scope, 429 past the token's rate limit.
func (h *API) tokenAccount(c echo.Context, scopes ...string) (*accounts.Token, *accounts.User, error) {
	secret := core.BearerToken(c)
	if secret == "" {
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="oware"`)
		return nil, nil, errBadToken
	}
	t, u, err := h.Accounts.ByToken(c.Request().Context(), secret)
	if errors.Is(err, accounts.ErrNotFound) {
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="oware", error="invalid_token"`)
		return nil, nil, errBadToken
	}
	if err != nil {
		return nil, nil, err
	}
	if !slices.ContainsFunc(scopes, func(sc string) bool { return accounts.HasScope(t, sc) }) {
		return nil, nil, errTokenScope
	}
	if !h.tokenRate.Allow("t" + strconv.FormatUint(uint64(t.ID), 10)) {
		core.SetRetryAfter(c, h.tokenRate.Every)
		return nil, nil, errBotRate
	}
	return t, u, nil
}

// botAccount is tokenAccount for bot:play that also wants a bot: 403 for
// an account that is none.
func (h *API) botAccount(c echo.Context) (*accounts.User, error) {
	_, u, err := h.tokenAccount(c, accounts.ScopeBotPlay)
	if err == nil && !u.Bot {
		err = errNotBot
	}
	return u, err
}

// tokenJSON is a token in the API, without its secret.
type tokenJSON struct {
	ID      uint      `json:"id"`
	Name    string    `json:"name"`
	Scopes  []string  `json:"scopes"`
	Created time.Time `json:"created"`
}

func toTokenJSON(t *accounts.Token) tokenJSON {
	return tokenJSON{ID: t.ID, Name: t.Name, Scopes: accounts.TokenScopes(t), Created: t.CreatedAt}
}

// sessionUser returns the account of the request's session cookie: 401
// without one.
func (h *API) sessionUser(c echo.Context) (*accounts.User, error) {
	u := h.User(c)
	if u == nil {
		return nil, errNeedsLogin
	}
	return u, nil
}

// apiCreateToken: POST /api/v1/account/tokens {"name","scopes"} with the
// account's session cookie -> 201 {"id","token","scopes","name"}; the
// token is shown this once.
func (h *API) apiCreateToken(c echo.Context) error {
	u, err := h.sessionUser(c)
	if err != nil {
		return err
	}
	var req struct {
		Name   string   `json:"name"`
		Scopes []string `json:"scopes"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	secret, t, err := h.Accounts.CreateToken(c.Request().Context(), u.ID, req.Name, req.Scopes)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"id": t.ID, "token": secret, "scopes": accounts.TokenScopes(t), "name": t.Name})
}

// apiTokens: GET /api/v1/account/tokens -> 200 [{"id","name","scopes","created"}].
func (h *API) apiTokens(c echo.Context) error {
	u, err := h.sessionUser(c)
	if err != nil {
		return err
	}
	ts, err := h.Accounts.Tokens(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	out := make([]tokenJSON, len(ts))
	for i := range ts {
		out[i] = toTokenJSON(&ts[i])
	}
	return c.JSON(http.StatusOK, out)
}

// apiRevokeToken: DELETE /api/v1/account/tokens/{id} -> 204; the token is
// refused (401) from then on. 404 for no such token of the account.
func (h *API) apiRevokeToken(c echo.Context) error {
	u, err := h.sessionUser(c)
	if err != nil {
		return err
	}
	id, err := strconv.ParseUint(c.Param("id"), 10, 32)
	if err != nil {
		return core.ErrNotFound
	}
	if err := h.Accounts.RevokeToken(c.Request().Context(), u.ID, uint(id)); err != nil {
		if errors.Is(err, accounts.ErrNotFound) {
			return core.ErrNotFound
		}
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// apiBotUpgrade: POST /api/v1/bot/account/upgrade with a bot:play token
// -> 200 {"bot":true}; 409 when the account has played a game.
func (h *API) apiBotUpgrade(c echo.Context) error {
	_, u, err := h.tokenAccount(c, accounts.ScopeBotPlay)
	if err != nil {
		return err
	}
	if err := h.Accounts.UpgradeToBot(c.Request().Context(), u.ID); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"bot": true})
}

// apiChallengeName: POST /api/v1/challenge/{name} {"rules","clock","rated","seat"}
// with an account token (challenge:write or, for a bot, bot:play) or the
// session cookie -> 201 {"id"}. The challenge is for that player only; a
// bot challenges bots only, and a game of a bot and a person is casual.
func (h *API) apiChallengeName(c echo.Context) error {
	u, err := h.challenger(c)
	if err != nil {
		return err
	}
	var req struct {
		Rules string           `json:"rules"`
		Fours string           `json:"fours"`
		Seat  string           `json:"seat"`
		Clock *timeControlJSON `json:"clock"`
		Rated bool             `json:"rated"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if core.BearerToken(c) == "" { // a token has its own limit (tokenAccount)
		if err := h.Challenges.Check(c); err != nil {
			return err
		}
	}
	tc, err := req.Clock.timeControl()
	if err != nil {
		return err
	}
	by := game.Player{UserID: u.ID, Owner: game.OwnerOf(u.ID, ""), Client: core.ClientKey(c)}
	set := game.ChallengeSettings{Settings: game.Settings{Rules: req.Rules, Fours: req.Fours, Seat: req.Seat,
		UserID: u.ID, Clock: tc, Rated: req.Rated}, For: c.Param("name"), API: true}
	ch, _, err := h.Games.CreateChallenge(c.Request().Context(), set, by)
	if err != nil {
		if errors.Is(err, game.ErrNotFound) {
			return &core.UserError{Status: http.StatusNotFound, Key: "err_no_player"}
		}
		return err
	}
	return c.JSON(http.StatusCreated, map[string]string{"id": ch.ID})
}

// challenger returns who sends a challenge by name: the account of a
// token with challenge:write or bot:play, else of the session cookie.
func (h *API) challenger(c echo.Context) (*accounts.User, error) {
	if core.BearerToken(c) == "" {
		return h.sessionUser(c)
	}
	_, u, err := h.tokenAccount(c, accounts.ScopeChallengeWrite, accounts.ScopeBotPlay)
	return u, err
}

// apiBotAccept: POST /api/v1/bot/challenge/{id}/accept -> 200 {"ok":true};
// the game starts at once (gameStart on both bots' event streams).
func (h *API) apiBotAccept(c echo.Context) error {
	u, err := h.botAccount(c)
	if err != nil {
		return err
	}
	p := game.Player{UserID: u.ID, Owner: game.OwnerOf(u.ID, ""), Client: core.ClientKey(c)}
	if _, _, _, err := h.Games.Accept(c.Request().Context(), c.Param("id"), p); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// apiBotDecline: POST /api/v1/bot/challenge/{id}/decline {"reason"}
// (optional, one of game.DeclineReasons; "generic" without one) -> 200
// {"ok":true}; the challenger reads the reason on the lobby page and in
// its event stream (challengeDeclined).
func (h *API) apiBotDecline(c echo.Context) error {
	u, err := h.botAccount(c)
	if err != nil {
		return err
	}
	var req struct {
		Reason string `json:"reason"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Reason != "" && !slices.Contains(game.DeclineReasons, req.Reason) {
		return errBadDecline
	}
	if err := h.Games.DeclineChallenge(c.Request().Context(), c.Param("id"), u.ID, req.Reason); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// botSeat loads the game of :id with the seat of the bot of the request:
// 403 when it holds none.
func (h *API) botSeat(c echo.Context) (*game.Game, engine.Side, error) {
	u, err := h.botAccount(c)
	if err != nil {
		return nil, engine.Nobody, err
	}
	return h.Games.LoadSeated(c.Request().Context(), c.Param("id"), game.Visitor{Account: u.ID})
}

// apiBotMove: POST /api/v1/bot/game/{id}/move/{label} -> 200 {"ok":true}.
// An illegal move, a move out of turn or after the bot's time ran out is
// refused with 400 and the reason; nothing is stored (a late move ends
// the game on time, as the sweeper would). The move goes the way of
// people's (game.Service.MoveFor): when this instance kept the game's
// state (its game stream read it last) the game is not read again, one
// write after the token's lookup. A move that meets another write of the
// game is judged once more on the game as it is then.
func (h *API) apiBotMove(c echo.Context) error {
	u, err := h.botAccount(c)
	if err != nil {
		return err
	}
	ctx, v := c.Request().Context(), game.Visitor{Account: u.ID}
	g, seat, err := h.Games.MoveFor(ctx, c.Param("id"), v, c.Param("label"))
	if errors.Is(err, game.ErrConflict) {
		// Another write of the game came first (an answer, the clocks
		// moved on after an outage): the move is judged again on it.
		g, seat, err = h.Games.MoveFor(ctx, c.Param("id"), v, c.Param("label"))
	}
	if err != nil {
		return badMove(err)
	}
	h.MailTurn(c, g, seat)
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// badMove turns the refusal of a move into a 400 with its reason (the
// Bot API's answer); a conflict and server faults stay as they are.
func badMove(err error) error {
	var ue *core.UserError
	if r := core.Refusal(err); errors.As(r, &ue) && !errors.Is(err, game.ErrConflict) &&
		(ue.Status == http.StatusConflict || ue.Status == http.StatusUnprocessableEntity) {
		return &core.UserError{Status: http.StatusBadRequest, Key: ue.Key}
	}
	return err
}

// apiBotResign: POST /api/v1/bot/game/{id}/resign -> 200 {"ok":true}.
func (h *API) apiBotResign(c echo.Context) error {
	g, seat, err := h.botSeat(c)
	if err != nil {
		return err
	}
	if err := h.Games.Resign(c.Request().Context(), g, seat); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// apiBotChat: POST /api/v1/bot/game/{id}/chat {"text"} (a preset message's
// key, as people send: hello, good_luck, well_played, thanks, rematch) ->
// 200 {"ok":true}.
func (h *API) apiBotChat(c echo.Context) error {
	g, seat, err := h.botSeat(c)
	if err != nil {
		return err
	}
	var req struct {
		Text string `json:"text"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if !slices.Contains(views.ChatPresets, req.Text) {
		return errBotChatText
	}
	err = h.Games.Say(c.Request().Context(), g, seat, req.Text, core.ChatGap, core.ChatMax)
	if errors.Is(err, game.ErrChatLimit) {
		return core.ErrChatLimit
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// ndjson starts an NDJSON answer and returns the function that writes one
// object a line (flushed at once; nil writes the keep-alive empty line),
// each write with a deadline of its own as an event stream's
// (startEventStream): the stream outlives the server's WriteTimeout.
func ndjson(c echo.Context) func(v any) error {
	w := c.Response()
	rc := http.NewResponseController(w)
	w.Header().Set(echo.HeaderContentType, "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no") // nginx passes each line at once
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	return func(v any) error {
		_ = rc.SetWriteDeadline(time.Now().Add(core.WriteTimeout))
		var err error
		if v == nil {
			_, err = w.Write([]byte("\n"))
		} else {
			err = enc.Encode(v)
		}
		w.Flush()
		return err
	}
}

// botPlayerJSON is a player of a bot's game or challenge.
type botPlayerJSON struct {
	Name   string `json:"name"`
	Bot    bool   `json:"bot"`
	Rating string `json:"rating,omitempty"`
}

// botChallengeJSON is a challenge on a bot's event stream.
type botChallengeJSON struct {
	ID         string           `json:"id"`
	Challenger botPlayerJSON    `json:"challenger"`
	Rules      string           `json:"rules"`
	Clock      *timeControlJSON `json:"clock"`
	Rated      bool             `json:"rated"`
	Seat       string           `json:"seat"` // the challenger's: south, north or random
	sent       bool             // sent by the stream's bot: no "challenge" event
	declined   bool             // its challengeDeclined was sent
}

func toBotChallenge(ch *game.Challenge, bot uint) botChallengeJSON {
	return botChallengeJSON{ID: ch.ID, Challenger: botPlayerJSON{Name: ch.By, Bot: ch.ByBot}, Rules: ch.Rules,
		Rated: ch.Rated, Seat: ch.Seat, Clock: timeControlOf(ch.Clock), sent: ch.Sent(bot)}
}

// botGameJSON is a game on a bot's event stream.
type botGameJSON struct {
	ID       string        `json:"id"`
	Rules    string        `json:"rules"`
	Seat     string        `json:"seat"` // the bot's: south or north
	Opponent botPlayerJSON `json:"opponent"`
	Rated    bool          `json:"rated"`
}

func botGameOf(g *game.Game, u *accounts.User) botGameJSON {
	seat := engine.South
	if id := g.Seats[engine.North].UserID; id != nil && *id == u.ID {
		seat = engine.North
	}
	return botGameJSON{ID: g.ID, Rules: g.Rules.Name(), Seat: seat.String(), Rated: g.Rated,
		Opponent: botPlayerJSON{Name: g.Seats[seat.Opponent()].Name}}
}

// apiBotEvents: GET /api/v1/bot/stream/events -> NDJSON: "challenge" for
// each challenge sent to the bot, "challengeCanceled" when one is gone
// unanswered, "challengeDeclined" (with "reason") when a challenge the
// bot sent was declined, "gameStart" for each game in play (all of them again on
// every connection), "gameFinish" when one ends; an empty line every 5 s.
func (h *API) apiBotEvents(c echo.Context) error {
	u, err := h.botAccount(c)
	if err != nil {
		return err
	}
	ok, closed := h.Streams.OpenStream(core.ClientKey(c), "bot-events")
	if !ok {
		core.SetRetryAfter(c, core.StreamRetryAfter)
		return core.ErrTooManyStreams
	}
	defer closed()
	ctx := c.Request().Context()
	defer h.Games.HoldBotOnline(ctx, u.ID)() // online while connected (game/botsonline.go)
	send := ndjson(c)
	challenges, games := map[string]botChallengeJSON{}, map[string]botGameJSON{}
	quiet := time.Now()
	tick := time.NewTicker(botPoll)
	defer tick.Stop()
	for {
		n, err := h.botNews(ctx, u, send, challenges, games)
		if err != nil {
			return nil // the stream is cut; the bridge reconnects
		}
		if n == 0 && time.Since(quiet) >= botKeepAlive {
			n = 1
			if send(nil) != nil {
				return nil
			}
		}
		if n > 0 {
			quiet = time.Now()
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// botNews sends the events of bot u since the last call (what challenges
// and games holds, updated) and returns how many it sent.
func (h *API) botNews(ctx context.Context, u *accounts.User, send func(any) error,
	challenges map[string]botChallengeJSON, games map[string]botGameJSON) (int, error) {
	open, err := h.Games.ChallengesFor(ctx, u.ID)
	if err != nil {
		return 0, err
	}
	playing, err := h.Games.PlayingOf(ctx, u.ID, game.MaxBotGames)
	if err != nil {
		return 0, err
	}
	n := 0
	event := func(v any) error { n++; return send(v) }
	nowGames := map[string]bool{}
	for _, g := range playing {
		nowGames[g.ID] = true
		if _, ok := games[g.ID]; !ok {
			games[g.ID] = botGameOf(g, u)
			if err := event(map[string]any{"type": "gameStart", "game": games[g.ID]}); err != nil {
				return n, err
			}
		}
	}
	for id, g := range games {
		if !nowGames[id] {
			delete(games, id)
			if err := event(map[string]any{"type": "gameFinish", "game": g}); err != nil {
				return n, err
			}
		}
	}
	nowOpen := map[string]bool{}
	for _, ch := range open {
		nowOpen[ch.ID] = true
		j, seen := challenges[ch.ID]
		switch {
		case ch.Declined != "" && !j.declined: // one the bot sent, declined (listed until it would expire)
			j = toBotChallenge(ch, u.ID)
			j.declined = true
			challenges[ch.ID] = j
			if err := event(map[string]any{"type": "challengeDeclined", "challenge": j, "reason": ch.Declined}); err != nil {
				return n, err
			}
		case !seen:
			challenges[ch.ID] = toBotChallenge(ch, u.ID)
			if challenges[ch.ID].sent {
				continue // the bot's own: only its answer is news
			}
			if err := event(map[string]any{"type": "challenge", "challenge": challenges[ch.ID]}); err != nil {
				return n, err
			}
		}
	}
	for id, ch := range challenges {
		if !nowOpen[id] {
			delete(challenges, id)
			if ch.declined {
				continue // said already
			}
			if c, err := h.Games.FindChallenge(ctx, id); err == nil && c.Status == "taken" {
				continue // its game is a gameStart
			}
			if err := event(map[string]any{"type": "challengeCanceled", "challenge": ch}); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// botStateJSON is a gameState line (and the state of gameFull): the
// moves as labels, the side to move, each clock's time left in ms (wtime
// is South's), and the status: "started" while in play, else the reason
// the game ended, with the winner ("south", "north", or null for a draw or
// an aborted game).
type botStateJSON struct {
	Type   string  `json:"type,omitempty"`
	Moves  string  `json:"moves"`
	Turn   string  `json:"turn"`
	WTime  int64   `json:"wtime"`
	BTime  int64   `json:"btime"`
	WInc   int64   `json:"winc"`
	BInc   int64   `json:"binc"`
	Status string  `json:"status"`
	Winner *string `json:"winner"`
}

func (h *API) botState(g *game.Game) botStateJSON {
	labels := g.MoveLabels()
	moves := make([]string, len(labels))
	for i := range len(labels) {
		moves[i] = labels[i : i+1]
	}
	s := botStateJSON{Type: "gameState", Moves: strings.Join(moves, " "), Turn: g.Position.ToMove.String(), Status: "started"}
	if g.Clock.On() {
		left, _ := g.ClockAt(h.Games.Now())
		s.WTime, s.BTime = left[engine.South].Milliseconds(), left[engine.North].Milliseconds()
		inc := int64(g.Clock.Increment) * 1000
		s.WInc, s.BInc = inc, inc
	}
	if g.Status == game.Over {
		s.Status = string(g.Reason)
		if g.Result == engine.SouthWins || g.Result == engine.NorthWins {
			w := g.Result.String()
			s.Winner = &w
		}
	}
	return s
}

// apiBotGameStream: GET /api/v1/bot/game/stream/{id} -> NDJSON: first
// {"type":"gameFull","id","rules","rated","south":{"name","bot"},"north",
// "clock":{"initial","increment"}|null,"state":{...}}, then a gameState
// after every change of the game (a move, the end), an empty line every
// 5 s; the stream ends after the game's last state.
func (h *API) apiBotGameStream(c echo.Context) error {
	u, err := h.botAccount(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	if !game.ValidID(id) {
		return core.ErrNotFound
	}
	ok, closed := h.Streams.OpenStream(core.ClientKey(c), id)
	if !ok {
		core.SetRetryAfter(c, core.StreamRetryAfter)
		return core.ErrTooManyStreams
	}
	defer closed()
	ctx := c.Request().Context()
	events, stop := h.Events.Subscribe(id) // before the load: no change slips in between
	defer stop()
	load := func() (*game.Game, error) {
		g, seat, err := h.Games.LoadSeated(ctx, id, game.Visitor{Account: u.ID})
		if err == nil {
			h.Seen(c, g, seat) // a bot reading its game is there
		}
		return g, err
	}
	g, err := load()
	if err != nil {
		return err
	}
	send := ndjson(c)
	if err := send(h.botFull(ctx, g)); err != nil || g.Status == game.Over {
		return nil
	}
	last := h.botState(g)
	keep := time.NewTicker(botKeepAlive)
	defer keep.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-keep.C:
			if send(nil) != nil {
				return nil
			}
			continue
		case _, open := <-events:
			if !open {
				return nil
			}
		}
		if g, err = load(); err != nil {
			return nil
		}
		s := h.botState(g)
		if s.Moves == last.Moves && s.Status == last.Status {
			continue
		}
		last = s
		if send(s) != nil || g.Status == game.Over {
			return nil
		}
		keep.Reset(botKeepAlive)
	}
}

// botFull is the gameFull line of g.
func (h *API) botFull(ctx context.Context, g *game.Game) map[string]any {
	state := h.botState(g)
	state.Type = ""
	players := [2]botPlayerJSON{}
	for side, seat := range g.Seats {
		players[side].Name = seat.Name
		if seat.UserID != nil {
			if u, err := h.Accounts.ByID(ctx, *seat.UserID); err == nil {
				players[side].Bot = u.Bot
			}
		}
	}
	return map[string]any{"type": "gameFull", "id": g.ID, "rules": g.Rules.Name(), "rated": g.Rated,
		"south": players[engine.South], "north": players[engine.North], "clock": timeControlOf(g.Clock.TimeControl), "state": state}
}
