package mailer_test

import (
	"mime"
	"strings"
	"testing"

	"oware/mailer"
	"oware/mailer/mailertest"
)

func TestNewRefusesBadURLs(t *testing.T) {
	for _, raw := range []string{
		"smtp://mail.example.org",                       // no sender
		"smtp://mail.example.org?from=not-an-address",   // bad sender
		"http://mail.example.org?from=a@example.org",    // scheme
		"smtp://?from=a@example.org",                    // no host
		"smtp://mail.example.org:0?from=a@example.org",  // port
		"smtp://mail.example.org?tls=maybe&from=a@b.cz", // tls
	} {
		if _, err := mailer.New(raw, nil); err == nil {
			t.Errorf("New(%q) = nil error", raw)
		}
	}
	for _, raw := range []string{
		"smtp://user:p%40ss@mail.example.org:587?from=oware@example.org",
		"smtps://mail.example.org?from=oware@example.org",
		"smtp://localhost:2525?tls=none&from=oware@example.org",
	} {
		if _, err := mailer.New(raw, nil); err != nil {
			t.Errorf("New(%q): %v", raw, err)
		}
	}
}

func TestSendLater(t *testing.T) {
	srv := mailertest.Start(t)
	m, err := mailer.New(srv.URL("oware@example.org"), nil)
	if err != nil {
		t.Fatal(err)
	}
	m.SendLater(mailer.Message{To: "hráč@example.org", Subject: "Obnovení hesla", Text: "Dobrý den,\nodkaz: https://example.org/cs/x\n"})
	m.SendLater(mailer.Message{To: "b@example.org", Subject: "Two", Text: "second"})
	m.Wait()
	got := srv.Mails()
	if len(got) != 2 {
		t.Fatalf("%d mails arrived, want 2", len(got))
	}
	var first mailertest.Mail
	for _, g := range got {
		if g.To[0] == "hráč@example.org" {
			first = g
		}
	}
	if first.From != "oware@example.org" || len(first.To) != 1 {
		t.Fatalf("envelope: from %q to %v", first.From, first.To)
	}
	subj, err := new(mime.WordDecoder).DecodeHeader(first.Header.Get("Subject"))
	if err != nil || subj != "Obnovení hesla" {
		t.Errorf("subject %q (%v)", subj, err)
	}
	text, err := first.Text()
	if err != nil || !strings.Contains(text, "Dobrý den,\nodkaz: https://example.org/cs/x") {
		t.Errorf("body %q (%v)", text, err)
	}
}
