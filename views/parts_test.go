package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"oware/engine"
	"oware/play"
)

// TestPartsCut: a game panel rendered with marks, cut up, is byte for
// byte the panel rendered without them (what a page shows), and Delta
// between two versions holds the changed pit and the status line only; a
// change outside the parts (the game ends: the replay link) takes the
// whole panel.
func TestPartsCut(t *testing.T) {
	render := func(v GameView, marks bool) []byte {
		ctx := context.Background()
		if marks {
			ctx = WithParts(ctx)
		}
		var b bytes.Buffer
		if err := GamePanel(plain{}, v).Render(ctx, &b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	v := gameAt(t, play.Playing, engine.NoResult, "", 0, 0, engine.Nobody)
	v.OOB, v.Moves, v.LastPit = true, []string{"C"}, 2
	v.Position.Pits[2] = 0
	prev := Cut(render(v, true))
	if plainPanel := render(v, false); !bytes.Equal(prev.Full, plainPanel) || bytes.IndexByte(prev.Full, 0) >= 0 {
		t.Fatalf("cut:\n%s\nwithout marks:\n%s", prev.Full, plainPanel)
	}
	next := v
	next.Position.Pits[3] = 9
	delta, ok := Delta(prev, Cut(render(next, true)))
	if !ok {
		t.Fatal("a changed pit takes the whole panel")
	}
	for _, want := range []string{`<div id="turn" hx-swap-oob="innerHTML">`, `<div hx-swap-oob="true" class="pit" id="pit-D">`, "pit_name 9 [Label D]"} {
		if !strings.Contains(string(delta), want) {
			t.Errorf("the delta lacks %q:\n%s", want, delta)
		}
	}
	if n := strings.Count(string(delta), "hx-swap-oob"); n != 2 {
		t.Errorf("the delta has %d swaps, want 2 (the status, pit D):\n%s", n, delta)
	}
	over := v
	over.Status, over.Result, over.Reason = play.Over, engine.SouthWins, "resignation"
	if _, ok := Delta(prev, Cut(render(over, true))); ok {
		t.Error("the game's end (a replay link) went out as parts")
	}
}
