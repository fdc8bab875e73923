// Package mailertest is an SMTP server for tests (github.com/emersion/go-smtp)
// that keeps the mail it receives.
package mailertest

import (
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
)

// Mail is a message the server received.
type Mail struct {
	From string   // the envelope sender
	To   []string // the envelope recipients
	// Header is the message's header; Body its body as sent (for a
	// quoted-printable body, see Text).
	Header mail.Header
	Body   string
}

// Server is a local SMTP server without TLS or authentication.
type Server struct {
	addr string
	mu   sync.Mutex
	got  []Mail
}

// Start starts a server on 127.0.0.1 that stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{addr: ln.Addr().String()}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{srv: s}, nil }))
	srv.Domain = "localhost"
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// URL returns the mailer URL of the server, in clear, with the given
// sender address.
func (s *Server) URL(from string) string {
	return "smtp://" + s.addr + "?tls=none&from=" + from
}

// Mails returns the mail received so far, oldest first.
func (s *Server) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.got...)
}

// session is one SMTP connection's transaction.
type session struct {
	srv  *Server
	from string
	to   []string
}

func (s *session) Reset()                                      { s.from, s.to = "", nil }
func (s *session) Logout() error                               { return nil }
func (s *session) Mail(from string, _ *smtp.MailOptions) error { s.from = from; return nil }
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error   { s.to = append(s.to, to); return nil }

// Data keeps the message.
func (s *session) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(msg.Body)
	if err != nil {
		return err
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	s.srv.got = append(s.srv.got, Mail{From: s.from, To: s.to, Header: msg.Header, Body: string(body)})
	return nil
}

// Text returns the body decoded from quoted-printable when the header
// says so, with CRLF line ends made LF.
func (m Mail) Text() (string, error) {
	b := m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		d, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(b)))
		if err != nil {
			return "", err
		}
		b = string(d)
	}
	return strings.ReplaceAll(b, "\r\n", "\n"), nil
}
