package live

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/views"
)

// live fans the new versions of games out to their event streams. For
// each new version of a watched game it takes the game once (as this
// instance just stored it, else from the database), renders its panel once
// per language and seat among the watchers, and sends the same bytes to
// every watcher of that kind; a watcher never queries the database for an
// event. One goroutine per watched game does this work.
//
// A spectator's stream that sent the version before gets the event
// "move": only the parts of the panel that changed (views.Delta), as
// out-of-band swaps; any other stream, and any change beyond the parts,
// gets the event "game", the whole panel (a stream that skipped versions
// converges with it). Players always get the whole panel, since their own
// actions' answers also change their page.
type hub struct {
	events game.Broker
	load   func(ctx context.Context, id string) (*game.Game, error)
	// render renders g's panel once per kind, with the marks of its parts
	// (views.WithParts).
	render func(g *game.Game, kinds []core.PanelKind) (map[core.PanelKind][]byte, error)
	log    *slog.Logger

	mu    sync.Mutex
	games map[string]*watched              // by game id
	views map[string]map[*watcher]struct{} // the watchers of each page (X-View)
}

// watcher is one event stream.
type watcher struct {
	core.PanelKind
	csrf string // the token of a player's forms
	view string // the id of the page, which its htmx requests send (X-View)
	// frames holds the latest frame not yet written, or is closed when the
	// game is no longer followed (shutdown).
	frames chan frame
	// out is the stream's connection once detached from net/http
	// (detach.go): live writes its frames itself, frames is unused.
	out *detached
	// skip is a version that the page got as the answer of its own action.
	skip int
	// ready is set once the stream knows its seat (see live.ready); until
	// then it gets no frames.
	ready bool
	// busy counts the actions of the page in flight (live.begin); a frame
	// sent meanwhile is held until they end, since the version it carries
	// may be the answer of one of them, which the page gets anyway.
	busy int
	held *frame
}

// frame is an event of the stream: a game panel of a version, whole
// (event "game") and, for a stream that sent the version before, as what
// changed (event "move"; nil when only the whole panel does).
type frame struct {
	version int
	data    []byte
	delta   []byte
}

// next returns what a stream that last sent version last writes for f:
// the delta after the version before, the whole panel after an older one,
// nothing for one it sent.
func (f frame) next(last int) []byte {
	switch {
	case f.version <= last:
		return nil
	case f.delta != nil && f.version == last+1:
		return f.delta
	}
	return f.data
}

// watched is a game with watchers in this instance.
type watched struct {
	watchers map[*watcher]struct{}
	kick     chan struct{} // a version was stored here (fresh)
	fresh    *game.Game    // the game as this instance just stored it
	last     int           // the last version sent to the watchers
	stop     func()        // ends the broker subscription
	// shown is the last panel sent to each kind of watcher, cut in parts
	// (views.Cut), which the next version's delta is taken against.
	shown map[core.PanelKind]shownPanel
	// seeding is the version of the panel a stream renders for shown
	// (live.wants), by kind.
	seeding map[core.PanelKind]int
	// out is the deliveries of the version being sent (live.send), kept
	// for the next one.
	out []delivery
}

// shownPanel is a panel sent to watchers of a kind.
type shownPanel struct {
	version int
	parts   views.Parts
}

// newLive returns the fan-out of the game events of events.
func newHub(events game.Broker, log *slog.Logger, load func(context.Context, string) (*game.Game, error),
	render func(*game.Game, []core.PanelKind) (map[core.PanelKind][]byte, error)) *hub {
	return &hub{events: events, load: load, render: render, log: log, games: map[string]*watched{}, views: map[string]map[*watcher]struct{}{}}
}

// watch adds w to the watchers of game id and returns the function that
// removes it. The game is followed from the moment watch returns; the
// watcher gets frames once ready says its seat.
func (l *hub) watch(id string, w *watcher) func() {
	w.frames = make(chan frame, 1)
	l.mu.Lock()
	defer l.mu.Unlock()
	gw := l.games[id]
	if gw == nil {
		ch, stop := l.events.Subscribe(id)
		gw = &watched{watchers: map[*watcher]struct{}{}, kick: make(chan struct{}, 1), stop: stop, shown: map[core.PanelKind]shownPanel{}, seeding: map[core.PanelKind]int{}}
		l.games[id] = gw
		go l.follow(id, gw, ch)
	}
	gw.watchers[w] = struct{}{}
	if w.view != "" {
		if l.views[w.view] == nil {
			l.views[w.view] = map[*watcher]struct{}{}
		}
		l.views[w.view][w] = struct{}{}
	}
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(gw.watchers, w)
		if w.view != "" {
			delete(l.views[w.view], w)
			if len(l.views[w.view]) == 0 {
				delete(l.views, w.view)
			}
		}
		if len(gw.watchers) == 0 && l.games[id] == gw {
			delete(l.games, id)
			gw.stop() // closes ch: follow ends
		}
	}
}

// detached notes that w's stream is detached to d (detach.go): a frame
// it has not written yet goes to d, and so does every next one.
func (l *hub) detached(w *watcher, d *detached) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w.out = d
	select {
	case f, ok := <-w.frames:
		if ok {
			d.deliver(&f)
		}
	default:
	}
}

// ready sets the seat of w, watching game id, and lets it get frames. It
// returns the last version sent to the game's watchers: when that is newer
// than the game the stream loaded, the stream loads it again.
func (l *hub) ready(id string, w *watcher, seat engine.Side) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	w.Seat, w.ready = seat, true
	if gw := l.games[id]; gw != nil {
		return gw.last
	}
	return 0
}

// wants reports whether live keeps no panel of game id for spectators of
// kind k as new as version, and no other stream renders one: the stream
// that shows that version renders and keeps it (live.keep), so that the
// next version goes out as a delta. Of many streams opened at once, one
// renders.
func (l *hub) wants(id string, k core.PanelKind, version int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	gw := l.games[id]
	if gw == nil || k.Seat != engine.Nobody || gw.shown[k].version >= version || gw.seeding[k] >= version {
		return false
	}
	gw.seeding[k] = version
	return true
}

// keep keeps parts, the panel of version of game id for watchers of kind
// k, unless a newer one is kept.
func (l *hub) keep(id string, k core.PanelKind, version int, parts views.Parts) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if gw := l.games[id]; gw != nil && gw.shown[k].version < version {
		gw.shown[k] = shownPanel{version, parts}
	}
}

// stored is the game service's OnStore hook: a version this instance just
// stored goes to the watchers at once, and the page whose action stored it
// (ctx's view) is skipped, since the action's answer carries the panel.
func (l *hub) stored(ctx context.Context, g *game.Game) {
	l.mu.Lock()
	defer l.mu.Unlock()
	gw := l.games[g.ID]
	if gw == nil {
		return
	}
	if view, _ := ctx.Value(core.ViewKey{}).(string); view != "" {
		for w := range gw.watchers {
			if w.view == view {
				w.skip = g.Version
			}
		}
	}
	gw.fresh = g
	select {
	case gw.kick <- struct{}{}:
	default:
	}
}

// follow sends the new versions of game id to its watchers until the
// subscription ch ends.
func (l *hub) follow(id string, gw *watched, ch <-chan int) {
	defer l.closeAll(gw)
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	for {
		var g *game.Game
		select {
		case <-ping.C:
			l.mu.Lock()
			var out []*detached
			for w := range gw.watchers {
				if w.out != nil {
					out = append(out, w.out)
				}
			}
			l.mu.Unlock()
			for _, d := range out {
				d.ping()
			}
			continue
		case v, ok := <-ch:
			if !ok {
				return
			}
			l.mu.Lock()
			last, fresh := gw.last, gw.fresh
			l.mu.Unlock()
			if v != 0 && v <= last {
				continue
			}
			if fresh != nil && fresh.Version >= v && v != 0 {
				g = fresh
			}
			if g == nil {
				var err error
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				g, err = l.load(ctx, id)
				cancel()
				if err != nil {
					l.log.Warn("live: load", "game", id, "err", err)
					continue
				}
			}
		case <-gw.kick:
			l.mu.Lock()
			g = gw.fresh
			l.mu.Unlock()
		}
		if g != nil {
			l.send(gw, g)
		}
	}
}

// send renders g once per kind of watcher and hands the frames over:
// every watcher of a kind gets the same frame, bytes and all (a player
// gets a copy with their own CSRF token).
func (l *hub) send(gw *watched, g *game.Game) {
	l.mu.Lock()
	if g.Version <= gw.last {
		l.mu.Unlock()
		return
	}
	prev := map[core.PanelKind]shownPanel{}
	var kinds []core.PanelKind
	for w := range gw.watchers {
		if _, seen := prev[w.PanelKind]; w.ready && !seen {
			prev[w.PanelKind] = gw.shown[w.PanelKind]
			kinds = append(kinds, w.PanelKind)
		}
	}
	l.mu.Unlock()
	panels, err := l.render(g, kinds)
	if err != nil {
		l.log.Error("live: render", "game", g.ID, "err", err)
		return
	}
	// Cut and compare outside the lock, which every game's watchers share.
	frames := make(kindFrames, 0, len(panels))
	shown := make(map[core.PanelKind]views.Parts, len(panels))
	for k, marked := range panels {
		parts := views.Cut(marked)
		f := &frame{version: g.Version, data: sseFrame(g.Version, "game", parts.Full)}
		if p := prev[k]; p.version == g.Version-1 && k.Seat == engine.Nobody {
			if delta, ok := views.Delta(p.parts, parts); ok {
				f.delta = sseFrame(g.Version, "move", delta)
			}
		}
		frames = append(frames, kindFrame{k, f})
		shown[k] = parts
	}
	// The detached streams are written to after the lock is released,
	// from a slice kept for the next version (send runs in the game's
	// goroutine only).
	out := gw.out[:0]
	defer func() {
		deliverAll(out)
		clear(out)
		gw.out = out[:0]
	}()
	l.mu.Lock()
	defer l.mu.Unlock()
	gw.last = max(gw.last, g.Version)
	for k, parts := range shown {
		if gw.shown[k].version < g.Version {
			gw.shown[k] = shownPanel{g.Version, parts}
		}
	}
	out = slices.Grow(out, len(gw.watchers))
	for w := range gw.watchers {
		f := frames.of(w.PanelKind)
		if f == nil || !w.ready || w.skip == g.Version {
			continue
		}
		if w.Seat != engine.Nobody {
			own := *f
			own.data = bytes.ReplaceAll(f.data, []byte(core.CsrfPlaceholder), []byte(w.csrf))
			f = &own
		}
		if w.busy > 0 {
			w.held = f
			continue
		}
		if w.out != nil {
			out = append(out, delivery{w.out, f})
			continue
		}
		w.put(f)
	}
}

// kindFrame is the frame of a version for the watchers of a kind.
type kindFrame struct {
	kind core.PanelKind
	f    *frame
}

// kindFrames are the frames of a version, one per kind of watcher: a few
// (the languages and seats among the watchers), so that a search by
// comparison costs a watcher less than hashing its kind.
type kindFrames []kindFrame

// of returns the frame for watchers of kind k, nil when there is none.
func (fs kindFrames) of(k core.PanelKind) *frame {
	for _, kf := range fs {
		if kf.kind == k {
			return kf.f
		}
	}
	return nil
}

// put hands f to the stream, in place of a frame it has not written yet;
// a detached stream writes it at once (l.mu held).
func (w *watcher) put(f *frame) {
	if w.out != nil {
		w.out.deliver(f)
		return
	}
	select {
	case <-w.frames:
	default:
	}
	w.frames <- *f
}

// Begin notes that the page view sends an action: frames for its streams
// wait until end, so that the version the action stores, which its answer
// carries, is not sent again whichever comes first, the broker's event or
// the stored hook (live.stored).
func (l *hub) Begin(view string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for w := range l.views[view] {
		w.busy++
	}
}

// End notes that an action of the page view is answered: a frame held
// meanwhile goes out unless it is the action's own version.
func (l *hub) End(view string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for w := range l.views[view] {
		if w.busy > 0 {
			w.busy-- // a stream opened during the action has none to end
		}
		if w.busy > 0 || w.held == nil {
			continue
		}
		if f := w.held; f.version != w.skip {
			w.put(f)
		}
		w.held = nil
	}
}

// closeAll tells the watchers of gw that the game is no longer followed.
func (l *hub) closeAll(gw *watched) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for w := range gw.watchers {
		if w.out != nil {
			w.out.close() // runs the stream's end
		}
		close(w.frames)
	}
	gw.watchers = nil
}

// sseFrame writes a server-sent event of the given name ("game", "move")
// with id version and the data (its lines each a data line).
func sseFrame(version int, name string, data []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(data) + len(data)/32 + 64)
	b.WriteString("id: " + strconv.Itoa(version) + "\nevent: " + name + "\n")
	for _, line := range bytes.Split(data, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}
