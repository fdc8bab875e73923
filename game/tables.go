package game

import "oware/engine/search"

// Tables returns the endgame tables the pool's searches use
// (PoolConfig.Tables), nil when it has none: for the pages that show what
// the tables prove (the endgame explorer).
func (p *Pool) Tables() search.Tables { return p.cfg.Tables }
