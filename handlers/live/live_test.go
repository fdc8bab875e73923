package live

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
)

// fakeEvents is a broker of one process whose events the test sends.
type fakeEvents struct {
	mu   sync.Mutex
	subs map[chan int]bool
}

func (f *fakeEvents) Publish(_ context.Context, _ string, v int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		ch <- v
	}
	return nil
}

func (f *fakeEvents) Known(string) (int, bool) { return 0, false }

func (f *fakeEvents) Note(string, int) {}

func (f *fakeEvents) Subscribe(string) (<-chan int, func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan int, 8)
	f.subs[ch] = true
	return ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.subs[ch] {
			delete(f.subs, ch)
			close(ch)
		}
	}
}

// TestLiveRendersOncePerKind: 5 spectators in two languages and both
// players watch a game; a version stored by this instance and one heard
// from the broker are each rendered once per kind of watcher and loaded
// from the database at most once, every watcher of a kind gets the same
// bytes (a player's with their own CSRF token), and the page whose action
// stored a version does not get it again.
func TestLiveRendersOncePerKind(t *testing.T) {
	events := &fakeEvents{subs: map[chan int]bool{}}
	var loads, renders atomic.Int32
	r, _ := engine.RulesByName("abapa")
	at := func(v int) *game.Game {
		return &game.Game{Head: game.Head{ID: "aaaaaaaaaaaa", Version: v}, Rules: r, Position: r.Start(), Engine: engine.NewGame(r, r.Start())}
	}
	load := func(_ context.Context, id string) (*game.Game, error) {
		loads.Add(1)
		return at(3), nil
	}
	render := func(g *game.Game, kinds []core.PanelKind) (map[core.PanelKind][]byte, error) {
		out := map[core.PanelKind][]byte{}
		for _, k := range kinds {
			renders.Add(1)
			out[k] = fmt.Appendf(nil, "v%d %s %s %s", g.Version, k.Lang, k.Seat, core.CsrfPlaceholder)
		}
		return out, nil
	}
	l := newHub(events, slog.New(slog.NewTextHandler(io.Discard, nil)), load, render)
	var ws []*watcher
	add := func(lang string, seat engine.Side, csrf, view string) *watcher {
		w := &watcher{PanelKind: core.PanelKind{Lang: lang}, csrf: csrf, view: view}
		t.Cleanup(l.watch("aaaaaaaaaaaa", w))
		l.ready("aaaaaaaaaaaa", w, seat)
		ws = append(ws, w)
		return w
	}
	for i := range 5 {
		add([]string{"en", "cs"}[i%2], engine.Nobody, "", "")
	}
	south := add("en", engine.South, "tokenS", "pageS")
	north := add("cs", engine.North, "tokenN", "pageN")
	next := func(w *watcher) frame {
		t.Helper()
		select {
		case f := <-w.frames:
			return f
		case <-time.After(20 * time.Second): // a busy machine
			t.Fatalf("watcher %s %s: no frame", w.Lang, w.Seat)
		}
		return frame{}
	}

	// Version 2, stored by South's page here: no load, 4 kinds rendered.
	l.stored(context.WithValue(context.Background(), core.ViewKey{}, "pageS"), at(2))
	for _, w := range ws {
		if w == south {
			continue
		}
		f := next(w)
		want := fmt.Sprintf("id: 2\nevent: game\ndata: v2 %s %s ", w.Lang, w.Seat)
		if f.version != 2 || !strings.HasPrefix(string(f.data), want) {
			t.Errorf("%s %s got %q, want %q...", w.Lang, w.Seat, f.data, want)
		}
		if w == north && !strings.HasSuffix(string(f.data), "tokenN\n\n") {
			t.Errorf("North's frame %q lacks North's token", f.data)
		}
	}
	if loads.Load() != 0 || renders.Load() != 4 {
		t.Errorf("version 2: %d loads, %d renders; want 0 and 4 (en and cs spectators, South, North)", loads.Load(), renders.Load())
	}
	select {
	case f := <-south.frames:
		t.Errorf("South's page got version %d, which answered its own move", f.version)
	case <-time.After(100 * time.Millisecond):
	}

	// Version 3, from another instance: one load for everybody.
	events.Publish(context.Background(), "aaaaaaaaaaaa", 3)
	var first []byte
	for _, w := range ws {
		f := next(w)
		if w.Lang == "en" && w.Seat == engine.Nobody {
			if first == nil {
				first = f.data
			} else if &first[0] != &f.data[0] {
				t.Errorf("two English spectators got copies of the frame, not the same bytes")
			}
		}
		if w == south && !strings.HasSuffix(string(f.data), "tokenS\n\n") {
			t.Errorf("South's frame %q lacks South's token", f.data)
		}
	}
	if loads.Load() != 1 || renders.Load() != 8 {
		t.Errorf("version 3: %d loads, %d renders in all; want 1 and 8", loads.Load(), renders.Load())
	}
}
