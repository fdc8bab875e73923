package tournament

import (
	"context"
	"strings"
	"time"

	"oware/game"
	"oware/models"
)

// View is a tournament as its pages and the API show it: counted again
// from the stored pairings and games at every read.
type View struct {
	T *models.Tournament
	// Players are the players in the order they joined, with their names
	// and ratings.
	Players []models.TournamentPlayer
	// Games are the pairings in the order they were made; Pairings the
	// same as the pure code reads them (same index).
	Games    []models.TournamentGame
	Pairings []Pairing
	// Standings are ranked (scoring.go).
	Standings []Standing
	byID      map[uint]int // Players' index by account
}

// View reads tournament t's players and games and counts its standings.
func (s *Service) View(ctx context.Context, t *models.Tournament) (*View, error) {
	players, err := s.db.TournamentPlayers(ctx, t.ID, Category(t))
	if err != nil {
		return nil, err
	}
	games, err := s.db.TournamentGames(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	return newView(t, players, games, s.games.Now()), nil
}

// ViewOf returns the view of tournament id (Find, then View): ErrNotFound
// for none.
func (s *Service) ViewOf(ctx context.Context, id string) (*View, error) {
	t, err := s.Find(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.View(ctx, t)
}

// Podium is a place among the first three of a finished tournament.
type Podium struct {
	T    *models.Tournament
	Rank int
}

// MaxPodiums is how many finished tournaments of a player Podiums looks
// at (the latest).
const MaxPodiums = 20

// Podiums returns the places among the first three (with a game played)
// of account userID in the latest MaxPodiums finished tournaments they
// played, the latest first.
func (s *Service) Podiums(ctx context.Context, userID uint) ([]Podium, error) {
	ts, err := s.db.TournamentsOf(ctx, userID, "finished", MaxPodiums)
	if err != nil {
		return nil, err
	}
	var out []Podium
	for i := range ts {
		v, err := s.View(ctx, &ts[i])
		if err != nil {
			return nil, err
		}
		if st := v.Standing(userID); st != nil && st.Rank <= 3 && st.Games > 0 {
			out = append(out, Podium{T: &ts[i], Rank: st.Rank})
		}
	}
	return out, nil
}

// Category is the rating category of t's games.
func Category(t *models.Tournament) string { return t.Rules + "-realtime" }

// newView counts the view of t at now.
func newView(t *models.Tournament, players []models.TournamentPlayer, games []models.TournamentGame, now time.Time) *View {
	v := &View{T: t, Players: players, Games: games, byID: map[uint]int{}}
	ids := make([]uint, len(players))
	for i, p := range players {
		ids[i], v.byID[p.UserID] = p.UserID, i
	}
	v.Pairings = make([]Pairing, len(games))
	for i, g := range games {
		v.Pairings[i] = pairingOf(g, now)
	}
	if t.Kind == "swiss" {
		v.Standings = SwissStandings(swissOrder(players), append(lateByes(players), v.Pairings...))
	} else {
		v.Standings = ArenaStandings(arenaOrder(players), v.Pairings)
	}
	return v
}

// lateByes returns the half-point byes of the Swiss players who joined
// late: one for each round paired before they joined (JoinedRound).
func lateByes(players []models.TournamentPlayer) []Pairing {
	var out []Pairing
	for _, p := range players {
		for r := 1; r <= p.JoinedRound; r++ {
			out = append(out, Pairing{Round: r, South: p.UserID, Outcome: HalfBye})
		}
	}
	return out
}

// arenaOrder returns the players' accounts in the order their ties are
// broken last: by rating, the higher first.
func arenaOrder(players []models.TournamentPlayer) []uint { return swissOrder(players) }

// pairingOf reads a stored pairing at now.
func pairingOf(g models.TournamentGame, now time.Time) Pairing {
	p := Pairing{Round: g.Round, South: g.SouthID, Seq: g.ID, Ended: g.CreatedAt}
	if g.NorthID != nil {
		p.North = *g.NorthID
	}
	if g.Game.GameUpdated != nil {
		p.Ended = *g.Game.GameUpdated
	}
	switch {
	case g.GameID == nil:
		p.Outcome = Bye
	case g.Game.Status == "" && now.Sub(g.CreatedAt) > orphanAfter:
		p.Outcome = Void
	case g.Game.Status != "over":
		p.Outcome = Running
	case g.Game.Plies < 2:
		p.Outcome, p.Forfeit = Unplayed, forfeiter(g.Game, p.South, p.North)
	case g.Game.Reason == "aborted":
		result, _, _ := strings.Cut(g.Game.AbortedEnd, " ") // as it ended before it was aborted
		p.Outcome = resultOf(result)
	default:
		p.Outcome = resultOf(g.Game.Result)
	}
	return p
}

// resultOf returns the outcome of a game whose result is result ("south",
// "north", "draw"; anything else: Void).
func resultOf(result string) Outcome {
	switch result {
	case "south":
		return SouthWins
	case "north":
		return NorthWins
	case "draw":
		return Draw
	}
	return Void
}

// forfeiter returns who is charged with game st between south and north,
// over before both had moved: who resigned, left or lost on time (the
// loser, read from the end an aborted game would have had), else (a draw
// agreed, an abort without an end) the player to move, who had not moved.
func forfeiter(st models.TournamentGameState, south, north uint) uint {
	result := st.Result
	if st.Reason == string(game.ReasonAborted) {
		result, _, _ = strings.Cut(st.AbortedEnd, " ")
	}
	switch {
	case result == "south":
		return north
	case result == "north":
		return south
	case st.Plies == 0:
		return south
	}
	return north
}

// Player returns the player userID, nil for none.
func (v *View) Player(userID uint) *models.TournamentPlayer {
	if i, ok := v.byID[userID]; ok {
		return &v.Players[i]
	}
	return nil
}

// Standing returns the line of userID, nil for none.
func (v *View) Standing(userID uint) *Standing {
	for i := range v.Standings {
		if v.Standings[i].Player == userID {
			return &v.Standings[i]
		}
	}
	return nil
}

// Name returns the username of player id ("" for none).
func (v *View) Name(id uint) string {
	if p := v.Player(id); p != nil {
		return p.Name
	}
	return ""
}

// Bot reports whether player id is a bot (issue 35: the BOT mark).
func (v *View) Bot(id uint) bool {
	p := v.Player(id)
	return p != nil && p.Bot
}

// Current returns the index in Games of userID's game in progress, -1 for
// none.
func (v *View) Current(userID uint) int {
	for i := len(v.Pairings) - 1; i >= 0; i-- {
		p := v.Pairings[i]
		if !p.Over() && (p.South == userID || p.North == userID) {
			return i
		}
	}
	return -1
}
