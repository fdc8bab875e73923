package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// runNotify is the notify mode: what one PostgreSQL's LISTEN/NOTIFY carries
// with -listeners instances listening, as the site's broker uses it
// (models/broker.go, publisher.go): every game its own channel, each
// listener following its share of -games games, and -workers publishers
// (one per instance) sending batches of one pg_notify per game (the
// publisher's statement) as fast as they can for -duration (or -rate
// notifications a second in all). It prints the
// notifications sent and delivered a second, the time from a batch's send
// to its delivery (p50, p99) and the CPU of the database's backends per
// notification.
func runNotify(ctx context.Context, o options) error {
	if o.pg == "" {
		return fmt.Errorf("notify: -pg names the database")
	}
	games := max(o.games, o.listeners)
	channel := func(g int) string { return "oware_load" + strconv.Itoa(g) }
	var delivered atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	lctx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	var listening, done sync.WaitGroup
	errs := make(chan error, o.listeners+o.workers)
	for l := range o.listeners {
		conn, err := pgx.Connect(ctx, o.pg)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		for g := l; g < games; g += o.listeners {
			if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel(g)}.Sanitize()); err != nil {
				return err
			}
		}
		listening.Add(1)
		done.Go(func() {
			listening.Done()
			var mine []time.Duration
			for {
				n, err := conn.WaitForNotification(lctx)
				if err != nil {
					break
				}
				delivered.Add(1)
				if sent, err := strconv.ParseInt(n.Payload, 10, 64); err == nil && len(mine) < 1_000_000 {
					mine = append(mine, time.Since(time.Unix(0, sent)))
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	listening.Wait()
	m := &meter{database: o.pgdb}
	m.begin()
	var sent atomic.Int64
	pctx, stopSending := context.WithTimeout(ctx, o.duration)
	defer stopSending()
	began := time.Now()
	var publishers sync.WaitGroup
	for w := range o.workers {
		conn, err := pgx.Connect(ctx, o.pg)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		publishers.Go(func() {
			chans := make([]string, o.batch)
			vals := make([]string, o.batch)
			next := w
			tick := time.Duration(0)
			if o.rate > 0 {
				tick = time.Duration(float64(time.Second) * float64(o.batch*o.workers) / float64(o.rate))
			}
			at := time.Now()
			for pctx.Err() == nil {
				if tick > 0 {
					at = at.Add(tick)
					time.Sleep(time.Until(at))
				}
				now := strconv.FormatInt(time.Now().UnixNano(), 10)
				for i := range chans {
					chans[i], vals[i] = channel(next%games), now
					next += o.workers
				}
				if _, err := conn.Exec(pctx, `SELECT pg_notify(c, v) FROM unnest($1::text[], $2::text[]) AS t(c, v)`, chans, vals); err != nil {
					if pctx.Err() == nil {
						errs <- err
					}
					return
				}
				sent.Add(int64(len(chans)))
			}
		})
	}
	publishers.Wait()
	secs := time.Since(began).Seconds()
	// The listeners drain what is queued, then stop.
	for last := int64(-1); last != delivered.Load(); time.Sleep(500 * time.Millisecond) {
		last = delivered.Load()
	}
	cpu := m.since()
	stopListening()
	done.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	slices.Sort(lat)
	fmt.Printf("%d listeners on %d game channels, %d publishers, batches of %d, %v, rate %d/s (0: as fast as they can)\n", o.listeners, games, o.workers, o.batch, o.duration, o.rate)
	fmt.Printf("sent %.0f/s, delivered %.0f/s (%d of %d); send to delivery p50 %v, p99 %v; PostgreSQL CPU %v per notification\n",
		float64(sent.Load())/secs, float64(delivered.Load())/secs, delivered.Load(), sent.Load(),
		percentile(lat, 0.5), percentile(lat, 0.99), cpu.per(int(max(sent.Load(), 1))).postgres)
	return nil
}
