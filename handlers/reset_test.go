package handlers_test

import (
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"oware/content"
	"oware/handlers"
	"oware/mailer"
	"oware/mailer/mailertest"
	"oware/models"
)

// newMailSite is newSite with a mailer on a local SMTP server, which it
// returns too.
func newMailSite(t *testing.T, db *models.DB) (*site, *mailer.Mailer, *mailertest.Server) {
	t.Helper()
	if err := content.Load(t.Context(), db, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	smtp := mailertest.Start(t)
	m, err := mailer.New(smtp.URL("oware@example.org"), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	e, err := handlers.New(withServices(t, db, handlers.Config{
		BaseURL: "http://" + srv.Listener.Addr().String(),
		Secret:  []byte("0123456789abcdef0123456789abcdef"),
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		Mail:    m,
	}))
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = e
	srv.Start()
	t.Cleanup(srv.Close)
	return &site{t: t, srv: srv, db: db, base: "http://" + srv.Listener.Addr().String()}, m, smtp
}

// askReset sends the form of the reset request page in lang for email.
func (s *site) askReset(c *http.Client, lang, email string) (int, string) {
	s.t.Helper()
	_, _, page := s.get(c, "/"+lang+"/password-reset")
	code, _, body := s.post(c, "/"+lang+"/password-reset", url.Values{"_csrf": {s.csrf(page)}, "email": {email}}, nil)
	return code, body
}

// setPassword sends the form of a reset link's page.
func (s *site) setPassword(c *http.Client, link, password string) (int, string) {
	s.t.Helper()
	_, _, page := s.get(c, "/en/")
	code, _, body := s.post(c, link, url.Values{"_csrf": {s.csrf(page)}, "username": {"x"}, "password": {password}}, nil)
	return code, body
}

var resetLinkRe = regexp.MustCompile(`http://[^\s]+/(cs|it|en)/password-reset/[A-Za-z0-9_-]{43}`)

// resetLink returns the path of the reset link in mail m, after checking
// its subject and greeting (in Czech).
func resetLink(t *testing.T, s *site, m mailertest.Mail) string {
	t.Helper()
	text, err := m.Text()
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(s.srv.URL, "http://")
	subj, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if subj != "Nové heslo na "+host || !strings.HasPrefix(text, "Dobrý den, ama,\n") {
		t.Errorf("mail not in Czech: subject %q, text:\n%s", subj, text)
	}
	link := resetLinkRe.FindString(text)
	if !strings.HasPrefix(link, s.srv.URL+"/cs/password-reset/") {
		t.Fatalf("no link to this site's Czech reset page in:\n%s", text)
	}
	return strings.TrimPrefix(link, s.srv.URL)
}

func TestPasswordResetByMail(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s, m, smtp := newMailSite(t, db)
		// ama registers in Czech with an address.
		ama := s.browser()
		_, _, page := s.get(ama, "/cs/register")
		code, _, _ := s.post(ama, "/cs/register", url.Values{"_csrf": {s.csrf(page)}, "username": {"ama"},
			"password": {testPassword}, "email": {"ama@example.org"}}, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("register: %d", code)
		}
		if _, _, login := s.get(nil, "/en/login"); !strings.Contains(login, `href="/en/password-reset">Forgot your password?</a>`) {
			t.Error("the login page has no link to the reset page")
		}

		// The same answer for an address of an account (in another case)
		// and for one of none; only the first gets a mail, in Czech.
		visitor := s.browser()
		code, known := s.askReset(visitor, "en", "AMA@example.org")
		code2, unknown := s.askReset(visitor, "en", "nobody@example.org")
		m.Wait()
		if code != http.StatusOK || code2 != http.StatusOK ||
			strings.ReplaceAll(known, "AMA@example.org", "X") != strings.ReplaceAll(unknown, "nobody@example.org", "X") {
			t.Errorf("answers differ: %d, %d", code, code2)
		}
		if !strings.Contains(known, "a link to set a new password is on its way there") {
			t.Errorf("answer:\n%s", known)
		}
		mails := smtp.Mails()
		if len(mails) != 1 || len(mails[0].To) != 1 || mails[0].To[0] != "ama@example.org" || mails[0].From != "oware@example.org" {
			t.Fatalf("mails: %+v, want one to ama@example.org", mails)
		}
		link := resetLink(t, s, mails[0])

		// The link's page; a password too short is refused and spends
		// nothing.
		if code, _, body := s.get(visitor, link); code != http.StatusOK || !strings.Contains(body, `name="password"`) {
			t.Fatalf("link page: %d\n%s", code, body)
		}
		if code, body := s.setPassword(visitor, link, "short"); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "Heslo musí mít") {
			t.Errorf("short password: %d\n%s", code, body)
		}
		if code, body := s.setPassword(visitor, link, "a brand new password"); code != http.StatusOK ||
			!strings.Contains(body, "Nové heslo je nastavené") {
			t.Fatalf("reset: %d\n%s", code, body)
		}
		// ama's session ended; the old password no longer works, the new
		// one does (through the login form, with its limits).
		if got := s.loggedInAs(ama); got != "" {
			t.Errorf("still logged in as %q after the reset", got)
		}
		if code, _, _ := s.login(s.browser(), "en", "ama", testPassword); code != http.StatusUnauthorized {
			t.Errorf("old password: %d, want 401", code)
		}
		if code, _, _ := s.login(s.browser(), "en", "ama", "a brand new password"); code != http.StatusSeeOther {
			t.Errorf("new password: %d, want 303", code)
		}

		// The link works once.
		for _, send := range []func() (int, string){
			func() (int, string) { c, _, b := s.get(visitor, link); return c, b },
			func() (int, string) { return s.setPassword(visitor, link, "yet another password") },
		} {
			if code, body := send(); code != http.StatusGone || !strings.Contains(body, "Tento odkaz už byl použit") {
				t.Errorf("spent link: %d\n%s", code, body)
			}
		}

		// An expired link.
		s.askReset(visitor, "it", "ama@example.org")
		m.Wait()
		if mails = smtp.Mails(); len(mails) != 2 {
			t.Fatalf("%d mails, want 2", len(mails))
		}
		expired := resetLink(t, s, mails[1])
		if expired == link {
			t.Fatal("the same link twice")
		}
		if err := db.Gorm.Exec("UPDATE password_resets SET expires_at = ? WHERE used_at IS NULL", time.Now().Add(-time.Second)).Error; err != nil {
			t.Fatal(err)
		}
		if code, body := s.setPassword(visitor, expired, "yet another password"); code != http.StatusGone ||
			!strings.Contains(body, "Platnost odkazu vypršela") {
			t.Errorf("expired link: %d\n%s", code, body)
		}
		if code, _, _ := s.login(s.browser(), "en", "ama", "a brand new password"); code != http.StatusSeeOther {
			t.Errorf("password after the expired link: %d, want 303", code)
		}
		// A link that never was.
		if code, _, body := s.get(visitor, "/it/password-reset/"+strings.Repeat("A", 43)); code != http.StatusNotFound ||
			!strings.Contains(body, "Questo link non è valido") {
			t.Errorf("unknown link: %d\n%s", code, body)
		}

		// A bad address is refused; past 5 requests from one address,
		// 429; past 3 mails in a row to one account, no more mail.
		if code, body := s.askReset(visitor, "en", "not an address"); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "That email address is not valid.") {
			t.Errorf("bad address: %d\n%s", code, body)
		}
		for i, want := range []int{http.StatusOK, http.StatusOK, http.StatusTooManyRequests} {
			if code, _ := s.askReset(visitor, "en", "ama@example.org"); code != want {
				t.Errorf("request %d: %d, want %d", i+4, code, want)
			}
		}
		m.Wait()
		if n := len(smtp.Mails()); n != 3 {
			t.Errorf("%d mails, want 3 (the fourth in a row to one account is not sent)", n)
		}
	})
}

func TestPasswordResetWithoutMail(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s := newSite(t, db)
		for lang, want := range map[string]string{
			"en": "Password resets are not available on this site",
			"cs": "Obnovení hesla na tomto webu není k dispozici",
			"it": "Su questo sito non è possibile reimpostare la password",
		} {
			code, _, body := s.get(nil, "/"+lang+"/password-reset")
			if code != http.StatusOK || !strings.Contains(body, want) || strings.Contains(body, `name="email"`) {
				t.Errorf("%s: %d\n%s", lang, code, body)
			}
		}
		c := s.browser()
		if code, body := s.askReset(c, "en", "ama@example.org"); code != http.StatusNotFound ||
			!strings.Contains(body, "Password resets are not available on this site") {
			t.Errorf("request without mail: %d\n%s", code, body)
		}
	})
}

// setEmail sends the account page's email form.
func (s *site) setEmail(c *http.Client, email, current string) (int, string) {
	s.t.Helper()
	_, _, page := s.get(c, "/en/account")
	code, _, body := s.post(c, "/en/account/email", url.Values{"_csrf": {s.csrf(page)}, "email": {email}, "current": {current}}, nil)
	return code, body
}

// emailOf returns the stored address of account name, "" for none.
func emailOf(t *testing.T, db *models.DB, name string) string {
	t.Helper()
	u, err := db.UserByName(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	if u.Email == nil {
		return ""
	}
	return *u.Email
}

func TestAccountEmail(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB) {
		s, m, smtp := newMailSite(t, db)
		kofi := s.account("kofi") // registered without an address
		if _, _, page := s.get(kofi, "/en/account"); !strings.Contains(page, `action="/en/account/email"`) {
			t.Fatal("no email form on the account page")
		}
		if code, body := s.setEmail(kofi, "kofi@example.org", "wrong password"); code != http.StatusUnauthorized ||
			!strings.Contains(body, "The current password is wrong.") || emailOf(t, db, "kofi") != "" {
			t.Errorf("wrong password: %d, stored %q", code, emailOf(t, db, "kofi"))
		}
		if code, body := s.setEmail(kofi, "Kofi <kofi@example.org>", testPassword); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "That email address is not valid.") || emailOf(t, db, "kofi") != "" {
			t.Errorf("bad address: %d, stored %q", code, emailOf(t, db, "kofi"))
		}
		if code, body := s.setEmail(kofi, "kofi@example.org", testPassword); code != http.StatusOK ||
			!strings.Contains(body, "Your email address is saved.") || !strings.Contains(body, `value="kofi@example.org"`) {
			t.Errorf("set: %d\n%s", code, body)
		}
		if got := emailOf(t, db, "kofi"); got != "kofi@example.org" {
			t.Errorf("stored %q, want kofi@example.org", got)
		}
		s.askReset(s.browser(), "en", "kofi@example.org")
		m.Wait()
		if mails := smtp.Mails(); len(mails) != 1 || mails[0].To[0] != "kofi@example.org" {
			t.Errorf("mails after the reset request: %+v", mails)
		}
		if code, _ := s.setEmail(kofi, "", testPassword); code != http.StatusOK || emailOf(t, db, "kofi") != "" {
			t.Errorf("remove: %d, stored %q", code, emailOf(t, db, "kofi"))
		}
	})
}
