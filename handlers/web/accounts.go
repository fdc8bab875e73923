package web

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
	"oware/handlers/core"
	"oware/route"
	"oware/views"
)

var usernameRe = regexp.MustCompile(`^[A-Za-z0-9_-]{3,20}$`)

// logIn starts a session for u (a new one: session rotation) and adds the
// games the visitor played as a guest in this browser to the account.
func (h *Site) logIn(c echo.Context, u *accounts.User) error {
	if err := h.Games.ClaimVisitorSeats(c.Request().Context(), h.Visit(c).Sess.Visitor(), u.ID); err != nil {
		return err
	}
	return h.Visit(c).Sess.Renew(u)
}

// authPage renders the login or registration form.
func (h *Site) authPage(c echo.Context, status int, v views.AuthView) error {
	title, path := "title_login", route.LoginPattern
	if v.Register {
		title, path = "title_register", route.RegisterPattern
	}
	p := h.Page(c, title, path)
	v.CSRF = core.CsrfToken(c)
	if v.Error != "" {
		v.Error = core.LocalizeCounted(p.L, v.Error)
	}
	for field, key := range v.Fields {
		v.Fields[field] = p.L.T(key)
	}
	return core.Render(c, status, views.AuthPage(p, v))
}

// registerPage is the registration form.
func (h *Site) registerPage(c echo.Context) error {
	return h.authPage(c, http.StatusOK, views.AuthView{Register: true, Next: localPath(c.QueryParam("next"))})
}

// loginPage is the login form.
func (h *Site) loginPage(c echo.Context) error {
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
	return views.PlayerURL(core.LangOf(c), u.Username)
}

// registerForm creates the account, logs the visitor in and adds the games
// they played as a guest in this browser.
func (h *Site) registerForm(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("username"))
	email := strings.TrimSpace(c.FormValue("email"))
	pw := c.FormValue("password")
	v := views.AuthView{Register: true, Username: name, Email: email, Next: localPath(c.FormValue("next"))}
	if v.Fields = registrationErrors(name, pw, email); len(v.Fields) > 0 {
		return h.authPage(c, http.StatusUnprocessableEntity, v)
	}
	if !h.Limits.Registration(core.ClientKey(c)) {
		v.Error = "acc_err_too_many"
		return h.authPage(c, http.StatusTooManyRequests, v)
	}
	u, err := h.Accounts.Register(c.Request().Context(), name, core.LangOf(c), email, pw)
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
	return core.Redirect(c, afterLogin(c, u))
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
func (h *Site) loginForm(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("username"))
	pw := c.FormValue("password")
	key, addr := strings.ToLower(name), core.ClientKey(c)
	v := views.AuthView{Username: name, Next: localPath(c.FormValue("next"))}
	wait, done := h.Limits.Attempt(key, addr)
	if wait > 0 {
		v.Error = core.WaitMessage(c, wait)
		return h.authPage(c, http.StatusTooManyRequests, v)
	}
	failed := true
	defer func() { done(failed) }()
	u, err := h.Accounts.LogIn(c.Request().Context(), name, pw)
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
	return core.Redirect(c, afterLogin(c, u))
}

// logoutForm ends every session of the account (the epoch moves on) and
// deletes the cookie.
func (h *Site) logoutForm(c echo.Context) error {
	v := h.Visit(c)
	if h.User(c) != nil {
		if err := h.Accounts.LogOut(c.Request().Context(), h.User(c).ID); err != nil {
			return err
		}
	}
	if err := v.Sess.End(); err != nil {
		return err
	}
	return core.Redirect(c, route.Home(core.LangOf(c)))
}

// settings renders the account page with a notice or an error (message ids).
func (h *Site) settings(c echo.Context, u *accounts.User, status int, notice, errKey string) error {
	return h.settingsWith(c, u, status, notice, errKey, "")
}

// settingsWith is settings that also shows the secret of a token made by
// this request ("" for none; bots.go).
func (h *Site) settingsWith(c echo.Context, u *accounts.User, status int, notice, errKey, secret string) error {
	p := h.Page(c, "title_account", route.AccountPattern)
	v := views.AccountView{Username: u.Username, Language: u.Language, CSRF: core.CsrfToken(c), MoveSound: u.MoveSound, TurnEmail: u.TurnEmail}
	tokens, err := h.tokensView(c, u, secret)
	if err != nil {
		return err
	}
	v.Tokens = tokens
	if u.Email != nil {
		v.Email = *u.Email
	}
	if notice != "" {
		v.Notice = p.L.T(notice)
	}
	if errKey != "" {
		v.Error = core.LocalizeCounted(p.L, errKey)
	}
	return core.Render(c, status, views.AccountPage(p, v))
}

// accountPage is the account settings page (a visitor goes to the login).
func (h *Site) accountPage(c echo.Context) error {
	u := h.User(c)
	notice := ""
	f, err := h.Visit(c).Sess.TakeFlash()
	if err != nil {
		h.Log.ErrorContext(c.Request().Context(), "session", "err", err)
	}
	if strings.HasPrefix(f, "acc_") {
		notice = f
	}
	return h.settings(c, u, http.StatusOK, notice, "")
}

// languageForm stores the preferred language ("" = the browser's) and
// shows the settings in it.
func (h *Site) languageForm(c echo.Context) error {
	u := h.User(c)
	lang := c.FormValue("language")
	if lang != "" && !core.ValidLang(lang) {
		return core.ErrBadRequest
	}
	if err := h.Accounts.SetLanguage(c.Request().Context(), u.ID, lang); err != nil {
		return err
	}
	if err := h.Visit(c).Sess.SetFlash("acc_saved"); err != nil {
		return err
	}
	to := core.LangOf(c)
	if lang != "" {
		to = lang
	}
	return core.Redirect(c, route.Account(to))
}

// withPassword returns the handler of a setting that asks for the current
// password (form field current), behind requireUser: it compares it with
// the player's within the failed-login limits and runs change only when
// it is right; otherwise it answers the settings with the refusal (429,
// 401).
func (h *Site) withPassword(change func(c echo.Context, u *accounts.User) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		u := h.User(c)
		key, addr := u.UsernameLower, core.ClientKey(c)
		wait, done := h.Limits.Attempt(key, addr)
		if wait > 0 {
			return h.settings(c, u, http.StatusTooManyRequests, "", core.WaitMessage(c, wait))
		}
		right := h.Accounts.Confirm(u, c.FormValue("current"))
		done(!right)
		if !right {
			return h.settings(c, u, http.StatusUnauthorized, "", "acc_err_current")
		}
		return change(c, u)
	}
}

// passwordForm changes the password: every other session ends, this one
// is renewed.
func (h *Site) passwordForm(c echo.Context, u *accounts.User) error {
	pw := c.FormValue("password")
	if !validPassword(pw) {
		return h.settings(c, u, http.StatusUnprocessableEntity, "", "acc_err_password_length")
	}
	if err := h.Accounts.SetPassword(c.Request().Context(), u, pw); err != nil {
		return err
	}
	if err := h.Visit(c).Sess.Renew(u); err != nil {
		return err
	}
	return h.settings(c, u, http.StatusOK, "acc_password_changed", "")
}

// deleteForm deletes the account (after the password) and logs out; the
// games stay, shown as played by a deleted player.
func (h *Site) deleteForm(c echo.Context, u *accounts.User) error {
	if err := h.Accounts.Delete(c.Request().Context(), u.ID); err != nil {
		return err
	}
	if err := h.Visit(c).Sess.End(); err != nil {
		return err
	}
	return core.Redirect(c, route.Home(core.LangOf(c)))
}

// emailForm sets or removes (an empty field) the account's address, after
// the current password: whoever holds the address can set the password.
func (h *Site) emailForm(c echo.Context, u *accounts.User) error {
	email := strings.TrimSpace(c.FormValue("email"))
	if email != "" && !validEmail(email) {
		return h.settings(c, u, http.StatusUnprocessableEntity, "", "acc_err_email")
	}
	if err := h.Accounts.SetEmail(c.Request().Context(), u, email); err != nil {
		return err
	}
	return h.settings(c, u, http.StatusOK, "acc_email_saved", "")
}
