package engine

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Budget bounds the engine work done for one caller, such as one request
// on a position a visitor supplied. The work counted is the laps of
// Nam-nam's endless-sowing check (RULES.md 4.4; a lap is about 10 ns of
// CPU), the only part of the engine whose cost a position can make large:
// a crafted position needs millions of laps. When the budget runs out, the
// engine stops the check and reports ErrTooMuchWork (see NamNam.Budget).
// A Budget is safe for concurrent use; the zero value is spent.
type Budget struct {
	left atomic.Int64
}

// NewBudget returns a budget of laps relay laps.
func NewBudget(laps int64) *Budget {
	b := &Budget{}
	b.left.Store(laps)
	return b
}

// Err returns nil, or ErrTooMuchWork once the budget has run out.
func (b *Budget) Err() error {
	if b.left.Load() < 0 {
		return ErrTooMuchWork
	}
	return nil
}

// Stop spends the budget at once: every check under way stops within a
// few thousand laps, and the next ones refuse with ErrTooMuchWork. A
// search calls it when its time is up. Safe to call from any goroutine.
func (b *Budget) Stop() { b.left.Store(-1) }

// Left returns the laps left (negative once the budget ran out).
func (b *Budget) Left() int64 { return b.left.Load() }

// charge takes n laps and reports whether the budget still holds.
func (b *Budget) charge(n int64) bool {
	if b == nil {
		return true
	}
	return b.left.Add(-n) >= 0
}

// budgetChunk is how many laps a check runs between two charges.
const budgetChunk = 1 << 12

// LegalCache remembers the legal moves of Nam-nam positions, so that the
// endless-sowing check (RULES.md 4.4) runs once per position for every game
// and request that shares the cache (see NamNam.Cache). It holds at most
// about twice the size it was made with: each of its shards keeps a current
// and a previous generation of entries and drops the previous one when the
// current is full, so positions in use stay and old ones go. It is safe for
// concurrent use.
type LegalCache struct {
	seed     maphash.Seed
	perShard int
	shards   [legalShards]legalShard
}

const legalShards = 16

type legalShard struct {
	mu       sync.Mutex
	cur, old map[legalKey]Moves
}

// legalKey is everything the legal moves of a Nam-nam position depend on:
// the setting, the pits, their owners and the player to move.
type legalKey struct {
	fours  FoursRule
	toMove Side
	pits   [NumPits]uint8
	owner  [NumPits]Side
}

// NewLegalCache returns a cache of about size positions (at least 16); an
// entry takes about 100 bytes.
func NewLegalCache(size int) *LegalCache {
	c := &LegalCache{seed: maphash.MakeSeed(), perShard: max(size/legalShards, 1)}
	for i := range c.shards {
		c.shards[i].cur = make(map[legalKey]Moves)
	}
	return c
}

// Len returns the number of positions the cache holds.
func (c *LegalCache) Len() int {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += len(s.cur) + len(s.old)
		s.mu.Unlock()
	}
	return n
}

func (c *LegalCache) shard(k *legalKey) *legalShard {
	return &c.shards[maphash.Comparable(c.seed, *k)%legalShards]
}

func (c *LegalCache) get(k legalKey) (Moves, bool) {
	s := c.shard(&k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.cur[k]; ok {
		return m, true
	}
	m, ok := s.old[k]
	if ok {
		s.add(k, m, c.perShard)
	}
	return m, ok
}

func (c *LegalCache) put(k legalKey, m Moves) {
	s := c.shard(&k)
	s.mu.Lock()
	s.add(k, m, c.perShard)
	s.mu.Unlock()
}

// add puts an entry into the current generation, starting a new one when
// it is full.
func (s *legalShard) add(k legalKey, m Moves, limit int) {
	if len(s.cur) >= limit {
		s.old, s.cur = s.cur, make(map[legalKey]Moves, limit)
	}
	s.cur[k] = m
}

// VisitorLaps is a budget for the engine work of one request on a position
// a visitor supplied: about 2 million relay laps, 10-20 ms of CPU. Every
// sowing of the random matches measured decides in far fewer laps (the
// longest endless one took 1.5 million); only crafted positions need more.
const VisitorLaps = 1 << 21
