package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/engine"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// historyPage is how many games a player's page lists.
const historyPage = 20

// maxHistoryPage bounds the page number of a player's history (a larger
// one would overflow the offset).
const maxHistoryPage = 1 << 20

// playerPage lists a player's finished games with totals, filters and
// pagination.
func (h *Site) playerPage(c echo.Context) error {
	ctx := c.Request().Context()
	u, err := h.Accounts.ByName(ctx, c.Param("name"))
	if errors.Is(err, accounts.ErrNotFound) {
		return core.ErrNotFound
	}
	if err != nil {
		return err
	}
	f := accounts.HistoryFilter{Rules: c.QueryParam("rules"), Result: c.QueryParam("result"), Limit: historyPage}
	if _, err := engine.RulesByName(f.Rules); err != nil {
		f.Rules = ""
	}
	if !slices.Contains([]string{"won", "lost", "drawn"}, f.Result) {
		f.Result = ""
	}
	pg, _ := strconv.Atoi(c.QueryParam("page"))
	pg = min(max(pg, 1), maxHistoryPage) // past the end: "no games match"
	f.Offset = (pg - 1) * historyPage
	games, total, err := h.Accounts.History(ctx, u.ID, f)
	if err != nil {
		return err
	}
	totals, err := h.Accounts.Totals(ctx, u.ID)
	if err != nil {
		return err
	}
	lang := core.LangOf(c)
	v := views.PlayerView{Name: u.Username, Rules: f.Rules, Result: f.Result,
		RuleSets: engine.RuleSets(), Total: int(total)}
	if u.Bot {
		v.Bot = h.botInfo(c, u)
	}
	for _, t := range totals {
		v.Totals = append(v.Totals, views.TotalsRow{Rules: t.Rules, Won: t.Won, Lost: t.Lost, Drawn: t.Drawn})
		if !slices.Contains(v.RuleSets, t.Rules) {
			v.RuleSets = append(v.RuleSets, t.Rules)
		}
	}
	for _, g := range games {
		v.Games = append(v.Games, views.HistoryRow{ID: g.ID, Date: g.Ended.Format("2006-01-02"), Rules: g.Rules,
			Reason: views.ReasonKey(g.Reason), Moves: g.Moves, Side: g.Side, Outcome: g.Outcome,
			Computer: g.Computer, Opponent: g.Opponent, OpponentDeleted: g.OpponentDeleted, OpponentBot: g.OpponentBot})
	}
	if len(games) > 0 {
		v.From, v.To = f.Offset+1, f.Offset+len(games)
	}
	link := func(n int) string {
		q := url.Values{}
		if f.Rules != "" {
			q.Set("rules", f.Rules)
		}
		if f.Result != "" {
			q.Set("result", f.Result)
		}
		if n > 1 {
			q.Set("page", strconv.Itoa(n))
		}
		if len(q) == 0 {
			return views.PlayerURL(lang, u.Username)
		}
		return views.PlayerURL(lang, u.Username) + "?" + q.Encode()
	}
	if pg > 1 {
		v.Prev = link(pg - 1)
	}
	if int64(f.Offset+len(games)) < total {
		v.Next = link(pg + 1)
	}
	if me := h.User(c); me != nil && me.ID == u.ID {
		if v.Open, err = h.openGames(c, u); err != nil {
			return err
		}
		if v.Lobby, err = h.challengesForMe(c); err != nil {
			return err
		}
	}
	if v.Follow, err = h.followView(c, u); err != nil {
		return err
	}
	if playing, err := h.playerGames(c, u.ID, u.Username); err != nil {
		return err
	} else if len(playing.Games) > 0 {
		v.Playing = &playing
	}
	if v.Ratings, err = h.ratingPanels(c, u.ID); err != nil {
		return err
	}
	if v.Podiums, err = h.podiums(c.Request().Context(), core.LangOf(c), u.ID); err != nil {
		return err
	}
	if v.Lessons, err = h.lessonsDone(c.Request().Context(), core.LangOf(c), u.ID); err != nil {
		return err
	}
	p := h.Page(c, "title_player", route.Fill(route.PlayerPattern, u.Username))
	p.Title = p.L.T("title_player", "Name", u.Username)
	return core.Render(c, http.StatusOK, views.PlayerPage(p, v))
}
