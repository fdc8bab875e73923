package web_test

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
	"oware/handlers/handlerstest"
	"oware/mailer"
	"oware/mailer/mailertest"
	"oware/models"
)

// newMailSite is newSite with a mailer on a local SMTP server, which it
// returns too.
func newMailSite(t *testing.T, db *models.DB) (*handlerstest.Site, *mailer.Mailer, *mailertest.Server) {
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
	e, err := handlers.New(handlerstest.WithServices(t, db, handlers.Config{
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
	return &handlerstest.Site{T: t, Srv: srv, Db: db, Base: "http://" + srv.Listener.Addr().String()}, m, smtp
}

var resetLinkRe = regexp.MustCompile(`http://[^\s]+/(cs|it|en)/password-reset/[A-Za-z0-9_-]{43}`)

// resetLink returns the path of the reset link in mail m, after checking
// its subject and greeting (in Czech).
func resetLink(t *testing.T, s *handlerstest.Site, m mailertest.Mail) string {
	t.Helper()
	text, err := m.Text()
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(s.Srv.URL, "http://")
	subj, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if subj != "Nové heslo na "+host || !strings.HasPrefix(text, "Dobrý den, ama,\n") {
		t.Errorf("mail not in Czech: subject %q, text:\n%s", subj, text)
	}
	link := resetLinkRe.FindString(text)
	if !strings.HasPrefix(link, s.Srv.URL+"/cs/password-reset/") {
		t.Fatalf("no link to this site's Czech reset page in:\n%s", text)
	}
	return strings.TrimPrefix(link, s.Srv.URL)
}

func TestPasswordResetByMail(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s, m, smtp := newMailSite(t, db)
		// ama registers in Czech with an address.
		ama := s.Browser()
		_, _, page := s.Get(ama, "/cs/register")
		code, _, _ := s.Post(ama, "/cs/register", url.Values{"_csrf": {s.Csrf(page)}, "username": {"ama"},
			"password": {handlerstest.TestPassword}, "email": {"ama@example.org"}}, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("register: %d", code)
		}
		if _, _, login := s.Get(nil, "/en/login"); !strings.Contains(login, `href="/en/password-reset">Forgot your password?</a>`) {
			t.Error("the login page has no link to the reset page")
		}

		// The same answer for an address of an account (in another case)
		// and for one of none; only the first gets a mail, in Czech.
		visitor := s.Browser()
		code, known := s.AskReset(visitor, "en", "AMA@example.org")
		code2, unknown := s.AskReset(visitor, "en", "nobody@example.org")
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
		if code, _, body := s.Get(visitor, link); code != http.StatusOK || !strings.Contains(body, `name="password"`) {
			t.Fatalf("link page: %d\n%s", code, body)
		}
		if code, body := s.SetPassword(visitor, link, "short"); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "Heslo musí mít") {
			t.Errorf("short password: %d\n%s", code, body)
		}
		if code, body := s.SetPassword(visitor, link, "a brand new password"); code != http.StatusOK ||
			!strings.Contains(body, "Nové heslo je nastavené") {
			t.Fatalf("reset: %d\n%s", code, body)
		}
		// ama's session ended; the old password no longer works, the new
		// one does (through the login form, with its limits).
		if got := s.LoggedInAs(ama); got != "" {
			t.Errorf("still logged in as %q after the reset", got)
		}
		if code, _, _ := s.Login(s.Browser(), "en", "ama", handlerstest.TestPassword); code != http.StatusUnauthorized {
			t.Errorf("old password: %d, want 401", code)
		}
		if code, _, _ := s.Login(s.Browser(), "en", "ama", "a brand new password"); code != http.StatusSeeOther {
			t.Errorf("new password: %d, want 303", code)
		}

		// The link works once.
		for _, send := range []func() (int, string){
			func() (int, string) { c, _, b := s.Get(visitor, link); return c, b },
			func() (int, string) { return s.SetPassword(visitor, link, "yet another password") },
		} {
			if code, body := send(); code != http.StatusGone || !strings.Contains(body, "Tento odkaz už byl použit") {
				t.Errorf("spent link: %d\n%s", code, body)
			}
		}

		// An expired link.
		s.AskReset(visitor, "it", "ama@example.org")
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
		if code, body := s.SetPassword(visitor, expired, "yet another password"); code != http.StatusGone ||
			!strings.Contains(body, "Platnost odkazu vypršela") {
			t.Errorf("expired link: %d\n%s", code, body)
		}
		if code, _, _ := s.Login(s.Browser(), "en", "ama", "a brand new password"); code != http.StatusSeeOther {
			t.Errorf("password after the expired link: %d, want 303", code)
		}
		// A link that never was.
		if code, _, body := s.Get(visitor, "/it/password-reset/"+strings.Repeat("A", 43)); code != http.StatusNotFound ||
			!strings.Contains(body, "Questo link non è valido") {
			t.Errorf("unknown link: %d\n%s", code, body)
		}

		// A bad address is refused; past 5 requests from one address,
		// 429; past 3 mails in a row to one account, no more mail.
		if code, body := s.AskReset(visitor, "en", "not an address"); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "That email address is not valid.") {
			t.Errorf("bad address: %d\n%s", code, body)
		}
		for i, want := range []int{http.StatusOK, http.StatusOK, http.StatusTooManyRequests} {
			if code, _ := s.AskReset(visitor, "en", "ama@example.org"); code != want {
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
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		for lang, want := range map[string]string{
			"en": "Password resets are not available on this site",
			"cs": "Obnovení hesla na tomto webu není k dispozici",
			"it": "Su questo sito non è possibile reimpostare la password",
		} {
			code, _, body := s.Get(nil, "/"+lang+"/password-reset")
			if code != http.StatusOK || !strings.Contains(body, want) || strings.Contains(body, `name="email"`) {
				t.Errorf("%s: %d\n%s", lang, code, body)
			}
		}
		c := s.Browser()
		if code, body := s.AskReset(c, "en", "ama@example.org"); code != http.StatusNotFound ||
			!strings.Contains(body, "Password resets are not available on this site") {
			t.Errorf("request without mail: %d\n%s", code, body)
		}
	})
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
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s, m, smtp := newMailSite(t, db)
		kofi := s.Account("kofi") // registered without an address
		if _, _, page := s.Get(kofi, "/en/account"); !strings.Contains(page, `action="/en/account/email"`) {
			t.Fatal("no email form on the account page")
		}
		if code, body := s.SetEmail(kofi, "kofi@example.org", "wrong password"); code != http.StatusUnauthorized ||
			!strings.Contains(body, "The current password is wrong.") || emailOf(t, db, "kofi") != "" {
			t.Errorf("wrong password: %d, stored %q", code, emailOf(t, db, "kofi"))
		}
		if code, body := s.SetEmail(kofi, "Kofi <kofi@example.org>", handlerstest.TestPassword); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "That email address is not valid.") || emailOf(t, db, "kofi") != "" {
			t.Errorf("bad address: %d, stored %q", code, emailOf(t, db, "kofi"))
		}
		if code, body := s.SetEmail(kofi, "kofi@example.org", handlerstest.TestPassword); code != http.StatusOK ||
			!strings.Contains(body, "Your email address is saved.") || !strings.Contains(body, `value="kofi@example.org"`) {
			t.Errorf("set: %d\n%s", code, body)
		}
		if got := emailOf(t, db, "kofi"); got != "kofi@example.org" {
			t.Errorf("stored %q, want kofi@example.org", got)
		}
		s.AskReset(s.Browser(), "en", "kofi@example.org")
		m.Wait()
		if mails := smtp.Mails(); len(mails) != 1 || mails[0].To[0] != "kofi@example.org" {
			t.Errorf("mails after the reset request: %+v", mails)
		}
		if code, _ := s.SetEmail(kofi, "", handlerstest.TestPassword); code != http.StatusOK || emailOf(t, db, "kofi") != "" {
			t.Errorf("remove: %d, stored %q", code, emailOf(t, db, "kofi"))
		}
	})
}
