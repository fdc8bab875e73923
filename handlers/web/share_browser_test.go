//go:build browser

package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"oware/handlers/handlerstest"
)

// TestBrowserEmbedInIframe: a page of another origin (another server on
// another port; one site, so that its frames stay in the page's process
// and its frame tree) frames a game's embed and its
// replay page: the embed loads in its frame, the replay page is refused
// (Chromium's error page in its frame).
func TestBrowserEmbedInIframe(t *testing.T) {
	s, b := handlerstest.NewBrowserSite(t, 60*time.Second)
	id := finishedGame(t, s)
	embed, replay := s.Srv.URL+"/embed/games/"+id+"?lang=en", s.Srv.URL+"/en/games/"+id+"/replay"
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><title>A club</title><iframe name="embed" src="%s"></iframe><iframe name="replay" src="%s"></iframe>`, embed, replay)
	}))
	t.Cleanup(other.Close)
	tab := b.NewTab()
	b.Do(tab, "the club's page", chromedp.Navigate(other.URL))
	var frames map[string]string
	deadline := time.Now().Add(15 * time.Second)
	for {
		var err error
		frames, err = chromedp.Run(tab, childFrames)
		if err != nil {
			t.Fatal(err)
		}
		if settled(frames["embed"]) && settled(frames["replay"]) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if frames["embed"] != embed {
		t.Errorf("the embed's frame shows %q, want %q", frames["embed"], embed)
	}
	if !strings.HasPrefix(frames["replay"], "chrome-error:") {
		t.Errorf("the replay page's frame shows %q, want Chromium's error page (framing refused)", frames["replay"])
	}
}

// settled reports whether a frame's URL is its final one: a page of the
// site or Chromium's error page.
func settled(u string) bool {
	return strings.HasPrefix(u, "http") || strings.HasPrefix(u, "chrome-error:")
}

// childFrames returns the URL of each child frame of the tab's page, by
// frame name.
var childFrames chromedp.Action[map[string]string] = func(ctx context.Context, t *chromedp.Target) (map[string]string, error) {
	res, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, c := range res.FrameTree.ChildFrames {
		out[c.Frame.Name] = c.Frame.URL
	}
	return out, nil
}
