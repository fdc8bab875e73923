package web

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/handlers/core"
	"oware/play"
	"oware/route"
	"oware/tournament"
	"oware/views"
)

// The tournament pages (issue 26; docs/tournaments.md): the list with the
// form of a new tournament, a tournament's page with its join and
// withdraw forms and its standings, live over server-sent events, the
// reminders of the home page and the podiums of a player's page. The JSON
// API is in tournaments_api.go.

// tournamentRow is a tournament as the views list it.
func tournamentRow(t *tournament.Tournament) views.TournamentRow {
	return views.TournamentRow{ID: t.ID, Name: t.Name, Kind: t.Kind, Rules: t.Rules, Status: play.TournamentStatus(t.Status),
		Clock: tournament.TimeControl(t).String(), Rated: t.Rated, Password: t.PasswordHash != "",
		Minutes: t.Minutes, Rounds: t.Rounds, RoundMinutes: t.RoundMinutes, Starts: clockTime(t.StartsAt), Ends: clockTime(t.EndsAt),
		StartsISO: t.StartsAt.UTC().Format(time.RFC3339), Admits: cmp.Or(t.Admits, tournament.AdmitPeople)}
}

// clockTime writes a time as the tournament pages show it.
func clockTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// tournamentsPage: GET /{lang}/tournaments.
func (h *Site) tournamentsPage(c echo.Context) error {
	form := views.TournamentForm{Kind: "arena", Rules: "abapa", Clock: "3+2", StartsIn: 10, Duration: 60, Rounds: 5, Rated: true,
		Admits: tournament.AdmitPeople}
	return h.renderTournaments(c, http.StatusOK, form, "")
}

// renderTournaments renders the tournaments page with the form's values
// and a refusal's message key ("" for none).
func (h *Site) renderTournaments(c echo.Context, status int, form views.TournamentForm, errKey string) error {
	running, upcoming, finished, err := h.Tournaments.List(c.Request().Context(), 30)
	if err != nil {
		return err
	}
	v := views.TournamentsView{CSRF: core.CsrfToken(c), Player: h.User(c) != nil, Form: form}
	for _, l := range []struct {
		from []tournament.Tournament
		to   *[]views.TournamentRow
	}{{running, &v.Running}, {upcoming, &v.Upcoming}, {finished, &v.Finished}} {
		for i := range l.from {
			*l.to = append(*l.to, tournamentRow(&l.from[i]))
		}
	}
	p := h.Page(c, "title_tournaments", route.TournamentsPattern)
	p.Description = p.L.T("trn_description")
	if errKey != "" {
		v.Error = p.L.T(errKey)
	}
	return core.Render(c, status, views.TournamentsPage(p, v))
}

// formInt reads a number field; a missing or bad one is -1 (refused by
// the settings' checks).
func formInt(c echo.Context, name string) int {
	n, err := strconv.Atoi(strings.TrimSpace(c.FormValue(name)))
	if err != nil {
		return -1
	}
	return n
}

// createTournamentForm: POST /{lang}/tournaments -> the new tournament's
// page; a refusal renders the form again with its message.
func (h *Site) createTournamentForm(c echo.Context) error {
	form := views.TournamentForm{Kind: c.FormValue("kind"), Name: c.FormValue("name"), Rules: c.FormValue("rules"),
		Clock: c.FormValue("clock"), StartsIn: formInt(c, "starts_in"), Duration: formInt(c, "duration"),
		Rounds: formInt(c, "rounds"), RoundMinutes: formInt(c, "round_minutes"), Rated: c.FormValue("rated") == "on",
		Admits: c.FormValue("admits")}
	user := h.UserID(c)
	if user == 0 {
		return core.ErrNeedsAccount
	}
	tc, err := game.ParseTimeControl(form.Clock)
	if err != nil {
		err = tournament.ErrBadClock
	}
	if err == nil && (form.StartsIn < 0 || form.StartsIn > int(tournament.MaxStartsIn/time.Minute)) {
		err = tournament.ErrBadStart
	}
	var t *tournament.Tournament
	if err == nil {
		set := tournament.Settings{Kind: form.Kind, Name: form.Name, Rules: form.Rules, Clock: tc,
			Minutes: form.Duration, Rounds: form.Rounds, RoundMinutes: max(form.RoundMinutes, 0), StartsIn: time.Duration(form.StartsIn) * time.Minute,
			Rated: form.Rated, Password: c.FormValue("password"), Admits: form.Admits}
		t, err = h.Tournaments.Create(c.Request().Context(), set, user)
	}
	var ue *core.UserError
	if errors.As(core.Refusal(err), &ue) {
		return h.renderTournaments(c, ue.Status, form, ue.Key)
	}
	if err != nil {
		return err
	}
	return core.Redirect(c, route.Tournament(core.LangOf(c), t.ID))
}

// TournamentView returns the tournament v as the request's visitor sees
// it.
func (h *Site) TournamentView(c echo.Context, v *tournament.View) views.TournamentView {
	t := v.T
	user := h.UserID(c)
	out := views.TournamentView{CSRF: core.CsrfToken(c), T: tournamentRow(t), Round: t.Round, Player: user != 0,
		EventsURL: route.TournamentEvents(core.LangOf(c), t.ID), AllGames: len(v.Games)}
	out.T.Players = len(v.Players)
	if p := v.Player(user); p != nil && user != 0 {
		out.Joined = !p.Withdrawn
	}
	if u := h.User(c); u != nil {
		out.Barred = !tournament.Admits(t, u.Bot)
	}
	if i := v.Current(user); i >= 0 && user != 0 && v.Games[i].GameID != nil {
		out.MyGame = *v.Games[i].GameID
	}
	for _, s := range v.Standings {
		out.Standings = append(out.Standings, views.StandingRow{Rank: s.Rank, Player: v.Name(s.Player), Bot: v.Bot(s.Player),
			Points: points(s.Points), Buchholz: points(s.Buchholz), SonnebornBerger: points(s.SonnebornBerger),
			Games: s.Games, Fire: s.Fire, Me: s.Player == user, Withdrawn: v.Player(s.Player).Withdrawn})
	}
	for i := len(v.Games) - 1; i >= 0 && len(out.Games) < views.MaxGamesShown; i-- {
		g, p := v.Games[i], v.Pairings[i]
		row := views.PairingRow{Round: g.Round, South: v.Name(g.SouthID), SouthBot: v.Bot(g.SouthID), Playing: !p.Over()}
		if g.GameID != nil {
			row.Game = *g.GameID
		}
		if g.NorthID != nil {
			row.North, row.NorthBot = v.Name(*g.NorthID), v.Bot(*g.NorthID)
		}
		if r := core.ResultOf(p.Outcome); r != nil {
			row.Result = *r
		}
		out.Games = append(out.Games, row)
	}
	return out
}

// points writes points as the standings show them: "3", "2.5".
func points(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// tournamentPage: GET /{lang}/tournaments/{id}.
func (h *Site) tournamentPage(c echo.Context) error {
	return h.renderTournament(c, http.StatusOK, "")
}

// renderTournament renders a tournament's page with a refusal's message
// key ("" for none).
func (h *Site) renderTournament(c echo.Context, status int, errKey string) error {
	tv, err := h.Tournaments.ViewOf(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	t, v := tv.T, h.TournamentView(c, tv)
	p := h.Page(c, "title_tournaments", route.Fill(route.TournamentPattern, t.ID))
	p.Title, p.Live, p.NoIndex = t.Name, true, true
	p.Description = p.L.T("trn_description")
	if play.TournamentStatus(t.Status) != play.TournamentFinished {
		p.Refresh = 15 // without JavaScript; with it the standings are live
	}
	if errKey != "" {
		v.Error = p.L.T(errKey)
	}
	return core.Render(c, status, views.TournamentPage(p, v))
}

// tournamentAction returns the handler of a form that joins or withdraws.
func (h *Site) tournamentAction(join bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		user := h.UserID(c)
		if user == 0 {
			return core.ErrNeedsAccount
		}
		ctx, id := c.Request().Context(), c.Param("id")
		var err error
		if join {
			err = h.Guess(c, user, tournament.ErrWrongPassword, func() error {
				return h.Tournaments.Join(ctx, id, user, c.FormValue("password"))
			})
		} else {
			err = h.Tournaments.Withdraw(ctx, id, user)
		}
		var ue *core.UserError
		if errors.As(core.Refusal(err), &ue) && ue.Status != http.StatusNotFound {
			return h.renderTournament(c, ue.Status, ue.Key)
		}
		if err != nil {
			return err
		}
		return core.Redirect(c, route.Tournament(core.LangOf(c), id))
	}
}

// tournamentReminders returns the running and upcoming tournaments the
// home page reminds of (at most 4; none when they cannot be read).
func (h *Site) tournamentReminders(c echo.Context) []views.TournamentReminder {
	running, upcoming, _, err := h.Tournaments.List(c.Request().Context(), 4)
	if err != nil {
		h.Log.WarnContext(c.Request().Context(), "tournament reminders", "err", err)
		return nil
	}
	var out []views.TournamentReminder
	lang := core.LangOf(c)
	for _, list := range [][]tournament.Tournament{running, upcoming} {
		for i := 0; i < len(list) && len(out) < 4; i++ {
			t := &list[i]
			out = append(out, views.TournamentReminder{URL: tournamentRow(t).URL(lang), Name: t.Name,
				Starts: clockTime(t.StartsAt), Running: play.TournamentStatus(t.Status) == play.TournamentRunning})
		}
	}
	return out
}

// podiums returns the places among the first three of account userID in
// the finished tournaments they played (the latest 20 looked at).
func (h *Site) podiums(ctx context.Context, lang string, userID uint) ([]views.Podium, error) {
	ps, err := h.Tournaments.Podiums(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]views.Podium, len(ps))
	for i, p := range ps {
		out[i] = views.Podium{Place: p.Rank, Name: p.T.Name, URL: route.Tournament(lang, p.T.ID),
			Finished: p.T.StartsAt.Format("2006-01-02")}
	}
	return out, nil
}
