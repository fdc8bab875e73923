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

// notifyChannel is the PostgreSQL NOTIFY channel of game events; the
// payload is "<game id> <version>".
const notifyChannel = "oware_games"

// Broker returns the database's event broker, starting it on the first call
// (later calls return the same broker). It runs until ctx is done or the DB
// is closed; then every subscription channel is closed.
//
// On PostgreSQL events go through LISTEN/NOTIFY, so every instance sees the
// events of all: a dedicated pgx connection listens (outside the pool)
// and reconnects with a growing delay (up to 30 s) when it drops, sending 0
// to every subscriber after a reconnection. On SQLite the events stay in
// the process, which is the only instance on the file.
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
		b := &pgBroker{db: db, hub: h}
		conn, err := b.listen(ctx)
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
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan int, 1)
	if h.closed {
		close(ch)
		return ch, func() {}
	}
	if h.subs[gameID] == nil {
		h.subs[gameID] = map[chan int]struct{}{}
	}
	h.subs[gameID][ch] = struct{}{}
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := h.subs[gameID][ch]; ok {
			delete(h.subs[gameID], ch)
			if len(h.subs[gameID]) == 0 {
				delete(h.subs, gameID)
			}
			close(ch)
		}
	}
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
}

// Publish sends the event to every instance (this one included) with
// pg_notify.
func (b *pgBroker) Publish(ctx context.Context, gameID string, version int) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	payload := gameID + " " + strconv.Itoa(version)
	if _, err := b.db.pool.Exec(ctx, "SELECT pg_notify($1, $2)", notifyChannel, payload); err != nil {
		return fmt.Errorf("models: publish: %w", err)
	}
	return nil
}

// Subscribe implements Broker.
func (b *pgBroker) Subscribe(gameID string) (<-chan int, func()) {
	return b.hub.Subscribe(gameID)
}

// listen opens the dedicated connection and runs LISTEN on it.
func (b *pgBroker) listen(ctx context.Context) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(cctx, b.db.dsn)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(cctx, "LISTEN "+notifyChannel); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// run reads notifications until ctx is done, reconnecting when the
// connection fails. conn may be nil (not connected yet).
func (b *pgBroker) run(ctx context.Context, conn *pgx.Conn) {
	delay := time.Second
	for {
		for conn == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(delay):
			}
			var err error
			if conn, err = b.listen(ctx); err != nil {
				b.db.log.Warn("broker: reconnect", "err", err, "retry_in", delay)
				delay = min(2*delay, 30*time.Second)
				continue
			}
			b.db.log.Info("broker: listening again")
			delay = time.Second
			b.hub.all(0) // events may have been missed meanwhile
		}
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			conn.Close(context.Background())
			conn = nil
			if ctx.Err() != nil {
				return
			}
			b.db.log.Warn("broker: connection lost", "err", err)
			continue
		}
		id, v, ok := strings.Cut(n.Payload, " ")
		version, err := strconv.Atoi(v)
		if !ok || err != nil {
			b.db.log.Warn("broker: bad payload", "payload", n.Payload)
			continue
		}
		b.hub.Publish(ctx, id, version)
	}
}
