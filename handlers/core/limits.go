package core

import (
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"
)

// Login limits (issue 14): failed logins count per account name and
// client address together, so that a stranger's failures from their
// address never hold back the owner logging in from another. The first
// pairFree failures of a pair are free; after them each further attempt
// of the pair waits pairFirstDelay after its last failure, twice as long
// after every further failure, at most pairMaxDelay; a pair's count is
// forgotten pairForget after its last failure, or at a success. Across
// accounts an address has a looser limit: addressBurst failures, then
// one more per addressInterval. In memory, per instance.
const (
	pairFree        = 5
	pairFirstDelay  = time.Second
	pairMaxDelay    = 5 * time.Minute
	pairForget      = 24 * time.Hour
	addressBurst    = 20
	addressInterval = 10 * time.Second
	// Registrations per address: a burst, then one more per interval.
	registerBurst    = 10
	registerInterval = 6 * time.Minute
)

// loginLimits are the failed-login limits by account and address, and by
// address alone, and the registration limit by address.
type loginLimits struct {
	mu       sync.Mutex
	now      func() time.Time
	pairs    map[string]*failures     // by pairKey
	address  map[string]*rate.Limiter // failed logins by address, across accounts
	register *ClientLimit             // registrations by address
	checking map[string]int           // attempts being checked, by pairKey and addressKey
}

// failures are the failed logins of one account from one address.
type failures struct {
	n    int       // how many, since the count was last forgotten
	last time.Time // when the last one was
}

// NewLoginLimits returns empty limits; the failed-login ones read the time
// from now (time.Now when nil).
func NewLoginLimits(now func() time.Time) *loginLimits {
	if now == nil {
		now = time.Now
	}
	return &loginLimits{now: now, pairs: map[string]*failures{}, address: map[string]*rate.Limiter{},
		register: NewRateLimit(RateLimit{registerBurst, registerInterval}, RateLimit{}, nil), checking: map[string]int{}}
}

// pairKey and addressKey are the keys of the attempts being checked.
func pairKey(name, addr string) string { return "p\x00" + name + "\x00" + addr }

func addressKey(addr string) string { return "a\x00" + addr }

// pairDelay is how long after the last of n failures of a pair its next
// attempt waits: 0 for fewer than pairFree, then pairFirstDelay doubled
// for each failure past pairFree, at most pairMaxDelay.
func pairDelay(n int) time.Duration {
	if n < pairFree {
		return 0
	}
	d := pairFirstDelay
	for i := pairFree; i < n && d < pairMaxDelay; i++ {
		d *= 2
	}
	return min(d, pairMaxDelay)
}

// Registration counts a registration from addr and reports whether it is
// within the limit.
func (ll *loginLimits) Registration(addr string) bool { return ll.register.Allow(addr) }

// Attempt starts a login attempt for the account name from the address
// addr, unless the pair or the address has used up its failed logins; then
// wait is how long until an attempt may come (above 0). Attempts still
// being checked count as failed until they are done, so that attempts sent
// at the same moment cannot pass a limit together. When an attempt may go
// on, the caller must call done with whether the password was wrong; only
// failed attempts count, and a success forgets the pair's failures.
func (ll *loginLimits) Attempt(name, addr string) (wait time.Duration, done func(failed bool)) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	now := ll.now()
	pk, ak := pairKey(name, addr), addressKey(addr)
	f := ll.pair(pk, now)
	byAddr := limiter(ll.address, addr, addressInterval, addressBurst)
	if n := f.n + ll.checking[pk]; n >= pairFree {
		if ll.checking[pk] > 0 { // the earlier attempts are still being checked
			wait = pairDelay(n)
		} else {
			wait = f.last.Add(pairDelay(n)).Sub(now)
		}
	}
	if short := float64(1+ll.checking[ak]) - byAddr.TokensAt(now); short > 0 {
		wait = max(wait, time.Duration(short*float64(addressInterval)))
	}
	if wait > 0 {
		return wait, nil
	}
	ll.checking[pk]++
	ll.checking[ak]++
	return 0, func(failed bool) {
		ll.mu.Lock()
		defer ll.mu.Unlock()
		for _, k := range []string{pk, ak} {
			if ll.checking[k]--; ll.checking[k] <= 0 {
				delete(ll.checking, k)
			}
		}
		now := ll.now()
		if !failed {
			delete(ll.pairs, pk)
			return
		}
		f := ll.pair(pk, now)
		f.n++
		f.last = now
		byAddr.AllowN(now, 1)
	}
}

// pair returns the failures of pair key pk, made when missing (and kept
// in the map), forgotten pairForget after the last one. When the map is
// large it first forgets the pairs that hold no attempt back now.
func (ll *loginLimits) pair(pk string, now time.Time) *failures {
	f := ll.pairs[pk]
	if f != nil && now.Sub(f.last) < pairForget {
		return f
	}
	if f == nil && len(ll.pairs) >= maxLimited {
		for k, g := range ll.pairs {
			if now.Sub(g.last) >= max(pairDelay(g.n), pairForget/24) {
				delete(ll.pairs, k)
			}
		}
	}
	f = &failures{}
	ll.pairs[pk] = f
	return f
}

// WaitMessage sets the Retry-After header of a refused login attempt that
// must wait (rounded up to whole seconds) and returns the id of its
// message with the seconds, for localizeCounted.
func WaitMessage(c echo.Context, wait time.Duration) string {
	return "acc_err_wait:" + strconv.Itoa(SetRetryAfter(c, wait))
}

// ErrGuessLimit refuses a guess of a password past the limits of Guess.
var ErrGuessLimit = &UserError{http.StatusTooManyRequests, "int_err_guesses"}

// Guess runs check, a guess of a secret by account userID (a tournament's
// password: check returns wrong for a wrong one), within the limits of
// failed logins, counted apart from them: per account and address pairFree
// free wrong guesses, then a wait doubled after each (at most
// pairMaxDelay); per address addressBurst, then one per addressInterval.
// Past them it returns ErrGuessLimit (429) with Retry-After, without
// calling check.
func (h *Handlers) Guess(c echo.Context, userID uint, wrong error, check func() error) error {
	wait, done := h.Guesses.Attempt("u"+strconv.FormatUint(uint64(userID), 10), ClientKey(c))
	if wait > 0 {
		SetRetryAfter(c, wait)
		return ErrGuessLimit
	}
	err := check()
	done(errors.Is(err, wrong))
	return err
}
