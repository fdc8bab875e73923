package models

import (
	"context"
	"fmt"
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
	// UpdateGame publishes every change it stores; other writers call it
	// after their change is stored, so a cancelled ctx (the client went
	// away) does not stop the event; values of ctx are kept and sending
	// gives up after 5 s.
	Publish(ctx context.Context, gameID string, version int) error
	// Subscribe returns a channel that receives the version of every event
	// of game gameID, and a function that ends the subscription (call it
	// once the reader stops; it is safe to call twice). The channel holds
	// only the latest unread version: a slow reader misses intermediate
	// versions, never the last one. A version of 0 means events may have
	// been lost (the broker reconnected): reload the game. The channel is
	// closed when the broker stops.
	Subscribe(gameID string) (<-chan int, func())
}

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
		b := &pgBroker{db: db, hub: h, pending: map[string][]chan struct{}{}}
		conn, err := b.connect(ctx)
		if err != nil {
			db.log.Error("broker: listen", "err", err)
		}
		go b.run(ctx, conn)
		db.broker = b
	})
	return db.broker
}

// hub fans events out to the subscribers of this process.
type hub struct {
	mu     sync.Mutex
	subs   map[string]map[chan int]struct{}
	closed bool
}

func newHub() *hub { return &hub{subs: map[string]map[chan int]struct{}{}} }

// Publish delivers the event to this process's subscribers.
func (h *hub) Publish(_ context.Context, gameID string, version int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[gameID] {
		send(ch, version)
	}
	return nil
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

// all sends version to every subscriber of every game.
func (h *hub) all(version int) {
	h.mu.Lock()
	defer h.mu.Unlock()
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
}

// Publish sends the event to every instance that follows the game (this
// one included) with pg_notify.
func (b *pgBroker) Publish(ctx context.Context, gameID string, version int) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := b.db.pool.Exec(ctx, "SELECT pg_notify($1, $2)", notifyChannel(gameID), strconv.Itoa(version)); err != nil {
		return fmt.Errorf("models: publish: %w", err)
	}
	return nil
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
	listened := map[string]bool{}
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
			clear(listened)
			for _, id := range b.hub.games() {
				b.follow(id, nil)
			}
			reconnected = true
		}
		if err := b.listen(ctx, conn, listened); err != nil {
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
// subscribers or not, and tells the waiting subscribers.
func (b *pgBroker) listen(ctx context.Context, conn *pgx.Conn, listened map[string]bool) error {
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
		if want == listened[id] {
			continue
		}
		cmd := "UNLISTEN "
		if want {
			cmd = "LISTEN "
		}
		if _, err := conn.Exec(ctx, cmd+pgx.Identifier{notifyChannel(id)}.Sanitize()); err != nil {
			return err
		}
		listened[id] = want
		if !want {
			delete(listened, id)
		}
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
	conn.Close(context.Background())
	if ctx.Err() == nil {
		b.db.log.Warn("broker: connection lost", "err", err)
	}
	return nil
}
