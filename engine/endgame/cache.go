package endgame

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"oware/engine"
)

// Cache keeps the tables of the three rule sets (abapa, wari, warri) up to
// the same number of seeds in one folder, for a server: it opens the files
// there at once, and builds the missing ones in the background while the
// search plays without them. It is safe for concurrent use.
type Cache struct {
	dir      string
	maxSeeds int
	tables   [3]atomic.Pointer[Table] // by engine.GrandSlamRule
}

// cacheRules returns the rule sets a Cache holds, in the order it builds them.
func cacheRules() [3]engine.Oware {
	return [...]engine.Oware{{GrandSlam: engine.Abapa}, {GrandSlam: engine.Wari}, {GrandSlam: engine.Warri}}
}

// OpenCache opens the tables of up to maxSeeds seeds (0..MaxSeedsLimit)
// found in dir (the files of FileName), creating dir if needed. It returns
// the cache and the rule sets whose file is missing; a file that is there
// but damaged is an error (ErrBadFile): remove it to have it built again.
func OpenCache(dir string, maxSeeds int) (*Cache, []engine.Oware, error) {
	if maxSeeds < 0 || maxSeeds > MaxSeedsLimit {
		return nil, nil, fmt.Errorf("endgame: %d seeds: want 0..%d", maxSeeds, MaxSeedsLimit)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	c := &Cache{dir: dir, maxSeeds: maxSeeds}
	var missing []engine.Oware
	for _, r := range cacheRules() {
		t, err := Open(c.path(r))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = append(missing, r)
		case err != nil:
			c.Close()
			return nil, nil, err
		default:
			c.tables[r.GrandSlam].Store(t)
		}
	}
	return c, missing, nil
}

func (c *Cache) path(r engine.Oware) string { return filepath.Join(c.dir, FileName(r, c.maxSeeds)) }

// MaxSeeds returns the number of seeds the cache's tables go up to.
func (c *Cache) MaxSeeds() int { return c.maxSeeds }

// Table returns the table of rules, or nil while it is not there (not yet
// built, or c is nil).
func (c *Cache) Table(rules engine.Oware) *Table {
	if c == nil || rules.GrandSlam > engine.Warri {
		return nil
	}
	return c.tables[rules.GrandSlam].Load()
}

// BuildMissing builds the tables the folder lacks, one after the other in
// the calling goroutine (so on one core; run it in its own goroutine to
// keep serving), writes each to its file and makes it available to Table as
// soon as it is written. progress is passed to Build. It stops with ctx's
// error when ctx ends; a table under way is then lost, the finished ones
// stay.
func (c *Cache) BuildMissing(ctx context.Context, progress func(Progress)) error {
	for _, r := range cacheRules() {
		if c.Table(r) != nil {
			continue
		}
		t, err := Build(ctx, r, c.maxSeeds, progress)
		if err != nil {
			return err
		}
		if err := t.WriteFile(c.path(r)); err != nil {
			return fmt.Errorf("endgame: writing the %s table: %w", r.Name(), err)
		}
		// The mapped file replaces the built copy: its memory is shared.
		if mapped, err := Open(c.path(r)); err == nil {
			t = mapped
		}
		c.tables[r.GrandSlam].Store(t)
	}
	return nil
}

// Close releases the tables opened from files. Neither the cache nor a
// table taken from it may be used after (a search still probing one would
// read unmapped memory): close it when the server stops.
func (c *Cache) Close() error {
	var errs []error
	for i := range c.tables {
		if t := c.tables[i].Swap(nil); t != nil {
			errs = append(errs, t.Close())
		}
	}
	return errors.Join(errs...)
}

// Tables is a fixed set of tables, one per rule set at most, for tools
// that open whatever a folder holds. It is safe for concurrent use.
type Tables map[engine.GrandSlamRule]*Table

// Table returns the table of rules, or nil.
func (ts Tables) Table(rules engine.Oware) *Table { return ts[rules.GrandSlam] }

// OpenDir opens, for each rule set, the table file in dir (FileName) that
// covers the most seeds; rule sets without one are left out. Close the
// tables when done.
func OpenDir(dir string) (Tables, error) {
	ts := Tables{}
	for _, r := range cacheRules() {
		for n := MaxSeedsLimit; n >= 0; n-- {
			t, err := Open(filepath.Join(dir, FileName(r, n)))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				ts.Close()
				return nil, err
			}
			ts[r.GrandSlam] = t
			break
		}
	}
	return ts, nil
}

// Close closes the tables.
func (ts Tables) Close() error {
	var errs []error
	for _, t := range ts {
		errs = append(errs, t.Close())
	}
	return errors.Join(errs...)
}
