package core

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"
)

// RateLimit is a per-client rate limit: Burst requests at once, then one
// more every Every. A zero field takes the default of the limit.
type RateLimit struct {
	Burst int
	Every time.Duration
}

// The default per-client limits: the analysis API, and the import page
// (reading a new record, and each page of a kept record's replay, which
// reads the record again).
var (
	DefaultAnalysisLimit = RateLimit{Burst: 10, Every: 2 * time.Second}
	DefaultImportLimit   = RateLimit{Burst: 30, Every: 500 * time.Millisecond}
	// DefaultChallengeLimit bounds the challenges a client opens (the
	// lobby's form, quick pairing and the API together, issue 19).
	DefaultChallengeLimit = RateLimit{Burst: 10, Every: 6 * time.Second}
	// DefaultPuzzleLimit bounds a client's puzzle attempts (a move of a
	// puzzle every 2 s, after 20 at once: more than a person plays, few
	// enough to keep scripts from farming ratings).
	DefaultPuzzleLimit = RateLimit{Burst: 20, Every: 2 * time.Second}
)

// Refusals past a rate limit.
var (
	ErrAnalysisLimit = &UserError{http.StatusTooManyRequests, "err_analysis_limit"}
	ErrImportLimit   = &UserError{http.StatusTooManyRequests, "err_import_limit"}
	ErrChallengeRate = &UserError{http.StatusTooManyRequests, "fr_err_challenge_rate"}
	ErrPuzzleRate    = &UserError{http.StatusTooManyRequests, "pz_err_rate"}
)

// maxLimited is how many clients (or pairs, limits.go) a limit keeps
// before it forgets those that no longer hold anyone back.
const maxLimited = 10000

// ClientLimit counts the requests of each client (clientKey) against a
// RateLimit, in memory, per instance.
type ClientLimit struct {
	RateLimit
	refusal *UserError // the answer past the limit

	mu sync.Mutex
	by map[string]*rate.Limiter
}

// NewRateLimit returns the limit rl (its zero fields from def) that
// refuses with refusal.
func NewRateLimit(rl, def RateLimit, refusal *UserError) *ClientLimit {
	if rl.Burst <= 0 {
		rl.Burst = def.Burst
	}
	if rl.Every <= 0 {
		rl.Every = def.Every
	}
	return &ClientLimit{RateLimit: rl, refusal: refusal, by: map[string]*rate.Limiter{}}
}

// Check counts a request of c's client. Past the limit it returns the
// refusal (429, localized as a page or as the API's JSON by handleError)
// and sets Retry-After to the interval, in whole seconds (at least 1);
// else nil.
func (l *ClientLimit) Check(c echo.Context) error {
	if l.Allow(ClientKey(c)) {
		return nil
	}
	SetRetryAfter(c, l.Every)
	return l.refusal
}

// CheckAccount is Check that also counts the request of account userID
// (0: none) under a key of its own: an account is held back from any
// address, and an address whatever its accounts.
func (l *ClientLimit) CheckAccount(c echo.Context, userID uint) error {
	ok := l.Allow(ClientKey(c))
	if userID != 0 {
		ok = l.Allow("u\x00"+strconv.FormatUint(uint64(userID), 10)) && ok
	}
	if ok {
		return nil
	}
	SetRetryAfter(c, l.Every)
	return l.refusal
}

// Allow counts a request of client and reports whether it is within the
// limit.
func (l *ClientLimit) Allow(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return limiter(l.by, client, l.Every, l.Burst).Allow()
}

// limiter returns the limiter of key in m, made when missing. Past
// maxLimited keys, the limiters that are full again (they hold nobody
// back) are forgotten first.
func limiter(m map[string]*rate.Limiter, key string, every time.Duration, burst int) *rate.Limiter {
	if l := m[key]; l != nil {
		return l
	}
	if len(m) >= maxLimited {
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

// ClientKey names the client of a request in every per-client limit
// (rates, logins, registrations, resets, event streams): its
// address (echo's RealIP: X-Forwarded-For only behind a proxy, see
// Config.BehindProxy), an IPv6 address by its /64 network, which one
// host usually has whole.
func ClientKey(c echo.Context) string {
	addr := c.RealIP()
	ip := net.ParseIP(addr)
	if ip == nil || ip.To4() != nil {
		return addr
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}
