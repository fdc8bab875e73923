package live

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/views"
)

// chanBroker is a broker whose events the test sends by hand.
type chanBroker struct {
	ch   chan int
	once sync.Once
}

func (b *chanBroker) Publish(context.Context, string, int) error { return nil }

func (b *chanBroker) Known(string) (int, bool) { return 0, false }

func (b *chanBroker) Note(string, int) {}

func (b *chanBroker) Subscribe(string) (<-chan int, func()) {
	return b.ch, func() { b.once.Do(func() { close(b.ch) }) }
}

// TestLiveHoldsFramesDuringAnAction: a version that reaches the broker
// before the stored hook has marked it as the page's own answer is not sent
// to that page, whichever comes first; a version of someone else's that
// arrives during the action goes out once the action ends.
func TestLiveHoldsFramesDuringAnAction(t *testing.T) {
	b := &chanBroker{ch: make(chan int, 1)}
	load := func(_ context.Context, id string) (*game.Game, error) { return nil, context.Canceled }
	render := func(g *game.Game, kinds []core.PanelKind) (map[core.PanelKind][]byte, error) {
		out := map[core.PanelKind][]byte{}
		for _, k := range kinds {
			out[k] = []byte("panel")
		}
		return out, nil
	}
	l := newHub(b, slog.New(slog.DiscardHandler), load, render)
	w := &watcher{PanelKind: core.PanelKind{Lang: "en", Seat: engine.Nobody}, view: "page"}
	defer l.watch("g", w)()
	l.ready("g", w, engine.Nobody)
	ctx := context.WithValue(context.Background(), core.ViewKey{}, "page")

	held := func(version int) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			l.mu.Lock()
			ok := w.held != nil && w.held.version == version
			l.mu.Unlock()
			if ok {
				return
			}
		}
		t.Fatalf("version %d was not held", version)
	}
	l.Begin("page")
	l.mu.Lock()
	l.games["g"].fresh = &game.Game{Head: game.Head{ID: "g", Version: 3}} // as stored, before the hook runs
	l.mu.Unlock()
	b.ch <- 3
	held(3)
	l.stored(ctx, &game.Game{Head: game.Head{ID: "g", Version: 3}})
	l.End("page")
	select {
	case f := <-w.frames:
		t.Fatalf("the page got its own version %d again", f.version)
	default:
	}

	l.Begin("page")
	l.mu.Lock()
	l.games["g"].fresh = &game.Game{Head: game.Head{ID: "g", Version: 4}} // the opponent's move
	l.mu.Unlock()
	b.ch <- 4
	held(4)
	l.End("page")
	select {
	case f := <-w.frames:
		if f.version != 4 {
			t.Fatalf("got version %d, want 4", f.version)
		}
	default:
		t.Fatal("the opponent's version was not sent after the action")
	}
}

// TestFrameNext: a stream that sent the version before writes what
// changed, one that sent an older version (it missed one) the whole
// panel, one that sent this version nothing; without a delta, the whole
// panel.
func TestFrameNext(t *testing.T) {
	f := frame{version: 7, data: []byte("whole"), delta: []byte("delta")}
	for last, want := range map[int]string{6: "delta", 5: "whole", 0: "whole", 7: "", 8: ""} {
		if got := string(f.next(last)); got != want {
			t.Errorf("after version %d: %q, want %q", last, got, want)
		}
	}
	if got := string((frame{version: 7, data: []byte("whole")}).next(6)); got != "whole" {
		t.Errorf("no delta: %q, want the whole panel", got)
	}
}

// TestLiveWantsOneRender: of the spectators' streams of one kind that
// open on a version live keeps no panel of, the first renders it (to take
// the next version's delta against), the others do not; a player's
// stream never does; a newer version is wanted again.
func TestLiveWantsOneRender(t *testing.T) {
	b := &chanBroker{ch: make(chan int, 1)}
	l := newHub(b, slog.New(slog.DiscardHandler), nil, nil)
	w := &watcher{PanelKind: core.PanelKind{Lang: "en", Seat: engine.Nobody}}
	defer l.watch("g", w)()
	en := core.PanelKind{Lang: "en", Seat: engine.Nobody}
	if !l.wants("g", en, 5) || l.wants("g", en, 5) {
		t.Error("two streams of version 5: want the first to render, not the second")
	}
	if l.wants("g", core.PanelKind{Lang: "en", Seat: engine.South}, 5) {
		t.Error("a player's stream renders for the deltas, which players never get")
	}
	l.keep("g", en, 5, views.Cut([]byte("panel")))
	if l.wants("g", en, 5) || !l.wants("g", en, 6) {
		t.Error("after version 5 was kept: want version 6 only")
	}
}

// TestLiveSharesFramesPerKind: a version goes to the detached streams of
// a game as one frame per kind of watcher: two English spectators are
// handed the same frame (not a copy each), a Czech spectator a frame of
// its own, and the English player a copy of the English player's panel
// with their CSRF token. The streams are busy writing (slow), so each
// keeps the frame handed to it.
func TestLiveSharesFramesPerKind(t *testing.T) {
	b := &chanBroker{ch: make(chan int, 1)}
	render := func(g *game.Game, kinds []core.PanelKind) (map[core.PanelKind][]byte, error) {
		out := map[core.PanelKind][]byte{}
		for _, k := range kinds {
			out[k] = []byte(k.Lang + " " + k.Seat.String() + " " + core.CsrfPlaceholder)
		}
		return out, nil
	}
	l := newHub(b, slog.New(slog.DiscardHandler), nil, render)
	add := func(lang string, seat engine.Side, csrf string) *detached {
		w := &watcher{PanelKind: core.PanelKind{Lang: lang}, csrf: csrf}
		t.Cleanup(l.watch("g", w))
		l.ready("g", w, seat)
		d := &detached{slow: true}
		l.detached(w, d)
		return d
	}
	en1, en2, cs := add("en", engine.Nobody, ""), add("en", engine.Nobody, ""), add("cs", engine.Nobody, "")
	south := add("en", engine.South, "tokenS")
	l.mu.Lock()
	gw := l.games["g"]
	l.mu.Unlock()
	l.send(gw, &game.Game{Head: game.Head{ID: "g", Version: 4}})

	data := func(d *detached) string {
		if d.pending == nil || d.pending.version != 4 {
			t.Fatalf("a stream was handed %+v, want version 4", d.pending)
		}
		return string(d.pending.data)
	}
	if en1.pending != en2.pending {
		t.Error("two English spectators were handed a frame each, not the same one")
	}
	want := map[*detached]string{
		en1:   "id: 4\nevent: game\ndata: en " + engine.Nobody.String() + " " + core.CsrfPlaceholder + "\n\n",
		cs:    "id: 4\nevent: game\ndata: cs " + engine.Nobody.String() + " " + core.CsrfPlaceholder + "\n\n",
		south: "id: 4\nevent: game\ndata: en " + engine.South.String() + " tokenS\n\n",
	}
	for d, w := range want {
		if got := data(d); got != w {
			t.Errorf("handed %q, want %q", got, w)
		}
	}
	if cs.pending == en1.pending || south.pending == en1.pending {
		t.Error("the Czech spectator or the player was handed the English spectators' frame")
	}
}
