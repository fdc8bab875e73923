package handlers

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Login rate limits, per account name and per client address: a burst of
// failed logins, then one more per interval. In memory, per instance.
const (
	accountBurst    = 5
	accountInterval = time.Minute
	addressBurst    = 20
	addressInterval = 10 * time.Second
	// Registrations per address: a burst, then one more per interval.
	registerBurst    = 10
	registerInterval = 6 * time.Minute
)

// loginLimits are the failed-login limiters by account name and address.
type loginLimits struct {
	mu       sync.Mutex
	account  map[string]*rate.Limiter
	address  map[string]*rate.Limiter
	register map[string]*rate.Limiter // registrations by address
	checking map[string]int           // attempts being checked, by name and by address
}

// newLoginLimits returns empty limiters.
func newLoginLimits() *loginLimits {
	return &loginLimits{account: map[string]*rate.Limiter{}, address: map[string]*rate.Limiter{},
		register: map[string]*rate.Limiter{}, checking: map[string]int{}}
}

// registration counts a registration from addr and reports whether it is
// within the limit.
func (ll *loginLimits) registration(addr string) bool {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	return limiter(ll.register, addr, registerInterval, registerBurst).Allow()
}

// limiter returns the limiter of key in m, made when missing. Full
// limiters are forgotten when the map grows large.
func limiter(m map[string]*rate.Limiter, key string, every time.Duration, burst int) *rate.Limiter {
	if l := m[key]; l != nil {
		return l
	}
	if len(m) > 10000 {
		for k, l := range m {
			if l.Tokens() >= float64(burst) {
				delete(m, k)
			}
		}
	}
	l := rate.NewLimiter(rate.Every(every), burst)
	m[key] = l
	return l
}

// attempt starts a login attempt for the account name from the address,
// unless either has used up its failed logins: attempts still being checked
// count as failed until they are done, so that attempts sent at the same
// moment cannot pass the limit together. The caller must call done with
// whether the password was wrong; only failed attempts count.
func (ll *loginLimits) attempt(name, addr string) (ok bool, done func(failed bool)) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	byName := limiter(ll.account, name, accountInterval, accountBurst)
	byAddr := limiter(ll.address, addr, addressInterval, addressBurst)
	if byName.Tokens()-float64(ll.checking[name]) < 1 || byAddr.Tokens()-float64(ll.checking[addr]) < 1 {
		return false, nil
	}
	ll.checking[name]++
	ll.checking[addr]++
	return true, func(failed bool) {
		ll.mu.Lock()
		defer ll.mu.Unlock()
		for _, k := range []string{name, addr} {
			if ll.checking[k]--; ll.checking[k] <= 0 {
				delete(ll.checking, k)
			}
		}
		if failed {
			byName.Allow()
			byAddr.Allow()
		}
	}
}
