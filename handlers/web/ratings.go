package web

import (
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

// leaderboardSize is how many players a leaderboard lists.
const leaderboardSize = 100

// leaderboard is /{lang}/players?rating=CATEGORY: the best players of a
// rating category (Abapa real time by default).
func (h *Site) leaderboard(c echo.Context) error {
	cat := c.QueryParam("rating")
	if _, _, ok := game.SplitCategory(cat); !ok {
		cat = "abapa-realtime"
	}
	board := h.Accounts.Leaderboard
	bots := c.QueryParam("bots") == "1" // the bots' pool (issue 35)
	if bots {
		board = h.Accounts.BotLeaderboard
	}
	rows, err := board(c.Request().Context(), cat, game.LeaderGames, game.LeaderDays*24*time.Hour, leaderboardSize)
	if err != nil {
		return err
	}
	v := views.LeaderboardView{Category: cat, Categories: game.Categories(), MinGames: game.LeaderGames, Days: game.LeaderDays, Bots: bots}
	for i, r := range rows {
		v.Rows = append(v.Rows, views.LeaderRow{Rank: i + 1, Name: r.Username, Bot: r.Bot, Rating: game.RatingText(r.Rating), Games: r.Games})
	}
	p := h.Page(c, "title_leaderboard", route.PlayersPattern)
	p.Description = p.L.T("rat_description")
	return core.Render(c, http.StatusOK, views.LeaderboardPage(p, v))
}

// chartGames is how many games a rating chart shows at most.
const chartGames = 200

// ratingPanels returns the ratings of account id with their histories.
func (h *Site) ratingPanels(c echo.Context, id uint) ([]views.RatingPanel, error) {
	ctx := c.Request().Context()
	rs, err := h.Games.RatingsOf(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []views.RatingPanel
	for _, r := range rs {
		rules, speed, ok := game.SplitCategory(r.Category)
		if !ok {
			continue
		}
		hist, err := h.Accounts.RatingHistory(ctx, id, r.Category, chartGames)
		if err != nil {
			return nil, err
		}
		p := views.RatingPanel{Category: r.Category, Rules: rules, Speed: speed, Rating: game.RatingText(r), Games: r.Games,
			Points: []views.RatingPoint{{Rating: 1500}}}
		if len(hist) >= chartGames { // the start is out of the chart
			p.Points = nil
		} else if len(hist) > 0 {
			p.Points[0].Date = hist[0].CreatedAt.Format("2006-01-02")
		}
		for _, ch := range hist {
			p.Points = append(p.Points, views.RatingPoint{Date: ch.CreatedAt.Format("2006-01-02"), Rating: int(ch.Rating + 0.5)})
		}
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b views.RatingPanel) int { return b.Games - a.Games })
	return out, nil
}

// soundForm keeps a player's choice of a sound at the opponent's moves
// (form field sound, "on" or "off").
func (h *Site) soundForm(c echo.Context) error {
	v := h.Visit(c)
	if h.User(c) == nil {
		return core.Redirect(c, route.Login(v.Lang))
	}
	if err := h.Accounts.SetMoveSound(c.Request().Context(), h.User(c).ID, c.FormValue("sound") == "on"); err != nil {
		return err
	}
	return core.Redirect(c, route.Account(v.Lang))
}
