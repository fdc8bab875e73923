package game

import (
	"sync"

	"oware/models"
)

// maxKeptSettings is how many games' settings a service keeps (about 200
// bytes each); past it, it forgets them all and starts again.
const maxKeptSettings = 4096

// keptSettings are the settings of the games in play that this instance
// read (models.GameSettings, which nothing changes once a game is in
// play), by game id: the reads of a game then leave them out (11 columns
// of 47).
type keptSettings struct {
	mu sync.Mutex
	m  map[string]models.GameSettings
}

// get returns the settings kept for game id, nil for none.
func (k *keptSettings) get(id string) *models.GameSettings {
	k.mu.Lock()
	defer k.mu.Unlock()
	if s, ok := k.m[id]; ok {
		return &s
	}
	return nil
}

// keep keeps the settings of row, read whole, once its game is in play.
func (k *keptSettings) keep(row *models.Game) {
	if Status(row.Status) == Waiting {
		return // a computer may still take the other seat
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil || len(k.m) >= maxKeptSettings {
		k.m = map[string]models.GameSettings{}
	}
	k.m[row.ID] = row.Settings()
}
