package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"oware/game"
	"oware/handlers/core"
	"oware/views"
)

// "Play a bot" on the computer form (issue 35): the bots online (their
// event stream connected, game.BotsOnline) and the challenge of one,
// through the lobby's challenge by name; the bot accepts or declines
// through the Bot API while the person waits in the lobby.

// botsOnline is "Play a bot" with the refusal errKey ("" for none).
func (h *Site) botsOnline(c echo.Context, errKey string) (views.BotsOnlineView, error) {
	v := views.BotsOnlineView{CSRF: core.CsrfToken(c)}
	if errKey != "" {
		v.Error = h.Visit(c).L.T(errKey)
	}
	bots, err := h.Games.BotsOnline(c.Request().Context(), game.Category("abapa", game.TimeControl{Initial: 300, Increment: 3}))
	for _, b := range bots {
		v.Bots = append(v.Bots, views.BotOnlineRow{Name: b.Name, Rating: b.Rating, Engine: b.Engine})
	}
	return v, err
}

// playBotForm: POST /{lang}/computer/bots (bot, rules, clock, seat)
// challenges the bot online named bot: the visitor waits in the lobby.
// An unknown bot, a person's name, a bot gone offline and bad settings
// are answered with the computer form and the reason, nothing sent.
func (h *Site) playBotForm(c echo.Context) error {
	name, err := h.Games.BotOnline(c.Request().Context(), c.FormValue("bot"))
	if err != nil {
		return h.botRefusal(c, err)
	}
	set, err := challengeSettings(c)
	if err != nil {
		return h.botRefusal(c, err)
	}
	set.For, set.Rated = name, false // a bot and a person play casual
	return h.sendChallenge(c, set, h.botRefusal)
}

// botRefusal answers a refused "Play a bot" with the computer form and
// the refusal's status; server faults and limits (429) go on.
func (h *Site) botRefusal(c echo.Context, err error) error {
	var ue *core.UserError
	if !errors.As(core.Refusal(err), &ue) || ue.Status == http.StatusTooManyRequests {
		return err
	}
	return h.renderComputerForm(c, ue.Status, "", 1, ue.Key)
}
