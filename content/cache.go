package content

import (
	"sync"
	"time"
)

// BodyCache keeps the rendered bodies of pages (Body) by slug and locale,
// each for the updated_at of the row it was rendered from: a page is
// rendered again only when its row changed. It holds one body per page and
// locale and is safe for concurrent use.
type BodyCache struct {
	mu     sync.Mutex
	bodies map[pageKey]renderedBody
}

type pageKey struct{ slug, locale string }

type renderedBody struct {
	updated time.Time
	parts   []Part
}

// Body returns the parts of the page slug in locale whose row, last
// updated at updated, holds body: rendered once per updated_at.
func (c *BodyCache) Body(slug, locale string, updated time.Time, body string) ([]Part, error) {
	k := pageKey{slug, locale}
	c.mu.Lock()
	r, ok := c.bodies[k]
	c.mu.Unlock()
	if ok && r.updated.Equal(updated) {
		return r.parts, nil
	}
	parts, err := Body(body)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bodies == nil {
		c.bodies = map[pageKey]renderedBody{}
	}
	c.bodies[k] = renderedBody{updated, parts}
	return parts, nil
}
