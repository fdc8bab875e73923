package handlers

import (
	"errors"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"oware/engine"
	"oware/models"
	"oware/views"
)

// accountRoutes registers the pages of issue 4: accounts, player pages,
// replays, OGN download and import.
func (h *handler) accountRoutes(g *echo.Group) {
	h.limits = newLoginLimits()
	g.GET("/register", h.registerPage)
	g.POST("/register", h.registerForm)
	g.GET("/login", h.loginPage)
	g.POST("/login", h.loginForm)
	g.POST("/logout", h.logoutForm)
	g.GET("/account", h.accountPage)
	g.POST("/account/language", h.languageForm)
	g.POST("/account/password", h.passwordForm)
	g.POST("/account/delete", h.deleteForm)
	g.GET("/players/:name", h.playerPage)
	g.GET("/games/:id/replay", h.replayPage)
	g.GET("/games/:id/record.ogn", h.recordFile)
	g.GET("/import", h.importPage)
	g.POST("/import", h.importForm)
	g.GET("/import/:id", h.importReplay)
}

// argonParams are the argon2id settings of new password hashes (OWASP's
// minimum: 19 MiB, 2 passes, 1 lane).
var argonParams = &argon2id.Params{Memory: 19 * 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// dummyHash is compared against when a login names no account, so that the
// answer takes as long as for a wrong password.
var dummyHash = sync.OnceValue(func() string {
	h, _ := argon2id.CreateHash("not a password of anyone", argonParams)
	return h
})

// hashSlots bounds the password hashes computed at once (19 MiB each).
var hashSlots = make(chan struct{}, 4)

// createHash hashes a new password.
func createHash(pw string) (string, error) {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return argon2id.CreateHash(pw, argonParams)
}

// passwordMatches compares a password with a stored hash.
func passwordMatches(pw, hash string) bool {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	ok, err := argon2id.ComparePasswordAndHash(pw, hash)
	return err == nil && ok
}

var usernameRe = regexp.MustCompile(`^[A-Za-z0-9_-]{3,20}$`)

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

// startSession replaces the visitor's session by a new one for u (session
// rotation): only the seat tokens are carried over. The CSRF cookie is
// dropped too: the next page gets a new token.
func (h *handler) startSession(c echo.Context, u *models.User) error {
	c.SetCookie(&http.Cookie{Name: "_csrf", Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: h.sessions.Options.Secure, SameSite: http.SameSiteLaxMode})
	old, _ := h.sessions.Get(c.Request(), sessionName)
	s := sessions.NewSession(h.sessions, sessionName)
	opts := *h.sessions.Options
	s.Options, s.IsNew = &opts, true
	for _, carried := range []string{"seats", sessTutorials} { // a visitor's seats and tutorial progress
		if v, ok := old.Values[carried]; ok {
			s.Values[carried] = v
		}
	}
	s.Values[sessUser] = u.ID
	s.Values[sessEpoch] = u.Epoch
	s.Values["sid"] = models.NewToken()
	return s.Save(c.Request(), c.Response())
}

// endSession deletes the session cookie.
func (h *handler) endSession(c echo.Context) error {
	s := sessions.NewSession(h.sessions, sessionName)
	opts := *h.sessions.Options
	opts.MaxAge = -1
	s.Options = &opts
	return s.Save(c.Request(), c.Response())
}

// claimGuestGames adds to u's history the games whose seat tokens the
// session holds.
func (h *handler) claimGuestGames(c echo.Context, u *models.User) {
	s, _ := h.sessions.Get(c.Request(), sessionName)
	list, _ := s.Values["seats"].(string)
	for _, e := range strings.Fields(list) {
		if id, tok, ok := strings.Cut(e, ":"); ok {
			h.linkSeat(c, u, id, tok)
		}
	}
}

// linkSeat records u as the player of the seat that token holds in game
// id, when that seat has no account yet.
func (h *handler) linkSeat(c echo.Context, u *models.User, id, token string) {
	ctx := c.Request().Context()
	g, err := h.db.LoadGame(ctx, id)
	if err != nil {
		return
	}
	if side := seatOf(g, token); side == engine.South || side == engine.North {
		if _, err := h.db.ClaimSeat(ctx, id, side.String(), u.ID); err != nil {
			h.log.Error("claim seat", "game", id, "err", err)
		}
	}
}

// linkNewSeat adds the game of a seat token just kept in the session to
// the logged-in player's history.
func (h *handler) linkNewSeat(c echo.Context, id, token string) {
	if u := h.currentUser(c); u != nil {
		h.linkSeat(c, u, id, token)
	}
}

// browserSeat returns the seat the visitor holds in g: by the seat token in
// the session, or through the logged-in account. A seat that belongs to an
// account is only held through that account, so that an old copy of a
// cookie loses it at logout or a password change.
func (h *handler) browserSeat(c echo.Context, g *models.Game, token string) engine.Side {
	seat := seatOf(g, token)
	owner := g.SouthUserID
	if seat == engine.North {
		owner = g.NorthUserID
	}
	if seat == engine.Nobody || owner != nil {
		return h.accountSeat(c, g)
	}
	return seat
}

// accountSeat returns the seat the logged-in player holds in g through the
// account, or engine.Nobody.
func (h *handler) accountSeat(c echo.Context, g *models.Game) engine.Side {
	u := h.currentUser(c)
	switch {
	case u == nil:
		return engine.Nobody
	case g.SouthUserID != nil && *g.SouthUserID == u.ID:
		return engine.South
	case g.NorthUserID != nil && *g.NorthUserID == u.ID:
		return engine.North
	}
	return engine.Nobody
}

// authPage renders the login or registration form.
func (h *handler) authPage(c echo.Context, status int, v views.AuthView) error {
	title, path := "title_login", "/login"
	if v.Register {
		title, path = "title_register", "/register"
	}
	p := h.page(c, title, path)
	v.CSRF = csrfToken(c)
	if v.Error != "" {
		v.Error = p.L.T(v.Error)
	}
	for field, key := range v.Fields {
		v.Fields[field] = p.L.T(key)
	}
	return render(c, status, views.AuthPage(p, v))
}

// registerPage is the registration form.
func (h *handler) registerPage(c echo.Context) error {
	return h.authPage(c, http.StatusOK, views.AuthView{Register: true, Next: localPath(c.QueryParam("next"))})
}

// loginPage is the login form.
func (h *handler) loginPage(c echo.Context) error {
	return h.authPage(c, http.StatusOK, views.AuthView{Next: localPath(c.QueryParam("next"))})
}

// localPath returns next when it is a path of this site ("/en/games/x"),
// else "" (no open redirect).
func localPath(next string) string {
	if len(next) < 2 || next[0] != '/' || next[1] == '/' || strings.ContainsAny(next, "\\\r\n") {
		return ""
	}
	if u, err := url.Parse(next); err != nil || u.Scheme != "" || u.Host != "" {
		return ""
	}
	return next
}

// home returns where a login or registration leads: the form's next page,
// else the player's page.
func home(c echo.Context, u *models.User) string {
	if next := localPath(c.FormValue("next")); next != "" {
		return next
	}
	return views.PlayerURL(langOf(c), u.Username)
}

// registerForm creates the account, logs the visitor in and adds the games
// they played as a guest in this browser.
func (h *handler) registerForm(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("username"))
	email := strings.TrimSpace(c.FormValue("email"))
	pw := c.FormValue("password")
	v := views.AuthView{Register: true, Username: name, Email: email, Next: localPath(c.FormValue("next"))}
	if v.Fields = registrationErrors(name, pw, email); len(v.Fields) > 0 {
		return h.authPage(c, http.StatusUnprocessableEntity, v)
	}
	u := &models.User{Username: name, Language: langOf(c)}
	if email != "" {
		u.Email = &email
	}
	if !h.limits.registration(c.RealIP()) {
		v.Error = "acc_err_too_many"
		return h.authPage(c, http.StatusTooManyRequests, v)
	}
	hash, err := createHash(pw)
	if err != nil {
		return err
	}
	u.PasswordHash = hash
	if err := h.db.CreateUser(c.Request().Context(), u); err != nil {
		if errors.Is(err, models.ErrConflict) {
			v.Fields = map[string]string{"username": "acc_err_taken"}
			return h.authPage(c, http.StatusUnprocessableEntity, v)
		}
		return err
	}
	h.claimGuestGames(c, u)
	if err := h.startSession(c, u); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, home(c, u))
}

// registrationErrors checks every field of the registration form at once:
// the message id of each field's error by field name, none when all are
// right.
func registrationErrors(name, pw, email string) map[string]string {
	errs := map[string]string{}
	if !usernameRe.MatchString(name) {
		errs["username"] = "acc_err_username"
	}
	if n := utf8.RuneCountInString(pw); n < 10 || n > 200 {
		errs["password"] = "acc_err_password_length"
	}
	if email != "" {
		if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 254 {
			errs["email"] = "acc_err_email"
		}
	}
	return errs
}

// loginForm checks the name and password, within the failed-login limits.
func (h *handler) loginForm(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("username"))
	pw := c.FormValue("password")
	key, addr := strings.ToLower(name), c.RealIP()
	v := views.AuthView{Username: name, Next: localPath(c.FormValue("next"))}
	ok, done := h.limits.attempt(key, addr)
	if !ok {
		v.Error = "acc_err_too_many"
		return h.authPage(c, http.StatusTooManyRequests, v)
	}
	failed := true
	defer func() { done(failed) }()
	u, err := h.db.UserByName(c.Request().Context(), name)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return err
	}
	hash := dummyHash()
	if u != nil {
		hash = u.PasswordHash
	}
	if !passwordMatches(pw, hash) || u == nil {
		v.Error = "acc_err_login"
		return h.authPage(c, http.StatusUnauthorized, v)
	}
	failed = false
	h.claimGuestGames(c, u)
	if err := h.startSession(c, u); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, home(c, u))
}

// logoutForm ends every session of the account (the epoch moves on) and
// deletes the cookie.
func (h *handler) logoutForm(c echo.Context) error {
	if u := h.currentUser(c); u != nil {
		if err := h.db.BumpEpoch(c.Request().Context(), u.ID); err != nil {
			return err
		}
	}
	if err := h.endSession(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/"+langOf(c)+"/")
}

// mustUser returns the logged-in player; for a visitor it returns nil and
// the answer (a redirect to the login page) has been written.
func (h *handler) mustUser(c echo.Context) (*models.User, error) {
	if u := h.currentUser(c); u != nil {
		return u, nil
	}
	next := "/" + langOf(c) + "/account"
	if c.Request().Method == http.MethodGet {
		next = c.Request().URL.RequestURI()
	}
	return nil, c.Redirect(http.StatusSeeOther, "/"+langOf(c)+"/login?next="+url.QueryEscape(next))
}

// settings renders the account page with a notice or an error (message ids).
func (h *handler) settings(c echo.Context, u *models.User, status int, notice, errKey string) error {
	p := h.page(c, "title_account", "/account")
	v := views.AccountView{Username: u.Username, Language: u.Language, CSRF: csrfToken(c)}
	if notice != "" {
		v.Notice = p.L.T(notice)
	}
	if errKey != "" {
		v.Error = p.L.T(errKey)
	}
	return render(c, status, views.AccountPage(p, v))
}

// accountPage is the account settings page (a visitor goes to the login).
func (h *handler) accountPage(c echo.Context) error {
	u, err := h.mustUser(c)
	if u == nil {
		return err
	}
	notice := ""
	if f := h.takeFlash(c); strings.HasPrefix(f, "acc_") {
		notice = f
	}
	return h.settings(c, u, http.StatusOK, notice, "")
}

// languageForm stores the preferred language ("" = the browser's) and
// shows the settings in it.
func (h *handler) languageForm(c echo.Context) error {
	u, err := h.mustUser(c)
	if u == nil {
		return err
	}
	lang := c.FormValue("language")
	if lang != "" && !validLang(lang) {
		return errBadRequest
	}
	if err := h.db.SetUserLanguage(c.Request().Context(), u.ID, lang); err != nil {
		return err
	}
	if err := h.flash(c, "acc_saved"); err != nil {
		return err
	}
	to := langOf(c)
	if lang != "" {
		to = lang
	}
	return c.Redirect(http.StatusSeeOther, "/"+to+"/account")
}

// checkPassword compares the form's current password with u's, within the
// failed-login limits; the answer is nil or a refusal already rendered.
func (h *handler) checkPassword(c echo.Context, u *models.User) (bool, error) {
	key, addr := u.UsernameLower, c.RealIP()
	ok, done := h.limits.attempt(key, addr)
	if !ok {
		return false, h.settings(c, u, http.StatusTooManyRequests, "", "acc_err_too_many")
	}
	right := passwordMatches(c.FormValue("current"), u.PasswordHash)
	done(!right)
	if !right {
		return false, h.settings(c, u, http.StatusUnauthorized, "", "acc_err_current")
	}
	return true, nil
}

// passwordForm changes the password: every other session ends, this one
// is renewed.
func (h *handler) passwordForm(c echo.Context) error {
	u, err := h.mustUser(c)
	if u == nil {
		return err
	}
	if ok, err := h.checkPassword(c, u); !ok {
		return err
	}
	pw := c.FormValue("password")
	if n := utf8.RuneCountInString(pw); n < 10 || n > 200 {
		return h.settings(c, u, http.StatusUnprocessableEntity, "", "acc_err_password_length")
	}
	hash, err := createHash(pw)
	if err != nil {
		return err
	}
	if err := h.db.SetUserPassword(c.Request().Context(), u.ID, hash); err != nil {
		return err
	}
	u.Epoch++
	if err := h.startSession(c, u); err != nil {
		return err
	}
	return h.settings(c, u, http.StatusOK, "acc_password_changed", "")
}

// deleteForm deletes the account (after the password) and logs out; the
// games stay, shown as played by a deleted player.
func (h *handler) deleteForm(c echo.Context) error {
	u, err := h.mustUser(c)
	if u == nil {
		return err
	}
	if ok, err := h.checkPassword(c, u); !ok {
		return err
	}
	if err := h.db.DeleteUser(c.Request().Context(), u.ID); err != nil {
		return err
	}
	if err := h.endSession(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/"+langOf(c)+"/")
}
