package handlers

import (
	"errors"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/route"
	"oware/views"
)

var usernameRe = regexp.MustCompile(`^[A-Za-z0-9_-]{3,20}$`)

// logIn starts a session for u (a new one: session rotation) and adds the
// games the visitor played as a guest in this browser to the account.
func (h *handler) logIn(c echo.Context, u *accounts.User) error {
	if err := h.games.ClaimVisitorSeats(c.Request().Context(), h.visit(c).sess.visitor(), u.ID); err != nil {
		return err
	}
	return h.visit(c).sess.renew(u)
}

// authPage renders the login or registration form.
func (h *handler) authPage(c echo.Context, status int, v views.AuthView) error {
	title, path := "title_login", route.LoginPattern
	if v.Register {
		title, path = "title_register", route.RegisterPattern
	}
	p := h.page(c, title, path)
	v.CSRF = csrfToken(c)
	if v.Error != "" {
		v.Error = localizeCounted(p.L, v.Error)
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

// afterLogin returns where a login or registration leads: the form's next
// page, else the player's page.
func afterLogin(c echo.Context, u *accounts.User) string {
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
	if !h.limits.registration(clientKey(c)) {
		v.Error = "acc_err_too_many"
		return h.authPage(c, http.StatusTooManyRequests, v)
	}
	u, err := h.accounts.Register(c.Request().Context(), name, langOf(c), email, pw)
	if err != nil {
		if errors.Is(err, accounts.ErrTaken) {
			v.Fields = map[string]string{"username": "acc_err_taken"}
			return h.authPage(c, http.StatusUnprocessableEntity, v)
		}
		return err
	}
	if err := h.logIn(c, u); err != nil {
		return err
	}
	return redirect(c, afterLogin(c, u))
}

// registrationErrors checks every field of the registration form at once:
// the message id of each field's error by field name, none when all are
// right.
func registrationErrors(name, pw, email string) map[string]string {
	errs := map[string]string{}
	if !usernameRe.MatchString(name) {
		errs["username"] = "acc_err_username"
	}
	if !validPassword(pw) {
		errs["password"] = "acc_err_password_length"
	}
	if email != "" && !validEmail(email) {
		errs["email"] = "acc_err_email"
	}
	return errs
}

// validPassword reports whether pw has 10 to 200 characters, the rule of
// every new password (registration, change, reset).
func validPassword(pw string) bool {
	n := utf8.RuneCountInString(pw)
	return n >= 10 && n <= 200
}

// validEmail reports whether email is a bare address (no name, no angle
// brackets) of at most 254 bytes.
func validEmail(email string) bool {
	a, err := mail.ParseAddress(email)
	return err == nil && a.Address == email && len(email) <= 254
}

// loginForm checks the name and password, within the failed-login limits.
func (h *handler) loginForm(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("username"))
	pw := c.FormValue("password")
	key, addr := strings.ToLower(name), clientKey(c)
	v := views.AuthView{Username: name, Next: localPath(c.FormValue("next"))}
	wait, done := h.limits.attempt(key, addr)
	if wait > 0 {
		v.Error = waitMessage(c, wait)
		return h.authPage(c, http.StatusTooManyRequests, v)
	}
	failed := true
	defer func() { done(failed) }()
	u, err := h.accounts.LogIn(c.Request().Context(), name, pw)
	if err != nil {
		return err
	}
	if u == nil {
		v.Error = "acc_err_login"
		return h.authPage(c, http.StatusUnauthorized, v)
	}
	failed = false
	if err := h.logIn(c, u); err != nil {
		return err
	}
	return redirect(c, afterLogin(c, u))
}

// logoutForm ends every session of the account (the epoch moves on) and
// deletes the cookie.
func (h *handler) logoutForm(c echo.Context) error {
	v := h.visit(c)
	if h.user(c) != nil {
		if err := h.accounts.LogOut(c.Request().Context(), h.user(c).ID); err != nil {
			return err
		}
	}
	if err := v.sess.end(); err != nil {
		return err
	}
	return redirect(c, route.Home(langOf(c)))
}

// requireUser is the middleware of the pages and forms of an account: a
// visitor goes to the login page, which leads back to the page (after a
// form: to the account page), and the handler does not run. Behind it
// h.user(c) is the logged-in player.
func (h *handler) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		u, err := h.account(c)
		if err != nil {
			return err
		}
		if u != nil {
			return next(c)
		}
		back := route.Account(langOf(c))
		if c.Request().Method == http.MethodGet {
			back = c.Request().URL.RequestURI()
		}
		return redirect(c, route.Login(langOf(c))+"?next="+url.QueryEscape(back))
	}
}

// settings renders the account page with a notice or an error (message ids).
func (h *handler) settings(c echo.Context, u *accounts.User, status int, notice, errKey string) error {
	p := h.page(c, "title_account", route.AccountPattern)
	v := views.AccountView{Username: u.Username, Language: u.Language, CSRF: csrfToken(c), MoveSound: u.MoveSound, TurnEmail: u.TurnEmail}
	if u.Email != nil {
		v.Email = *u.Email
	}
	if notice != "" {
		v.Notice = p.L.T(notice)
	}
	if errKey != "" {
		v.Error = localizeCounted(p.L, errKey)
	}
	return render(c, status, views.AccountPage(p, v))
}

// accountPage is the account settings page (a visitor goes to the login).
func (h *handler) accountPage(c echo.Context) error {
	u := h.user(c)
	notice := ""
	f, err := h.visit(c).sess.takeFlash()
	if err != nil {
		h.log.ErrorContext(c.Request().Context(), "session", "err", err)
	}
	if strings.HasPrefix(f, "acc_") {
		notice = f
	}
	return h.settings(c, u, http.StatusOK, notice, "")
}

// languageForm stores the preferred language ("" = the browser's) and
// shows the settings in it.
func (h *handler) languageForm(c echo.Context) error {
	u := h.user(c)
	lang := c.FormValue("language")
	if lang != "" && !validLang(lang) {
		return errBadRequest
	}
	if err := h.accounts.SetLanguage(c.Request().Context(), u.ID, lang); err != nil {
		return err
	}
	if err := h.visit(c).sess.setFlash("acc_saved"); err != nil {
		return err
	}
	to := langOf(c)
	if lang != "" {
		to = lang
	}
	return redirect(c, route.Account(to))
}

// withPassword returns the handler of a setting that asks for the current
// password (form field current), behind requireUser: it compares it with
// the player's within the failed-login limits and runs change only when
// it is right; otherwise it answers the settings with the refusal (429,
// 401).
func (h *handler) withPassword(change func(c echo.Context, u *accounts.User) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		u := h.user(c)
		key, addr := u.UsernameLower, clientKey(c)
		wait, done := h.limits.attempt(key, addr)
		if wait > 0 {
			return h.settings(c, u, http.StatusTooManyRequests, "", waitMessage(c, wait))
		}
		right := h.accounts.Confirm(u, c.FormValue("current"))
		done(!right)
		if !right {
			return h.settings(c, u, http.StatusUnauthorized, "", "acc_err_current")
		}
		return change(c, u)
	}
}

// passwordForm changes the password: every other session ends, this one
// is renewed.
func (h *handler) passwordForm(c echo.Context, u *accounts.User) error {
	pw := c.FormValue("password")
	if !validPassword(pw) {
		return h.settings(c, u, http.StatusUnprocessableEntity, "", "acc_err_password_length")
	}
	if err := h.accounts.SetPassword(c.Request().Context(), u, pw); err != nil {
		return err
	}
	if err := h.visit(c).sess.renew(u); err != nil {
		return err
	}
	return h.settings(c, u, http.StatusOK, "acc_password_changed", "")
}

// deleteForm deletes the account (after the password) and logs out; the
// games stay, shown as played by a deleted player.
func (h *handler) deleteForm(c echo.Context, u *accounts.User) error {
	if err := h.accounts.Delete(c.Request().Context(), u.ID); err != nil {
		return err
	}
	if err := h.visit(c).sess.end(); err != nil {
		return err
	}
	return redirect(c, route.Home(langOf(c)))
}

// emailForm sets or removes (an empty field) the account's address, after
// the current password: whoever holds the address can set the password.
func (h *handler) emailForm(c echo.Context, u *accounts.User) error {
	email := strings.TrimSpace(c.FormValue("email"))
	if email != "" && !validEmail(email) {
		return h.settings(c, u, http.StatusUnprocessableEntity, "", "acc_err_email")
	}
	if err := h.accounts.SetEmail(c.Request().Context(), u, email); err != nil {
		return err
	}
	return h.settings(c, u, http.StatusOK, "acc_email_saved", "")
}
