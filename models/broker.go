package models

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Broker carries "game changed" events between the requests that change a
// game and the live views (server-sent events) that show it, across every
// server instance on the same database.
type Broker interface {
	// Publish announces that game gameID now has the given Version.
	// UpdateGame and the other writes of a game announce every change
	// they store; other writers call it after their change is stored. It
	// does not wait: on PostgreSQL the instance's publisher sends the
	// event in its next batch (publisher.go), which a cancelled ctx does
	// not stop; an event may be lost (never a change), which the
	// listeners repair within repairEvery.
	Publish(ctx context.Context, gameID string, version int) error
	// Subscribe returns a channel that receives the version of every event
	// of game gameID, and a function that ends the subscription (call it
	// once the reader stops; it is safe to call twice). The channel holds
	// only the latest unread version: a slow reader misses intermediate
	// versions, never the last one. A version of 0 means events may have
	// been lost (the broker reconnected): reload the game. The channel is
	// closed when the broker stops.
	Subscribe(gameID string) (<-chan int, func())
	// Known returns the latest version of game gameID that this instance
	// knows from its events, and whether it knows one: only for a game
	// with a subscriber here, once an event or Note gave its version, and
	// (PostgreSQL) while the listener is connected and listens to the
	// game. It may lag the database by the time an event takes to arrive
	// (a few ms), or by up to repairEvery when an event was lost.
	Known(gameID string) (int, bool)
	// Note tells the broker the version of game gameID read from the
	// database after Subscribe returned: from then on Known knows it.
	Note(gameID string, version int)
}

// repairEvery is how often a listener reads the versions of the games it
// follows and delivers those newer than its events said: the bound on
// how late a lost event (publisher.go) is repaired.
const repairEvery = 2 * time.Second

// notifyChannel returns the PostgreSQL NOTIFY channel of the events of
// game gameID: "oware_<id>", its payload the version. An instance listens
// to the channels of the games it has subscribers for, so a move wakes
// only the instances that show the game.
func notifyChannel(gameID string) string { return "oware_" + gameID }

// Broker returns the database's event broker, starting it on the first call
// (later calls return the same broker). It runs until ctx is done or the DB
// is closed; then every subscription channel is closed.
//
// On PostgreSQL events go through LISTEN/NOTIFY, so every instance sees the
// events of the games it follows: a dedicated pgx connection (outside the
// pool) listens to the channel of each game with a subscriber here, from
// before Subscribe returns until the last subscriber leaves, and reconnects
// with a growing delay (up to 30 s) when it drops, sending 0 to every
// subscriber after a reconnection. On SQLite the events stay in the
// process, which is the only instance on the file.
func (db *DB) Broker(ctx context.Context) Broker {
	db.once.Do(func() {
		ctx, cancel := context.WithCancel(ctx)
		context.AfterFunc(db.ctx, cancel)
		h := db.hub
		context.AfterFunc(ctx, h.close)
		if db.Dialect != Postgres {
			db.broker = h
			return
		}
		b := &pgBroker{db: db, hub: h, pending: map[string][]chan struct{}{}, listening: map[string]bool{}}
		conn, err := b.connect(ctx)
		if err != nil {
			db.log.Error("broker: listen", "err", err)
		}
		go b.run(ctx, conn)
		go b.repair(ctx)
		db.broker = b
	})
	return db.broker
}

// hub fans events out to the subscribers of this process, and keeps the
// latest version it delivered of each game with subscribers.
type hub struct {
	mu     sync.Mutex
	subs   map[string]map[chan int]struct{}
	known  map[string]int // the latest version delivered, by game with subscribers
	closed bool
}

func newHub() *hub {
	return &hub{subs: map[string]map[chan int]struct{}{}, known: map[string]int{}}
}

// Publish delivers the event to this process's subscribers.
func (h *hub) Publish(_ context.Context, gameID string, version int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[gameID] == nil {
		return nil
	}
	h.known[gameID] = max(h.known[gameID], version)
	for ch := range h.subs[gameID] {
		send(ch, version)
	}
	return nil
}

// Known implements Broker: on SQLite every change of the file is made in
// this process, so the hub knows the version of each game it follows
// once a change or the repair delivered it.
func (h *hub) Known(gameID string) (int, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.known[gameID]
	return v, ok && !h.closed
}

// Note implements Broker.
func (h *hub) Note(gameID string, version int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[gameID] != nil {
		h.known[gameID] = max(h.known[gameID], version)
	}
}

// Subscribe implements Broker.
func (h *hub) Subscribe(gameID string) (<-chan int, func()) {
	ch, cancel, _ := h.subscribe(gameID)
	return ch, func() { cancel() }
}

// subscribe is Subscribe that also reports whether the subscriber is the
// game's first; the function it returns reports whether it removed the
// last one.
func (h *hub) subscribe(gameID string) (<-chan int, func() bool, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan int, 1)
	if h.closed {
		close(ch)
		return ch, func() bool { return false }, false
	}
	first := h.subs[gameID] == nil
	if first {
		h.subs[gameID] = map[chan int]struct{}{}
	}
	h.subs[gameID][ch] = struct{}{}
	return ch, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := h.subs[gameID][ch]; !ok {
			return false
		}
		delete(h.subs[gameID], ch)
		close(ch)
		if len(h.subs[gameID]) > 0 {
			return false
		}
		delete(h.subs, gameID)
		delete(h.known, gameID)
		return true
	}, first
}

// followed reports whether game gameID has subscribers.
func (h *hub) followed(gameID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.subs[gameID] != nil
}

// games returns the games with subscribers.
func (h *hub) games() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.subs))
	for id := range h.subs {
		ids = append(ids, id)
	}
	return ids
}

// all sends version to every subscriber of every game. It also forgets
// the known versions: events may have been missed.
func (h *hub) all(version int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	clear(h.known)
	for _, subs := range h.subs {
		for ch := range subs {
			send(ch, version)
		}
	}
}

// close closes every subscription channel; later subscriptions get a
// closed channel.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.subs {
		for ch := range subs {
			close(ch)
		}
	}
	h.subs = map[string]map[chan int]struct{}{}
	clear(h.known)
	h.closed = true
}

// send puts v into ch, replacing an unread value. Only the hub sends, under
// its lock, so the channel cannot fill up between the two steps.
func send(ch chan int, v int) {
	select {
	case <-ch:
	default:
	}
	ch <- v
}

// pgBroker publishes with NOTIFY and feeds its hub from LISTEN.
type pgBroker struct {
	db  *DB
	hub *hub

	mu sync.Mutex
	// pending are the games whose channel to listen to or not (as they
	// have subscribers or not), with the Subscribe calls waiting for it.
	pending map[string][]chan struct{}
	// interrupt ends the current wait for notifications; nil outside one.
	interrupt func()
	// listening are the games whose channel the connection listens to
	// (none while it is down).
	listening map[string]bool
}

// Publish hands the event to the instance's publisher, which sends it to
// every instance that follows the game (this one included).
func (b *pgBroker) Publish(_ context.Context, gameID string, version int) error {
	b.db.announce(gameID, version)
	return nil
}

// Known implements Broker.
func (b *pgBroker) Known(gameID string) (int, bool) {
	b.mu.Lock()
	listening := b.listening[gameID]
	b.mu.Unlock()
	if !listening {
		return 0, false
	}
	return b.hub.Known(gameID)
}

// Note implements Broker.
func (b *pgBroker) Note(gameID string, version int) {
	b.mu.Lock()
	listening := b.listening[gameID]
	b.mu.Unlock()
	if listening {
		b.hub.Note(gameID, version)
	}
}

// repairVersions reads the versions of the games with subscribers here.
const repairVersions = `SELECT id, version FROM games WHERE id = ANY($1)`

// repair reads the versions of the games this instance follows every
// repairEvery and delivers each one newer than the events said: an event
// lost between a commit and its batch (publisher.go) reaches the
// subscribers all the same.
func (b *pgBroker) repair(ctx context.Context) {
	t := time.NewTicker(repairEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// Only games: the other channels (the content pages', a
		// tournament's) have no row to read.
		ids := slices.DeleteFunc(b.hub.games(), func(id string) bool { return !IsGameID(id) })
		if len(ids) == 0 {
			continue
		}
		qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		rows, err := b.db.pool.Query(qctx, repairVersions, ids)
		if err == nil {
			var id string
			var version int
			_, err = pgx.ForEachRow(rows, []any{&id, &version}, func() error {
				if known, ok := b.hub.Known(id); !ok || version > known {
					b.hub.Publish(ctx, id, version)
				}
				return nil
			})
		}
		cancel()
		if err != nil && ctx.Err() == nil {
			b.db.log.Warn("broker: repair", "err", err)
		}
	}
}

// Subscribe implements Broker: the first subscriber of a game returns once
// this instance listens to the game's channel (or, while the connection
// is down, at once: the reconnection sends 0).
func (b *pgBroker) Subscribe(gameID string) (<-chan int, func()) {
	ch, cancel, first := b.hub.subscribe(gameID)
	if first {
		done := make(chan struct{})
		b.follow(gameID, done)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			b.db.log.Warn("broker: listen is slow", "game", gameID)
		}
	}
	return ch, func() {
		if cancel() {
			b.follow(gameID, nil)
		}
	}
}

// follow asks the listening connection to listen to game gameID's
// channel or to stop, as the game has subscribers or not; done, when not
// nil, is closed once it did.
func (b *pgBroker) follow(gameID string, done chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending[gameID] = append(b.pending[gameID], done)
	if b.interrupt != nil {
		b.interrupt()
	}
}

// connect opens the dedicated connection.
func (b *pgBroker) connect(ctx context.Context) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return pgx.Connect(cctx, b.db.dsn)
}

// run reads notifications until ctx is done, and listens to the channels
// of the games with subscribers, reconnecting when the connection fails.
// conn may be nil (not connected yet).
func (b *pgBroker) run(ctx context.Context, conn *pgx.Conn) {
	delay := time.Second
	reconnected := false
	for {
		for conn == nil {
			b.release()
			select {
			case <-ctx.Done():
				return
			case <-time.After(delay):
			}
			var err error
			if conn, err = b.connect(ctx); err != nil {
				b.db.log.Warn("broker: reconnect", "err", err, "retry_in", delay)
				delay = min(2*delay, 30*time.Second)
				continue
			}
			b.db.log.Info("broker: listening again")
			delay = time.Second
			for _, id := range b.hub.games() {
				b.follow(id, nil)
			}
			reconnected = true
		}
		if err := b.listen(ctx, conn); err != nil {
			conn = b.lost(ctx, conn, err)
			continue
		}
		if reconnected {
			reconnected = false
			b.hub.all(0) // events may have been missed meanwhile
		}
		wait, interrupted := context.WithCancel(ctx)
		b.mu.Lock()
		b.interrupt = interrupted
		again := len(b.pending) > 0
		b.mu.Unlock()
		if again {
			interrupted()
		}
		n, err := conn.WaitForNotification(wait)
		byUs := ctx.Err() == nil && wait.Err() != nil
		b.mu.Lock()
		b.interrupt = nil
		b.mu.Unlock()
		interrupted()
		switch {
		case err != nil && byUs:
			// Interrupted to listen to another channel: the connection
			// is still good.
		case err != nil:
			conn = b.lost(ctx, conn, err)
		default:
			id, ok := strings.CutPrefix(n.Channel, notifyChannel(""))
			version, err := strconv.Atoi(n.Payload)
			if !ok || err != nil {
				b.db.log.Warn("broker: bad notification", "channel", n.Channel, "payload", n.Payload)
				continue
			}
			b.hub.Publish(ctx, id, version)
		}
	}
}

// listen runs LISTEN or UNLISTEN for the pending games, as they have
// subscribers or not, and tells the waiting subscribers. Only run's
// goroutine writes b.listening (under b.mu), so it reads it unlocked.
func (b *pgBroker) listen(ctx context.Context, conn *pgx.Conn) error {
	b.mu.Lock()
	pending := b.pending
	b.pending = map[string][]chan struct{}{}
	b.mu.Unlock()
	defer func() {
		for _, waiters := range pending {
			for _, done := range waiters {
				if done != nil {
					close(done)
				}
			}
		}
	}()
	for id := range pending {
		want := b.hub.followed(id)
		if want == b.listening[id] {
			continue
		}
		cmd := "UNLISTEN "
		if want {
			cmd = "LISTEN "
		}
		if _, err := conn.Exec(ctx, cmd+pgx.Identifier{notifyChannel(id)}.Sanitize()); err != nil {
			return err
		}
		b.mu.Lock()
		if want {
			b.listening[id] = true
		} else {
			delete(b.listening, id)
		}
		b.mu.Unlock()
	}
	return nil
}

// release lets the subscribers waiting for a connection that is down go
// on (the reconnection sends them 0).
func (b *pgBroker) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, waiters := range b.pending {
		for i, done := range waiters {
			if done != nil {
				close(done)
				waiters[i] = nil
			}
		}
	}
}

// lost closes a connection that failed; the caller reconnects.
func (b *pgBroker) lost(ctx context.Context, conn *pgx.Conn, err error) *pgx.Conn {
	b.mu.Lock()
	clear(b.listening)
	b.mu.Unlock()
	conn.Close(context.Background())
	if ctx.Err() == nil {
		b.db.log.Warn("broker: connection lost", "err", err)
	}
	return nil
}
