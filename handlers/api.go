package handlers

import (
	"encoding/json"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"oware/engine"
	"oware/models"
)

// apiRoutes adds the JSON API for bots and tests. Seats are bearer tokens;
// the API needs no cookies and no CSRF token.
func (h *handler) apiRoutes(g *echo.Group) {
	g.POST("/games", h.apiCreate)
	g.GET("/games/:id", h.apiGame)
	g.POST("/games/:id/join", h.apiJoin)
	g.POST("/games/:id/moves", h.apiMove)
	g.POST("/games/:id/resign", h.apiResign)
}

// gameJSON is a game in the API.
type gameJSON struct {
	ID       string   `json:"id"`
	Rules    string   `json:"rules"`
	Fours    string   `json:"fours,omitempty"` // namnam: "last" or "owner"
	Status   string   `json:"status"`          // waiting, playing, over
	Position string   `json:"position"`
	Moves    []string `json:"moves"`
	Result   *string  `json:"result"` // south, north, draw; null until over
	Reason   *string  `json:"reason"` // null until over
}

func toJSON(g *models.Game) gameJSON {
	j := gameJSON{ID: g.ID, Rules: g.Rules, Fours: g.Fours, Status: g.Status, Position: g.Position, Moves: []string{}}
	for _, m := range g.Moves {
		j.Moves = append(j.Moves, m.Label)
	}
	if g.Result != "" {
		r := g.Result
		j.Result = &r
	}
	if g.Reason != "" {
		r := g.Reason
		j.Reason = &r
	}
	return j
}

// apiCreate: POST /api/v1/games {"rules","fours","seat"} -> 201 {"id","token","seat","invite"}.
func (h *handler) apiCreate(c echo.Context) error {
	var req struct {
		Rules string `json:"rules"`
		Fours string `json:"fours"` // namnam: "last" (default) or "owner"
		Seat  string `json:"seat"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	g, token, err := h.createGame(c.Request().Context(), req.Rules, req.Fours, req.Seat)
	if err != nil {
		return err
	}
	seat := "south"
	if g.NorthToken != "" {
		seat = "north"
	}
	return c.JSON(http.StatusCreated, map[string]string{"id": g.ID, "token": token, "seat": seat, "invite": "/join/" + g.ID})
}

// apiGame: GET /api/v1/games/{id}.
func (h *handler) apiGame(c echo.Context) error {
	g, err := h.loadGame(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toJSON(g))
}

// apiJoin: POST /api/v1/games/{id}/join -> 200 {"token","seat"}; 409 when
// both seats are taken.
func (h *handler) apiJoin(c echo.Context) error {
	g, err := h.loadGame(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	token, seat, err := h.join(c.Request().Context(), g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"token": token, "seat": seat.String()})
}

// errNotJSON answers a request body that is not JSON.
var errNotJSON = &userError{http.StatusUnsupportedMediaType, "err_not_json"}

// bindJSON decodes a JSON request body into v: 415 for a body of another
// media type, 400 for malformed JSON. An empty body leaves v as it is.
func bindJSON(c echo.Context, v any) error {
	r := c.Request()
	if r.ContentLength == 0 {
		return nil
	}
	media, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if err != nil || media != echo.MIMEApplicationJSON {
		return errNotJSON
	}
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		return errBadRequest
	}
	return nil
}

// bearer loads the game of :id and the seat of the request's bearer token:
// 401 without a token, 403 for a token that holds no seat.
func (h *handler) bearer(c echo.Context) (*models.Game, engine.Side, error) {
	g, err := h.loadGame(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, engine.Nobody, err
	}
	scheme, token, _ := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
	if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="oware"`)
		return nil, engine.Nobody, &userError{http.StatusUnauthorized, "err_no_seat"}
	}
	seat := seatOf(g, strings.TrimSpace(token))
	if seat == engine.Nobody {
		return nil, seat, errNoSeat
	}
	return g, seat, nil
}

// apiMove: POST /api/v1/games/{id}/moves {"pit":"C"} with the bearer token.
func (h *handler) apiMove(c echo.Context) error {
	g, seat, err := h.bearer(c)
	if err != nil {
		return err
	}
	var req struct {
		Pit string `json:"pit"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := h.playMove(c.Request().Context(), g, seat, req.Pit); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toJSON(g))
}

// apiResign: POST /api/v1/games/{id}/resign with the bearer token.
func (h *handler) apiResign(c echo.Context) error {
	g, seat, err := h.bearer(c)
	if err != nil {
		return err
	}
	if err := h.resign(c.Request().Context(), g, seat); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toJSON(g))
}
