package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/handlers/core"
	"oware/mailer"
	"oware/route"
	"oware/views"
)

// resetLifetime is how long a password reset link works.
const resetLifetime = time.Hour

// The limits of password resets: requests per client address, and mails
// per account (a burst, then one more per interval; in memory, per
// instance). Past the account's limit no mail is sent and the page does
// not say so.
var (
	resetAddressLimit = core.RateLimit{Burst: 5, Every: 10 * time.Minute}
	resetAccountLimit = core.RateLimit{Burst: 3, Every: 20 * time.Minute}
)

// resetLimits are the limits of reset requests by client address and of
// reset mails by account.
type resetLimits struct {
	byAddress, byAccount *core.ClientLimit
}

func newResetLimits() *resetLimits {
	return &resetLimits{
		byAddress: core.NewRateLimit(resetAddressLimit, resetAddressLimit, nil),
		byAccount: core.NewRateLimit(resetAccountLimit, resetAccountLimit, nil),
	}
}

// request counts a reset request from client (clientKey) and reports
// whether it is within the limit.
func (rl *resetLimits) request(client string) bool { return rl.byAddress.Allow(client) }

// mail counts a reset mail to account id and reports whether it is within
// the limit.
func (rl *resetLimits) mail(id uint) bool {
	return rl.byAccount.Allow(strconv.FormatUint(uint64(id), 10))
}

// forgot renders the page that asks for a reset link.
func (h *Site) forgot(c echo.Context, status int, v views.ForgotView) error {
	p := h.Page(c, "title_forgot", route.PasswordResetPattern)
	v.Available, v.CSRF = h.Mail != nil, core.CsrfToken(c)
	if v.Error != "" {
		v.Error = p.L.T(v.Error)
	}
	return core.Render(c, status, views.ForgotPage(p, v))
}

// forgotPage asks for the address of the account, or says that the site
// sends no mail.
func (h *Site) forgotPage(c echo.Context) error {
	return h.forgot(c, http.StatusOK, views.ForgotView{})
}

// forgotForm sends a reset link to every account (at most 5) with the
// address given, in the background, within the limits. The answer is the
// same whether or not an account has the address.
func (h *Site) forgotForm(c echo.Context) error {
	if h.Mail == nil {
		return h.forgot(c, http.StatusNotFound, views.ForgotView{})
	}
	email := strings.TrimSpace(c.FormValue("email"))
	v := views.ForgotView{Email: email}
	if !validEmail(email) {
		v.Error = "acc_err_email"
		return h.forgot(c, http.StatusUnprocessableEntity, v)
	}
	if !h.resets.request(core.ClientKey(c)) {
		v.Error = "reset_err_too_many"
		return h.forgot(c, http.StatusTooManyRequests, v)
	}
	users, err := h.Accounts.ByEmail(c.Request().Context(), email)
	if err != nil {
		return err
	}
	for i := range users {
		if h.resets.mail(users[i].ID) {
			if err := h.sendReset(c, &users[i]); err != nil {
				return err
			}
		}
	}
	v.Sent = true
	return h.forgot(c, http.StatusOK, v)
}

// sendReset stores a new reset link of u and mails it, in u's language
// (else the page's).
func (h *Site) sendReset(c echo.Context, u *accounts.User) error {
	token, err := h.Accounts.NewReset(c.Request().Context(), u.ID, h.Games.Now().Add(resetLifetime))
	if err != nil {
		return err
	}
	lang := u.Language
	if !core.ValidLang(lang) {
		lang = core.LangOf(c)
	}
	l, site := h.Localizers[lang], h.SiteName()
	link := h.Base + route.ResetToken(lang, token)
	h.Mail.SendLater(mailer.Message{
		To:      *u.Email,
		Subject: l.T("reset_mail_subject", "Site", site),
		// The link stays out of the localized texts, which are cached.
		Text: l.T("reset_mail_intro", "Name", u.Username, "Site", site) + "\n\n" + link + "\n\n" +
			l.T("reset_mail_outro") + "\n",
	})
	return nil
}

// reset renders the page of a reset link (its other languages are the
// same link's pages).
func (h *Site) reset(c echo.Context, status int, v views.ResetView) error {
	p := h.Page(c, "title_reset", route.Fill(route.ResetTokenPattern, c.Param("token")))
	v.CSRF = core.CsrfToken(c)
	for _, s := range []*string{&v.Refused, &v.Error} {
		if *s != "" {
			*s = p.L.T(*s)
		}
	}
	return core.Render(c, status, views.ResetPage(p, v))
}

// refusedReset renders why a reset link does not work: 404 for a link
// that never was, 410 for one expired or spent; another error is
// returned.
func (h *Site) refusedReset(c echo.Context, err error) error {
	switch {
	case errors.Is(err, accounts.ErrNotFound):
		return h.reset(c, http.StatusNotFound, views.ResetView{Refused: "reset_err_unknown"})
	case errors.Is(err, accounts.ErrTokenExpired):
		return h.reset(c, http.StatusGone, views.ResetView{Refused: "reset_err_expired"})
	case errors.Is(err, accounts.ErrTokenUsed):
		return h.reset(c, http.StatusGone, views.ResetView{Refused: "reset_err_used"})
	}
	return err
}

// resetPage is the form of a working reset link, or why it does not work.
func (h *Site) resetPage(c echo.Context) error {
	token := c.Param("token")
	u, err := h.Accounts.ResetUser(c.Request().Context(), token, h.Games.Now())
	if err != nil {
		return h.refusedReset(c, err)
	}
	return h.reset(c, http.StatusOK, views.ResetView{Token: token, Username: u.Username})
}

// resetForm sets the new password (the rules of registration) and spends
// the link; every session of the account ends. The player then logs in as
// usual, within the login limits.
func (h *Site) resetForm(c echo.Context) error {
	token := c.Param("token")
	ctx := c.Request().Context()
	u, err := h.Accounts.ResetUser(ctx, token, h.Games.Now())
	if err != nil {
		return h.refusedReset(c, err)
	}
	if !validPassword(c.FormValue("password")) {
		return h.reset(c, http.StatusUnprocessableEntity,
			views.ResetView{Token: token, Username: u.Username, Error: "acc_err_password_length"})
	}
	if err := h.Accounts.Reset(ctx, token, c.FormValue("password"), h.Games.Now()); err != nil {
		return h.refusedReset(c, err)
	}
	return h.reset(c, http.StatusOK, views.ResetView{Done: true})
}
