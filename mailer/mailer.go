// Package mailer sends the site's mail (the password reset links) over
// SMTP with github.com/wneessen/go-mail, configured by one URL.
package mailer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strconv"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// sendTimeout bounds one delivery (connection, TLS, authentication and
// transfer) of SendLater.
const sendTimeout = 30 * time.Second

// Mailer sends plain-text mail through one SMTP server. It is safe for
// concurrent use.
type Mailer struct {
	host string
	opts []gomail.Option
	from string
	log  *slog.Logger
	// slots bounds the deliveries of SendLater under way at once; pending
	// counts them for Wait.
	slots   chan struct{}
	pending sync.WaitGroup
}

// Message is a plain-text mail to one address.
type Message struct {
	To, Subject, Text string
}

// New returns the mailer of the SMTP server that rawURL names:
//
//	smtp://user:pass@host:587?from=oware@example.org
//
// smtp:// submits with STARTTLS, required (port 587 by default);
// smtps:// over implicit TLS (port 465 by default). The query's tls=none
// sends in clear, for a server on the same machine or in a test only.
// User and password are optional (the server's mechanisms are discovered;
// escape special characters in them as in any URL). from, the sender's
// address, is required. Errors name what is wrong with the URL.
func New(rawURL string, log *slog.Logger) (*Mailer, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("smtp url: %w", err)
	}
	if log == nil {
		log = slog.Default()
	}
	q := u.Query()
	m := &Mailer{host: u.Hostname(), from: q.Get("from"), log: log, slots: make(chan struct{}, 4)}
	if m.host == "" {
		return nil, errors.New("smtp url: no host")
	}
	if a, err := mail.ParseAddress(m.from); err != nil || a.Address != m.from {
		return nil, fmt.Errorf("smtp url: from=%q is not a mail address", m.from)
	}
	port := 587
	m.opts = []gomail.Option{gomail.WithTimeout(sendTimeout)}
	switch u.Scheme {
	case "smtp":
		switch q.Get("tls") {
		case "", "starttls":
			m.opts = append(m.opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
		case "none":
			m.opts = append(m.opts, gomail.WithTLSPolicy(gomail.NoTLS))
		default:
			return nil, fmt.Errorf("smtp url: tls=%q: want starttls or none", q.Get("tls"))
		}
	case "smtps":
		port = 465
		m.opts = append(m.opts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("smtp url: scheme %q: want smtp or smtps", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("smtp url: bad port %q", p)
		}
	}
	m.opts = append(m.opts, gomail.WithPort(port))
	if u.User != nil && u.User.Username() != "" {
		pw, _ := u.User.Password()
		m.opts = append(m.opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pw))
	}
	return m, nil
}

// Send delivers msg now, within ctx.
func (m *Mailer) Send(ctx context.Context, msg Message) error {
	gm := gomail.NewMsg()
	if err := gm.From(m.from); err != nil {
		return err
	}
	if err := gm.To(msg.To); err != nil {
		return err
	}
	gm.Subject(msg.Subject)
	gm.SetDate()
	gm.SetMessageID()
	gm.SetBulk() // no out-of-office answers
	gm.SetBodyString(gomail.TypeTextPlain, msg.Text)
	c, err := gomail.NewClient(m.host, m.opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, gm)
}

// SendLater delivers msg in the background (at most four at once, each
// within 30 s) and logs a failure without the address: the request that
// asks for it answers at once, and as fast whether or not there was
// something to send.
func (m *Mailer) SendLater(msg Message) {
	m.pending.Go(func() {
		m.slots <- struct{}{}
		defer func() { <-m.slots }()
		ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
		defer cancel()
		if err := m.Send(ctx, msg); err != nil {
			m.log.Error("mail not sent", "subject", msg.Subject, "err", err)
		}
	})
}

// Wait returns once every delivery of SendLater so far is done (sent or
// failed): at shutdown, and in tests.
func (m *Mailer) Wait() { m.pending.Wait() }
