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
	case g.Game.Reason == "aborted":
		p.Outcome, p.Forfeit = aborted(g.Game, p.South, p.North)
	case g.Game.Result == "south":
		p.Outcome = SouthWins
	case g.Game.Result == "north":
		p.Outcome = NorthWins
	case g.Game.Result == "draw":
		p.Outcome = Draw
	default:
		p.Outcome = Void
	}
	return p
}

// aborted returns the outcome of an aborted game between south and north
// and the player who forfeited it (0 for none): a tournament game counts
// as it ended before it was aborted (game.Game.AbortedEnd: who resigned,
// ran out of time, left or agreed), and a player whose first move did not
// come in time forfeits it. A game aborted before AbortedEnd was kept is
// charged to the player to move when a first move was missing, else void.
func aborted(st models.TournamentGameState, south, north uint) (Outcome, uint) {
	result, reason, _ := strings.Cut(st.AbortedEnd, " ")
	var out Outcome
	loser := uint(0)
	switch {
	case result == "south":
		out, loser = SouthWins, north
	case result == "north":
		out, loser = NorthWins, south
	case result == "draw":
		return Draw, 0
	case st.AbortedEnd == "" && st.Plies == 0:
		return NorthWins, south
	case st.AbortedEnd == "" && st.Plies == 1:
		return SouthWins, north
	default:
		return Void, 0
	}
	if reason == string(game.ReasonTimeout) && st.Plies < 2 {
		return out, loser // no first move: a forfeit
	}
	return out, 0
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
