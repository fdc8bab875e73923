//go:build browser

package web_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/engine"
	"oware/handlers/handlerstest"
)

// TestBrowserNamNam: two browser contexts play the first moves of a Nam-nam
// match chosen by the engine (each sees the other's move live, the relay
// animated), end the round by agreement with the end-offer buttons, see the
// round summary and start the next round, in which the starter moves.
func TestBrowserNamNam(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 120*time.Second)
	south, north := b.NewTab(), b.NewTab()

	text := func(sel, want string) string {
		return `(document.querySelector('` + sel + `') || {textContent: ''}).textContent.includes('` + want + `')`
	}
	button := func(label string) string {
		return `document.querySelector('button[name="pit"][value="` + label + `"]') !== null`
	}

	// South sets up a Nam-nam table; North takes the seat.
	b.Do(south, "new game", chromedp.Navigate(s.Srv.URL+"/en/games/new"),
		chromedp.Click(chromedp.CSS(`#rules-namnam`)),
		chromedp.Click(chromedp.CSS(`.settings-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("invite-url")), handlerstest.MarkPage)
	invite, err := chromedp.Run(south, chromedp.Value(chromedp.ID("invite-url")))
	if err != nil {
		t.Fatal(err)
	}
	b.Do(north, "join", chromedp.Navigate(invite),
		chromedp.Click(chromedp.CSS(`main form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game .board`)), handlerstest.MarkPage)
	b.WaitFor(south, "South sees the opponent join", button("A")+` && `+text(".match-line", "Round 1"))

	// The first moves, chosen by the engine.
	r, _ := engine.NewRules("namnam", "last")
	eg := engine.NewGame(r, r.Start())
	seat := map[engine.Side]context.Context{engine.South: south, engine.North: north}
	for range 4 {
		mover, watcher := seat[eg.Position.ToMove], seat[eg.Position.ToMove.Opponent()]
		pit := handlerstest.GreedyMove(r, eg.Position)
		mv, err := eg.Play(pit)
		if err != nil || mv.RoundOver {
			t.Fatalf("engine: %v %+v", err, mv)
		}
		label := engine.Label(pit)
		b.Do(mover, "move "+label, chromedp.Click(chromedp.CSS(`button[name="pit"][value="`+label+`"]`)))
		after := text(".last-move", "Last move: "+label) + ` && ` + text(".score", "Match score: South "+itoa(r.(engine.Rounds).Totals(eg.Position)[0])+",")
		b.WaitFor(mover, "the mover's board after "+label, after)
		b.WaitFor(watcher, "the opponent's board after "+label, after)
		// The relay is animated seed by seed: one drop per seed sown.
		n, err := chromedp.Run(watcher, chromedp.Evaluate[int](`document.querySelectorAll('.pit .drop').length`))
		if want := mv.Steps; err != nil || n != want && want <= 96 || n != 0 && want > 96 {
			t.Fatalf("move %s: %d drops, %d seeds sown (%v)", label, n, mv.Steps, err)
		}
	}
	// Every pit names its owner.
	name, err := chromedp.Run(south, chromedp.Text(chromedp.CSS(`.row:last-child .pit .vh`)))
	if err != nil || !strings.HasSuffix(name, "South's") {
		t.Fatalf("accessible name %q: %v", name, err)
	}

	// South proposes to end the round; North accepts: both see the summary.
	b.Do(south, "offer", chromedp.Click(chromedp.CSS(`form[action$="/end/offer"] button`)))
	b.WaitFor(north, "North sees the offer", text("#game", "Your opponent proposes to end the round"))
	b.Do(north, "accept", chromedp.Click(chromedp.CSS(`form[action$="/end/accept"] button`)))
	if _, err := eg.Agree(); err != nil || eg.Round != 2 {
		t.Fatalf("engine: %v, round %d", err, eg.Round)
	}
	starter := map[engine.Side]string{engine.South: "South", engine.North: "North"}[eg.Position.ToMove]
	summary := text(".round-summary", "Round 1 is over") + ` && ` + text(".round-summary", starter+" starts round 2.") +
		` && ` + text(".match-line", "Round 2") + ` && document.querySelector('button[name="pit"]') === null`
	b.WaitFor(south, "South sees the summary", summary)
	b.WaitFor(north, "North sees the summary", summary)

	// Both start round 2; the starter plays the engine's move, the other sees it.
	for _, who := range []context.Context{south, north} {
		b.Do(who, "start round 2", chromedp.Click(chromedp.CSS(`form[action$="/round/next"] button`)))
		b.WaitFor(who, "the summary is gone", `document.querySelector('.round-summary') === null`)
	}
	mover, watcher := seat[eg.Position.ToMove], seat[eg.Position.ToMove.Opponent()]
	pit := handlerstest.GreedyMove(r, eg.Position)
	if _, err := eg.Play(pit); err != nil {
		t.Fatal(err)
	}
	label := engine.Label(pit)
	b.WaitFor(mover, "the starter may move", button(label))
	b.Do(mover, "first move of round 2", chromedp.Click(chromedp.CSS(`button[name="pit"][value="`+label+`"]`)))
	b.WaitFor(watcher, "the other sees the first move of round 2", text(".last-move", "Last move: "+label)+` && `+text(".match-line", "Round 2"))
}

// TestBrowserNamNamFoursSetting: on the new-game form the fours setting is
// disabled while an Oware rule set is chosen and enabled when Nam-nam is
// (app.js; without JavaScript the note says it is ignored); the note
// describes the group and each choice.
func TestBrowserNamNamFoursSetting(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 30*time.Second)
	ctx := b.Ctx
	state := `[document.querySelector('fieldset.fours').disabled, document.querySelector('#fours-owner').checked].join(' ')`
	b.Do(ctx, "new game", chromedp.Navigate(s.Srv.URL+"/en/games/new"), chromedp.WaitVisible(chromedp.ID("fours-note")), handlerstest.MarkPage)
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[document.querySelector('fieldset.fours').getAttribute('aria-describedby'),`+
		` document.querySelector('#fours-owner').getAttribute('aria-describedby')].join(' ')`)); err != nil || got != "fours-note fours-owner-d fours-note" {
		t.Errorf("aria-describedby: %q %v", got, err)
	}
	// Abapa is chosen: the fours setting is disabled, a click does nothing.
	b.WaitFor(ctx, "fours disabled under abapa", `document.querySelector('fieldset.fours').disabled`)
	b.Do(ctx, "click fours under abapa", chromedp.Click(chromedp.CSS(`label[for="fours-owner"]`)))
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](state)); err != nil || got != "true false" {
		t.Errorf("under abapa: %q %v, want disabled and not chosen", got, err)
	}
	b.Do(ctx, "choose namnam", chromedp.Click(chromedp.CSS(`#rules-namnam`)),
		chromedp.Click(chromedp.CSS(`label[for="fours-owner"]`)))
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](state)); err != nil || got != "false true" {
		t.Errorf("under namnam: %q %v, want enabled and chosen", got, err)
	}
	if dir := os.Getenv("OWARE_SCREENSHOTS"); dir != "" {
		for _, r := range []string{"namnam", "wari"} {
			b.Do(ctx, r, chromedp.Click(chromedp.CSS(`#rules-`+r)))
			if png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(`.settings-form`))); err == nil {
				_ = os.WriteFile(dir+"/new-game-"+r+".png", png, 0o644)
			}
		}
	}
}
