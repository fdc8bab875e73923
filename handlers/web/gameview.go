package web

import (
	"strconv"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// viewer is who a game is shown to.
type viewer struct {
	lang string
	seat engine.Side // engine.Nobody for a spectator
	csrf string      // the token of the viewer's forms
	// live: the view updates a page already shown (htmx, event stream),
	// so the last move's sowing is animated.
	live bool
	// rematchKey is the spectator key of the rematch, for a spectator's
	// link to watch it.
	rematchKey string
}

// gameView builds the view of g for w.
func (h *Site) gameView(g *game.Game, w viewer) views.GameView {
	v := views.GameView{
		ID: g.ID, Rules: g.Rules.Name(), Fours: game.Fours(g.Rules), Status: g.Status,
		Result: g.Result, Reason: g.Reason,
		Position: g.Position, Seat: w.seat, Moves: g.Labels(), LastPit: g.LastPit(),
		EndOffer: g.EndOffer, RematchOffer: g.RematchOffer,
		CSRF: w.csrf, Lang: w.lang, Playable: g.Playable(w.seat),
		EventsURL: route.GameEvents(w.lang, g.ID) + "?v=" + strconv.Itoa(g.Version),
		Clock:     h.clockView(g), Rated: g.Rated, Ratings: g.Ratings, Version: g.Version,
		CasualPair: g.Unrated == game.UnratedPair, PairGames: game.PairGames,
	}
	if g.Status == game.Over {
		v.Analysis = boardPath(w.lang, g.Rules, g.Position)
	}
	if w.seat == engine.Nobody {
		v.EventsURL = route.WatchEvents(w.lang, g.SpectatorKey) + "?v=" + strconv.Itoa(g.Version)
		if w.rematchKey != "" {
			v.RematchURL = route.Watch(w.lang, w.rematchKey)
		}
	} else {
		v.InviteURL = h.Base + route.Join(g.ID)
		v.WatchURL = route.Watch(w.lang, g.SpectatorKey)
		if g.RematchID != "" {
			v.RematchURL = route.GameRematch(w.lang, g.ID)
		}
	}
	if g.NamNam() {
		addMatch(&v, g, w)
	} else if l := g.Last; l != nil && !l.Agreement && w.live && w.seat != engine.Nobody { // a spectator's events carry only the parts that changed
		v.Sown = l.Move.Sown
	}
	if g.Status != game.Waiting && (g.HasAccounts() || g.VsComputer()) {
		l := h.Localizers[w.lang]
		v.SouthName, v.NorthName = core.PlayerName(l, g.Seats[engine.South]), core.PlayerName(l, g.Seats[engine.North])
		v.Bots = [2]bool{g.Seats[engine.South].Bot, g.Seats[engine.North].Bot}
	}
	h.addAids(&v, g, w)
	return v
}

// sideName returns "south" or "north", or "" for engine.Nobody.
func sideName(s engine.Side) string {
	if s == engine.Nobody {
		return ""
	}
	return s.String()
}

// addMatch fills the Nam-nam part of v: the round, the totals, the
// summary of every round played and, until a seated viewer starts the next
// round, the summary of the last one (their board is not playable
// meanwhile; spectators see it between rounds). The last move's sowing is
// animated on live updates, unless it ended a round (the board then shows
// the start of the next round).
func addMatch(v *views.GameView, g *game.Game, w viewer) {
	eg := g.Engine
	m := &views.MatchView{
		Fours: v.Fours, Round: eg.Round, Starter: eg.Starter, RoundMoves: eg.RoundMoves,
		Totals: eg.Rules.(engine.Rounds).Totals(eg.Position), BetweenRounds: eg.BetweenRounds(),
		NextURL: route.GameNextRound(w.lang, g.ID),
	}
	from := 0
	for i, end := range g.Rounds {
		m.Rounds = append(m.Rounds, roundSummary(i+1, end))
		if end.Next != nil {
			m.Moves, from = append(m.Moves, v.Moves[from:end.Moves]), end.Moves
		}
	}
	m.Moves = append(m.Moves, v.Moves[from:])
	if !eg.Over && len(m.Rounds) > 0 {
		last := m.Rounds[len(m.Rounds)-1]
		switch {
		case w.seat == engine.Nobody:
			if eg.BetweenRounds() {
				m.Summary = &last
			}
		case g.RoundSeen[w.seat] < eg.Round:
			m.Summary, m.CanStart = &last, true
			v.Playable = 0
		}
	}
	if l := g.Last; l != nil && !l.Agreement && !l.Move.RoundOver {
		if w.live {
			m.Sown = l.Move.Sown
		}
	} else {
		v.LastPit = -1 // the board shows the start of a round
	}
	v.Match = m
}

// roundSummary tells how round n ended and how the next one starts.
func roundSummary(n int, end game.RoundEnd) views.RoundSummary {
	s := views.RoundSummary{Round: n, Reason: string(end.Reason), Totals: end.Totals, Starter: engine.Nobody}
	if next := end.Next; next != nil {
		s.Next = true
		s.Starter = next.ToMove
		s.Stores = [2]int{int(next.Store[engine.South]), int(next.Store[engine.North])}
		for _, o := range next.Owner {
			if o == engine.Nobody {
				s.Unowned++
			} else {
				s.Pits[o]++
			}
		}
	}
	return s
}

// titleKey returns the message id of a game page's title: the Nam-nam one
// ("nn_title_game") for a Nam-nam match, else key.
func titleKey(g *game.Game, key string) string {
	if g.NamNam() {
		return "nn_" + key
	}
	return key
}
