package tournament

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"oware/game"
	"oware/models"
)

// A pass does what is due in a tournament: start it at its time, pair
// the players waiting (an arena) or the next round once the last one is
// over (a Swiss event), finish it. Passes run after every tournament
// game's end (Kick) and every tick of Run; the pairing itself holds the
// tournament's row lock (models.DB.PairTournament), so passes of several
// instances at once pair nobody twice.

// quietLook is how far ahead a tick looks for a tournament to start:
// when none runs or starts that soon, Run skips the ticks until then (an
// idle site's second sends no statement for the tournaments), so a
// tournament made by another instance less than quietLook before its
// start starts up to quietLook late.
const quietLook = 10 * time.Second

// Run runs Tick every interval until ctx is done, but none for quietLook
// after a tick found no tournament running or starting within quietLook.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	var quiet time.Time // no tick before then
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := s.games.Now()
		if now.Before(quiet) {
			continue
		}
		busy, err := s.tick(ctx, now)
		if err != nil && ctx.Err() == nil && !models.Unavailable(err) {
			s.log.Error("tournaments", "err", err)
		}
		if err == nil && !busy {
			quiet = now.Add(quietLook)
		}
	}
}

// Tick makes the hourly arenas when asked (Hourly) and kicks a pass of
// every tournament due (started and not finished).
func (s *Service) Tick(ctx context.Context) error {
	_, err := s.tick(ctx, s.games.Now())
	return err
}

// tick is Tick at now; it reports whether a tournament not finished
// starts within quietLook or has started (busy).
func (s *Service) tick(ctx context.Context, now time.Time) (busy bool, err error) {
	if s.Hourly && now.Sub(s.lastSchedule) >= time.Minute {
		s.lastSchedule = now
		if err := s.schedule(ctx, now); err != nil {
			s.log.Error("hourly arenas", "err", err)
		}
	}
	ts, err := s.db.DueTournaments(ctx, now.Add(quietLook), 200)
	if err != nil {
		return true, err
	}
	for _, t := range ts {
		if !t.StartsAt.After(now) {
			s.Kick(t.ID)
		}
	}
	return len(ts) > 0, nil
}

// Pass does what is due in tournament id now.
func (s *Service) Pass(ctx context.Context, id string) error {
	t, err := s.Find(ctx, id)
	if err != nil {
		return err
	}
	now := s.games.Now()
	if t.Status == "created" {
		if now.Before(t.StartsAt) {
			return nil
		}
		if _, err := s.db.SetTournamentStatus(ctx, id, "created", "running"); err != nil {
			return err
		}
		t.Status = "running"
		s.changed(id)
	}
	if t.Status != "running" {
		return nil
	}
	if t.Kind == "arena" {
		return s.arenaPass(ctx, t, now)
	}
	return s.swissPass(ctx, t, now)
}

// finish marks t finished.
func (s *Service) finish(ctx context.Context, t *models.Tournament) error {
	ok, err := s.db.SetTournamentStatus(ctx, t.ID, "running", "finished")
	if ok {
		s.changed(t.ID)
	}
	return err
}

// arenaPass finishes an arena whose time is up, else pairs its waiting
// players.
func (s *Service) arenaPass(ctx context.Context, t *models.Tournament, now time.Time) error {
	if !now.Before(t.EndsAt) {
		return s.finish(ctx, t)
	}
	known, err := s.field(ctx, t)
	if err != nil {
		return err
	}
	elsewhere, err := s.inGames(ctx, known)
	if err != nil {
		return err
	}
	made, err := s.db.PairTournament(ctx, t.ID, 0, s.games.Now, func(t *models.Tournament, players []models.TournamentPlayer, games []models.TournamentGame) ([]models.TournamentGame, error) {
		return arenaPairs(t, fill(players, known), games, elsewhere, now), nil
	})
	if err != nil {
		return err
	}
	return s.start(ctx, t, made)
}

// field returns t's players with their ratings in its category and
// whether each is a bot, by account.
func (s *Service) field(ctx context.Context, t *models.Tournament) (map[uint]models.TournamentPlayer, error) {
	players, err := s.db.TournamentPlayers(ctx, t.ID, Category(t))
	if err != nil {
		return nil, err
	}
	out := make(map[uint]models.TournamentPlayer, len(players))
	for _, p := range players {
		out[p.UserID] = p
	}
	return out, nil
}

// fill sets the rating and the bot mark of each of players from known
// (field), and returns players.
func fill(players []models.TournamentPlayer, known map[uint]models.TournamentPlayer) []models.TournamentPlayer {
	for i := range players {
		k := known[players[i].UserID]
		players[i].Rating, players[i].Bot = k.Rating, k.Bot
	}
	return players
}

// inGames returns which of the players (the keys of players) are in a
// real-time game in play, of the tournament or not.
func (s *Service) inGames(ctx context.Context, players map[uint]models.TournamentPlayer) (map[uint]bool, error) {
	ids := make([]uint, 0, len(players))
	for id := range players {
		ids = append(ids, id)
	}
	return s.db.InRealTimeGames(ctx, ids)
}

// arenaPairs returns the new pairings of an arena (PairArena) whose
// players (with their ratings and bot marks) and games are as given: the
// players neither withdrawn nor forfeited twice, admitted by the arena
// (Admits: an account that became a bot after it joined a people's arena
// is paired no more), who are not in a game (of the arena, or elsewhere:
// busy).
func arenaPairs(t *models.Tournament, players []models.TournamentPlayer, games []models.TournamentGame,
	elsewhere map[uint]bool, now time.Time) []models.TournamentGame {
	v := newView(t, players, games, now)
	busy := maps.Clone(elsewhere)
	if busy == nil {
		busy = map[uint]bool{}
	}
	last := map[uint]uint{}
	balance := map[uint]int{}
	for _, p := range v.Pairings {
		if !p.Over() {
			busy[p.South], busy[p.North] = true, true
		}
		if p.Outcome != Void {
			last[p.South], last[p.North] = p.North, p.South
			balance[p.South]++
			balance[p.North]--
		}
	}
	var waiting []ArenaPlayer
	active := 0
	for _, st := range v.Standings {
		p := v.Player(st.Player)
		if p.Withdrawn || st.Forfeits >= MaxForfeits || !Admits(t, p.Bot) {
			continue
		}
		active++
		if !busy[st.Player] {
			waiting = append(waiting, ArenaPlayer{ID: st.Player, Points: st.Points, Rating: p.Rating,
				Last: last[st.Player], Balance: balance[st.Player]})
		}
	}
	return gamesOf(0, PairArena(waiting, active == 2))
}

// gamesOf returns the pairings of round for pairs ([South, North]), each
// with a new game id and seat tokens.
func gamesOf(round int, pairs [][2]uint) []models.TournamentGame {
	out := make([]models.TournamentGame, len(pairs))
	for i, p := range pairs {
		id, north := models.NewGameID(), p[1]
		out[i] = models.TournamentGame{Round: round, GameID: &id, SouthID: p[0], NorthID: &north,
			SouthToken: models.NewToken(), NorthToken: models.NewToken()}
	}
	return out
}

// start has package game make the games of the pairings just stored; a
// pairing whose game cannot be made is deleted.
func (s *Service) start(ctx context.Context, t *models.Tournament, made []models.TournamentGame) error {
	var first error
	for _, tg := range made {
		if tg.GameID == nil {
			continue
		}
		_, _, err := s.games.CreatePaired(ctx, game.PairedSettings{ID: *tg.GameID, Rules: t.Rules, Fours: t.Fours,
			Clock: TimeControl(t), Rated: t.Rated, South: tg.SouthID, North: *tg.NorthID,
			Tokens: [2]string{tg.SouthToken, tg.NorthToken}})
		if err != nil {
			s.log.Error("tournament game", "tournament", t.ID, "game", *tg.GameID, "err", err)
			if derr := s.db.DeleteTournamentGame(ctx, tg.ID); derr != nil {
				s.log.Error("tournament game", "tournament", t.ID, "pairing", tg.ID, "err", derr)
			}
			first = cmp.Or(first, err)
		}
	}
	if len(made) > 0 {
		s.changed(t.ID)
	}
	return first
}

// SwissWait is how long a Swiss event that has fewer than two players at
// its start waits for more before it finishes without a game.
const SwissWait = 10 * time.Minute

// swissPass pairs the first round of a Swiss event at its start; the
// next one once every game of the last is over, or at its scheduled time
// (RoundStart); each when at least two players are free; it finishes the
// event once every game of its last round is over, or when it has had
// fewer than two players free SwissWait after its start.
func (s *Service) swissPass(ctx context.Context, t *models.Tournament, now time.Time) error {
	v, err := s.View(ctx, t)
	if err != nil {
		return err
	}
	playing := false
	for _, p := range v.Pairings {
		playing = playing || !p.Over()
	}
	if t.Round >= t.Rounds {
		if playing {
			return nil
		}
		return s.finish(ctx, t)
	}
	if playing && (t.RoundMinutes == 0 || now.Before(RoundStart(t, t.Round+1))) {
		return nil // the round is being played
	}
	known := map[uint]models.TournamentPlayer{}
	for _, p := range v.Players {
		known[p.UserID] = p
	}
	elsewhere, err := s.inGames(ctx, known)
	if err != nil {
		return err
	}
	if len(eligible(v, t.Round+1, elsewhere)) < 2 {
		if t.Round == 0 && now.Sub(t.StartsAt) >= SwissWait {
			return s.finish(ctx, t) // nobody to play with
		}
		return nil // waiting for players, or for games to end
	}
	round := t.Round + 1
	made, err := s.db.PairTournament(ctx, t.ID, round, s.games.Now, func(t *models.Tournament, players []models.TournamentPlayer, games []models.TournamentGame) ([]models.TournamentGame, error) {
		return swissPairs(newView(t, fill(players, known), games, now), round, elsewhere), nil
	})
	if errors.Is(err, models.ErrTournamentChanged) {
		return nil // another instance paired the round
	}
	if err != nil {
		return err
	}
	return s.start(ctx, t, made)
}

// swissOrder returns the players' accounts in the order of their pairing
// numbers: by rating, the higher first, then as they joined.
func swissOrder(players []models.TournamentPlayer) []uint {
	ps := slices.Clone(players)
	slices.SortStableFunc(ps, func(a, b models.TournamentPlayer) int { return cmp.Compare(b.Rating, a.Rating) })
	ids := make([]uint, len(ps))
	for i, p := range ps {
		ids[i] = p.UserID
	}
	return ids
}

// RoundStart returns the scheduled start of round r of the Swiss event
// t: its start plus r - 1 times RoundMinutes (with RoundMinutes 0, every
// round at its start: a round starts as soon as the last is over).
func RoundStart(t *models.Tournament, r int) time.Time {
	return t.StartsAt.Add(time.Duration((r-1)*t.RoundMinutes) * time.Minute)
}

// eligible returns the players of v who are paired in round: not
// withdrawn, not forfeited twice, joined before the round was paired,
// admitted by the event (Admits), not in a game (of a round whose games
// went on past the next round's scheduled start, or elsewhere: busy; such
// a player sits the round out without a point).
func eligible(v *View, round int, elsewhere map[uint]bool) []uint {
	busy := maps.Clone(elsewhere)
	if busy == nil {
		busy = map[uint]bool{}
	}
	for _, p := range v.Pairings {
		if !p.Over() {
			busy[p.South], busy[p.North] = true, true
		}
	}
	var out []uint
	for _, id := range swissOrder(v.Players) {
		p, st := v.Player(id), v.Standing(id)
		if !p.Withdrawn && st.Forfeits < MaxForfeits && p.JoinedRound < round && !busy[id] && Admits(v.T, p.Bot) {
			out = append(out, id)
		}
	}
	return out
}

// swissPairs returns the pairings of round (PairSwiss) of the Swiss event
// v: its games and a bye.
func swissPairs(v *View, round int, elsewhere map[uint]bool) []models.TournamentGame {
	ids := eligible(v, round, elsewhere)
	number := map[uint]int{}
	for i, id := range swissOrder(v.Players) {
		number[id] = i + 1
	}
	players := swissField(ids, number, append(lateByes(v.Players), v.Pairings...))
	r := PairSwiss(players)
	out := gamesOf(round, r.Pairs)
	if r.Bye != 0 {
		out = append(out, models.TournamentGame{Round: round, SouthID: r.Bye})
	}
	return out
}

// swissField returns the Swiss players ids (with their pairing numbers)
// as PairSwiss sees them after the pairings ps: points (1 a win or a bye,
// 1/2 a draw or a late joiner's round), opponents (void games not
// counted), seats of the games played (not forfeited), byes, and the
// floats of each round (C.04.3 A.4: of two players of different points
// who played, the higher gets a downfloat, the other an upfloat; who
// scores without playing, by a bye or a late joiner's half point, a
// downfloat).
func swissField(ids []uint, number map[uint]int, ps []Pairing) []SwissPlayer {
	rounds := 0
	for _, p := range ps {
		rounds = max(rounds, p.Round)
	}
	byRound := make([][]Pairing, rounds+1)
	for _, p := range ps {
		byRound[p.Round] = append(byRound[p.Round], p)
	}
	points := map[uint]float64{}
	before := make([]map[uint]float64, rounds+1) // the points before each round
	for r := 1; r <= rounds; r++ {
		before[r] = maps.Clone(points)
		for _, p := range byRound[r] {
			for _, id := range []uint{p.South, p.North} {
				if win, draw, _ := p.score(id); id != 0 && win {
					points[id]++
				} else if id != 0 && draw {
					points[id] += 0.5
				}
			}
		}
	}
	out := make([]SwissPlayer, len(ids))
	for i, id := range ids {
		sp := SwissPlayer{ID: id, Number: number[id], Points: points[id], Floats: make([]int, rounds)}
		for r := 1; r <= rounds; r++ {
			for _, p := range byRound[r] {
				if p.South != id && p.North != id {
					continue
				}
				o := p.opponent(id)
				switch {
				case p.Outcome == Bye:
					sp.HadBye, sp.Floats[r-1] = true, -1
				case p.Outcome == HalfBye:
					sp.Floats[r-1] = -1
				case p.Outcome == Void:
				case p.Outcome == Unplayed: // a forfeited game: they met (C.1), nobody scored
					sp.Opponents = append(sp.Opponents, o)
				default:
					sp.Opponents = append(sp.Opponents, o)
					seat := 1
					if p.North == id {
						seat = -1
					}
					sp.Seats = append(sp.Seats, seat)
					sp.Floats[r-1] = cmp.Compare(before[r][o], before[r][id])
				}
			}
		}
		out[i] = sp
	}
	return out
}
