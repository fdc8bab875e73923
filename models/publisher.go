package models

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// The publisher of an instance (PostgreSQL): every stored change of a game
// is announced after its commit, never inside its transaction. A
// notifying transaction takes a cluster-wide lock before its commit and
// holds it until its WAL flush is done (PreCommit_Notify in PostgreSQL's
// async.c), so moves that notified could not share a flush; now a move's
// commit notifies nothing, and one connection per instance sends the new
// versions in batches, with synchronous_commit off (a notification is
// delivered at commit, whether or not its WAL is flushed).
//
// The guarantee: a stored change is never lost, but its event may be. A
// batch is lost when the instance dies between the commit and the batch
// (or its connection fails while sending it); the listeners repair that
// within repairEvery by reading the versions of the games they follow
// (pgBroker.repair), and a page's own requests read the game anyway.

// publishEvery is how long the publisher gathers events before it sends
// them; while a batch is being sent the next one gathers.
const publishEvery = 2 * time.Millisecond

// publishBatch sends a batch of events: one notification per game, its
// channel notifyChannel(id) and its payload the version.
const publishBatch = `SELECT pg_notify(c, v) FROM unnest($1::text[], $2::text[]) AS t(c, v)`

// publisher gathers the events of this instance and sends them in batches
// on a connection of its own.
type publisher struct {
	db   *DB
	mu   sync.Mutex
	next map[string]int // the latest version of each game waiting to be sent
	wake chan struct{}  // an event is waiting
	// drop, while set (tests), drops every batch, as if the instance had
	// died before sending it.
	drop atomic.Bool
}

// announce hands the new version of game id, just committed, to this
// instance's events: the publisher on PostgreSQL, the subscribers of this
// process on SQLite (the only instance on the file). It never blocks.
func (db *DB) announce(id string, version int) {
	if db.pool == nil {
		db.hub.Publish(context.Background(), id, version)
		return
	}
	p := db.publisher()
	p.mu.Lock()
	if version > p.next[id] {
		p.next[id] = version
	}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// publisher returns the instance's publisher, starting it on the first
// call; it runs until the DB is closed.
func (db *DB) publisher() *publisher {
	db.pubOnce.Do(func() {
		db.pub = &publisher{db: db, next: map[string]int{}, wake: make(chan struct{}, 1)}
		go db.pub.run(db.ctx)
	})
	return db.pub
}

// run sends the waiting events every publishEvery until ctx is done,
// connecting (again) when needed.
func (p *publisher) run(ctx context.Context) {
	var conn *pgx.Conn
	defer func() {
		if conn != nil {
			conn.Close(context.Background())
		}
	}()
	delay := 100 * time.Millisecond
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		}
		time.Sleep(publishEvery)
		ids, versions := p.take()
		if len(ids) == 0 {
			continue
		}
		if p.drop.Load() {
			continue
		}
		var err error
		if conn == nil {
			conn, err = p.connect(ctx)
		}
		if err == nil {
			sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_, err = conn.Exec(sctx, publishBatch, ids, versions)
			cancel()
		}
		if err == nil {
			delay = 100 * time.Millisecond
			continue
		}
		if ctx.Err() != nil {
			return
		}
		// The batch is lost (the listeners repair it); the next one waits
		// for a new connection.
		p.db.log.Warn("publisher: events lost", "games", len(ids), "err", err, "retry_in", delay)
		if conn != nil {
			conn.Close(context.Background())
			conn = nil
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, 5*time.Second)
		p.poke()
	}
}

// take returns the waiting events as the channels and payloads of a batch
// and forgets them.
func (p *publisher) take() (ids, versions []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id, v := range p.next {
		ids = append(ids, notifyChannel(id))
		versions = append(versions, strconv.Itoa(v))
	}
	clear(p.next)
	return ids, versions
}

// poke makes run look at the waiting events again.
func (p *publisher) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// connect opens the publisher's connection: named "oware publisher" (so
// an operator sees it in pg_stat_activity), its commits asynchronous.
func (p *publisher) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(p.db.dsn)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["application_name"] = "oware publisher"
	cfg.RuntimeParams["synchronous_commit"] = "off"
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return pgx.ConnectConfig(cctx, cfg)
}
