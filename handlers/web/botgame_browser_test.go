//go:build browser

package web_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserChallengeBot (issue 35): a person challenges a bot from the
// bot's profile (no clock), the bot's bridge (`oware-engine bot`, its
// engine `oware-engine uci --level 1` at 20 ms a move) accepts, and the
// person clicks a legal pit at each of their turns until the game ends;
// the page then shows why it ended and the replay link.
func TestBrowserChallengeBot(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 120*time.Second)
	_, token := s.BotAccount("aalina")
	bin := filepath.Join(t.TempDir(), "oware-engine")
	if out, err := exec.Command("go", "build", "-o", bin, "oware/cmd/oware-engine").CombinedOutput(); err != nil {
		t.Fatalf("build oware-engine: %v\n%s", err, out)
	}
	var log bytes.Buffer
	bridge := exec.Command(bin, "bot", "--url", s.Srv.URL, "--token", token, "--engine", bin+" uci --level 1",
		"--movetime", "20", "--games", "1", "--from", "people")
	bridge.Stderr = &log
	if err := bridge.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bridge.Process.Kill(); bridge.Wait() })

	me := b.NewTab()
	b.Do(me, "register", chromedp.Navigate(s.Srv.URL+"/en/register"),
		chromedp.SendKeys(chromedp.ID("username"), "ama"),
		chromedp.SendKeys(chromedp.ID("password"), handlerstest.TestPassword),
		chromedp.Click(chromedp.CSS(`.account-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`.top .me`)))
	b.Do(me, "challenge the bot from its profile", chromedp.Navigate(s.Srv.URL+"/en/players/aalina"),
		chromedp.Click(chromedp.CSS(`details.challenge-player summary`)),
		chromedp.SetValue(chromedp.ID("pc-seat"), "south"),
		chromedp.Click(chromedp.ID("clock-none")),
		chromedp.Click(chromedp.CSS(`details.challenge-player button[type=submit]`)))
	// The bridge accepts within its event stream's poll; the waiting page
	// takes the challenger to the game.
	onBoard := `location.pathname.includes('/games/') && document.querySelector('#game .board') !== null`
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if ok, err := chromedp.Run(me, chromedp.Evaluate[bool](onBoard)); err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			html, _ := chromedp.Run(me, chromedp.OuterHTML(chromedp.CSS("main")))
			t.Fatalf("never on the game's board; bridge:\n%s\n%s", log.String(), html)
		}
	}
	start, moves := time.Now(), 0
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		over, _ := chromedp.Run(me, chromedp.Evaluate[bool](`document.querySelector('#turn .why') !== null`))
		if over {
			break
		}
		// A legal pit of ours is an enabled pit button (none on the bot's turn).
		clicked, _ := chromedp.Run(me, chromedp.Evaluate[bool](
			`(function(){var b=document.querySelector('#game button[name="pit"]:not([disabled])');if(!b)return false;b.click();return true})()`))
		if clicked {
			moves++
			time.Sleep(150 * time.Millisecond) // the answer replaces the board
		}
		if time.Now().After(deadline) {
			html, _ := chromedp.Run(me, chromedp.OuterHTML(chromedp.CSS("main")))
			t.Fatalf("the game did not end after %d moves of ours; bridge:\n%s\n%s", moves, log.String(), html)
		}
	}
	b.Do(me, "the result and the replay", chromedp.WaitVisible(chromedp.CSS(`#turn .why`)),
		chromedp.WaitVisible(chromedp.CSS(`main a[href*="/replay"]`)))
	t.Logf("the game ended after %d moves of ours in %s", moves, time.Since(start).Round(time.Millisecond))
}
