package handlers

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"math/big"
	"net/http"

	"oware/engine"
	"oware/models"
)

// userError is a refused request: the HTTP status and the message id that
// explains it. It is never a server fault.
type userError struct {
	status int
	key    string
}

func (e *userError) Error() string { return e.key }

// The refusals that do not come from the engine.
var (
	errNotFound   = &userError{http.StatusNotFound, "err_not_found"}
	errNoSeat     = &userError{http.StatusForbidden, "err_no_seat"}
	errNotStarted = &userError{http.StatusConflict, "err_not_started"}
	errConflict   = &userError{http.StatusConflict, "err_conflict"}
	errSeatsTaken = &userError{http.StatusConflict, "err_seats_taken"}
	errNoOffer    = &userError{http.StatusConflict, "err_no_offer"}
	errNotOver    = &userError{http.StatusConflict, "err_not_over"}
	errGameOver   = &userError{http.StatusConflict, "err_game_over"}
	errNotYours   = &userError{http.StatusConflict, "err_not_your_turn"}
	errBadRequest = &userError{http.StatusBadRequest, "err_bad_request"}
)

// engineErrors map the engine's sentinel errors to refusals: 409 when the
// game state forbids any move, 422 for an illegal move.
var engineErrors = []struct {
	err error
	ue  *userError
}{
	{engine.ErrGameOver, errGameOver},
	{engine.ErrBadLabel, &userError{http.StatusUnprocessableEntity, "err_bad_label"}},
	{engine.ErrBadPit, &userError{http.StatusUnprocessableEntity, "err_bad_pit"}},
	{engine.ErrNotOwnPit, &userError{http.StatusUnprocessableEntity, "err_not_own_pit"}},
	{engine.ErrEmptyPit, &userError{http.StatusUnprocessableEntity, "err_empty_pit"}},
	{engine.ErrMustFeed, &userError{http.StatusUnprocessableEntity, "err_must_feed"}},
	{engine.ErrGrandSlamForbidden, &userError{http.StatusUnprocessableEntity, "err_grand_slam_forbidden"}},
	{engine.ErrEndlessSowing, &userError{http.StatusUnprocessableEntity, "err_endless_sowing"}},
}

// engineError maps an error of the engine's Play to a refusal; other errors
// are returned as they are (server faults).
func engineError(err error) error {
	for _, e := range engineErrors {
		if errors.Is(err, e.err) {
			return e.ue
		}
	}
	return err
}

// loadGame loads a game with its moves; an unknown id is errNotFound.
func (h *handler) loadGame(ctx context.Context, id string) (*models.Game, error) {
	g, err := h.db.LoadGame(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, errNotFound
	}
	return g, err
}

// replay rebuilds the engine's game from the stored moves (and the
// agreements that ended Nam-nam rounds, see replayMatch): the moves are the
// truth, the stored position only a cache.
func replay(g *models.Game) (*engine.Game, error) {
	eg, _, err := replayMatch(g)
	return eg, err
}

// seatOf returns the seat that token holds in g, or engine.Nobody.
func seatOf(g *models.Game, token string) engine.Side {
	if token == "" {
		return engine.Nobody
	}
	h := models.HashToken(token)
	switch {
	case g.SouthToken != "" && subtle.ConstantTimeCompare([]byte(h), []byte(g.SouthToken)) == 1:
		return engine.South
	case g.NorthToken != "" && subtle.ConstantTimeCompare([]byte(h), []byte(g.NorthToken)) == 1:
		return engine.North
	}
	return engine.Nobody
}

// sideByName reads "south" or "north".
func sideByName(s string) (engine.Side, bool) {
	switch s {
	case "south":
		return engine.South, true
	case "north":
		return engine.North, true
	}
	return engine.Nobody, false
}

// save writes g (and mv) with the version check and announces the change.
func (h *handler) save(ctx context.Context, g *models.Game, mv *models.Move) error {
	if err := h.db.UpdateGame(ctx, g, mv); err != nil {
		if errors.Is(err, models.ErrConflict) {
			return errConflict
		}
		return err
	}
	h.publish(ctx, g)
	return nil
}

// publish announces a new version of g to the live views.
func (h *handler) publish(ctx context.Context, g *models.Game) {
	if err := h.events.Publish(ctx, g.ID, g.Version); err != nil {
		h.log.Error("publish", "game", g.ID, "err", err)
	}
}

// createGame sets up a new table under rules (and for "namnam" its fours
// setting, "" for the default) with the creator in seat ("south", "north"
// or "random") and returns it with the creator's token.
func (h *handler) createGame(ctx context.Context, rules, fours, seat string) (*models.Game, string, error) {
	if rules == "" {
		rules = "abapa"
	}
	if seat == "" {
		seat = "south"
	}
	r, err := engine.NewRules(rules, fours)
	if err != nil {
		return nil, "", &userError{http.StatusUnprocessableEntity, "err_bad_request"}
	}
	if seat == "random" {
		n, err := rand.Int(rand.Reader, big.NewInt(2))
		if err != nil {
			return nil, "", err
		}
		seat = [...]string{"south", "north"}[n.Int64()]
	}
	side, ok := sideByName(seat)
	if !ok {
		return nil, "", &userError{http.StatusUnprocessableEntity, "err_bad_request"}
	}
	start := r.FormatPosition(r.Start())
	g := &models.Game{Rules: r.Name(), Fours: foursOf(r), StartPosition: start, Position: start, Status: "waiting"}
	token := models.NewToken()
	if side == engine.South {
		g.SouthToken = models.HashToken(token)
	} else {
		g.NorthToken = models.HashToken(token)
	}
	if err := h.db.CreateGame(ctx, g); err != nil {
		return nil, "", fmt.Errorf("create game: %w", err)
	}
	return g, token, nil
}

// freeSeat returns the seat of g nobody holds yet, or engine.Nobody.
func freeSeat(g *models.Game) engine.Side {
	switch {
	case g.Status != "waiting":
		return engine.Nobody
	case g.SouthToken == "":
		return engine.South
	case g.NorthToken == "":
		return engine.North
	}
	return engine.Nobody
}

// join gives the free seat of g to a new token; the game starts.
func (h *handler) join(ctx context.Context, g *models.Game) (string, engine.Side, error) {
	side := freeSeat(g)
	if side == engine.Nobody {
		return "", side, errSeatsTaken
	}
	token := models.NewToken()
	if side == engine.South {
		g.SouthToken = models.HashToken(token)
	} else {
		g.NorthToken = models.HashToken(token)
	}
	g.Status = "playing"
	if err := h.save(ctx, g, nil); err != nil {
		if errors.Is(err, errConflict) {
			return "", side, errSeatsTaken
		}
		return "", side, err
	}
	return token, side, nil
}

// checkPlaying refuses actions on a game that is waiting or over.
func checkPlaying(g *models.Game) error {
	switch g.Status {
	case "waiting":
		return errNotStarted
	case "over":
		return errGameOver
	}
	return nil
}

// finish copies the end of eg into g.
func finish(g *models.Game, eg *engine.Game) {
	g.Position = eg.Rules.FormatPosition(eg.Position)
	if eg.Over {
		g.Status, g.Result, g.Reason = "over", eg.Result.String(), string(eg.Reason)
		g.EndOffer = ""
	}
}

// playMove plays the pit labelled label for seat: the engine checks it on
// the game rebuilt from the stored moves; the move and the game row are
// stored in one transaction with the version check.
func (h *handler) playMove(ctx context.Context, g *models.Game, seat engine.Side, label string) error {
	if err := checkPlaying(g); err != nil {
		return err
	}
	eg, err := replay(g)
	if err != nil {
		return fmt.Errorf("replay game %s: %w", g.ID, err)
	}
	if eg.Over {
		return errGameOver
	}
	if eg.Position.ToMove != seat {
		return errNotYours
	}
	pit, err := engine.ParseLabel(label)
	if err != nil {
		return engineError(err)
	}
	if _, err := eg.Play(pit); err != nil {
		return engineError(err)
	}
	g.EndOffer = ""
	finish(g, eg)
	mv := &models.Move{Ply: len(g.Moves) + 1, Pit: pit, Label: engine.Label(pit), Position: g.Position}
	if err := h.save(ctx, g, mv); err != nil {
		return err
	}
	g.Moves = append(g.Moves, *mv)
	return nil
}

// resign ends g: seat loses.
func (h *handler) resign(ctx context.Context, g *models.Game, seat engine.Side) error {
	if err := checkPlaying(g); err != nil {
		return err
	}
	eg, err := replay(g)
	if err != nil {
		return fmt.Errorf("replay game %s: %w", g.ID, err)
	}
	if err := eg.Resign(seat); err != nil {
		return engineError(err)
	}
	finish(g, eg)
	return h.save(ctx, g, nil)
}

// offerEnd records that seat proposes to end g by agreement.
func (h *handler) offerEnd(ctx context.Context, g *models.Game, seat engine.Side) error {
	if err := checkPlaying(g); err != nil {
		return err
	}
	if g.EndOffer != "" {
		return nil
	}
	g.EndOffer = seat.String()
	return h.save(ctx, g, nil)
}

// answerEnd accepts or declines the opponent's proposal to end g; on
// acceptance each player captures the seeds on their row.
func (h *handler) answerEnd(ctx context.Context, g *models.Game, seat engine.Side, accept bool) error {
	if err := checkPlaying(g); err != nil {
		return err
	}
	if g.EndOffer != seat.Opponent().String() {
		return errNoOffer
	}
	g.EndOffer = ""
	if accept {
		eg, err := replay(g)
		if err != nil {
			return fmt.Errorf("replay game %s: %w", g.ID, err)
		}
		if _, err := eg.Agree(); err != nil {
			return engineError(err)
		}
		g.Agreements = addAgreement(g.Agreements, len(g.Moves))
		finish(g, eg)
	}
	return h.save(ctx, g, nil)
}

// rematch records seat's wish for a rematch of the finished game g; when
// the opponent asked already, the new game starts with the seats swapped
// (each player keeps their token) and g points to it.
func (h *handler) rematch(ctx context.Context, g *models.Game, seat engine.Side) error {
	if g.Status != "over" {
		return errNotOver
	}
	if g.RematchID != "" || g.RematchOffer == seat.String() {
		return nil
	}
	if g.RematchOffer == "" {
		g.RematchOffer = seat.String()
		return h.save(ctx, g, nil)
	}
	r, err := rulesOf(g)
	if err != nil {
		return err
	}
	start := r.FormatPosition(r.Start())
	ng := &models.Game{ID: models.NewGameID(), Rules: g.Rules, Fours: g.Fours, StartPosition: start, Position: start, Status: "playing",
		SouthToken: g.NorthToken, NorthToken: g.SouthToken, SouthUserID: g.NorthUserID, NorthUserID: g.SouthUserID}
	// The version-checked update decides which of two answers starts the
	// rematch; only the winner creates the game, and the players hear of it
	// once it exists.
	g.RematchID = ng.ID
	if err := h.db.UpdateGame(ctx, g, nil); err != nil {
		if fresh, lerr := h.db.LoadGame(ctx, g.ID); lerr == nil && fresh.RematchID != "" {
			*g = *fresh // a second click: the first one started the rematch
			return nil
		}
		if errors.Is(err, models.ErrConflict) {
			return errConflict
		}
		return err
	}
	if err := h.db.CreateGame(ctx, ng); err != nil {
		return fmt.Errorf("create rematch: %w", err)
	}
	h.publish(ctx, g)
	return nil
}
