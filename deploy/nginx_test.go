//go:build nginx

package deploy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNginx serves the site behind nginx with deploy/nginx/oware.conf as
// it is (its ports, upstream and certificate paths replaced by the test's,
// with a certificate made here) and plays a live game through it: each
// player's move reaches the other player's event stream through the
// proxy. Then it checks that the site, started with -behind-proxy, counts
// its limits by the client's address as nginx passes it on: two clients
// (connecting from 127.0.0.2 and 127.0.0.3) each get their own limit of
// event streams on a game, and a client that sends an X-Forwarded-For of
// its own is still counted as itself.
func TestNginx(t *testing.T) {
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if nginx, err = exec.LookPath("/usr/sbin/nginx"); err != nil {
			t.Skip("nginx not found (apt-get install nginx; .ci/run installs it)")
		}
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil { // nginx's workers run as nobody
		t.Fatal(err)
	}
	sitePort, httpPort, httpsPort := freePort(t), freePort(t), freePort(t)
	base := fmt.Sprintf("https://127.0.0.1:%d", httpsPort)
	startSite(t, dir, sitePort, base)
	pool := startNginx(t, nginx, dir, sitePort, httpPort, httpsPort)

	a, b := client(t, "127.0.0.2", pool), client(t, "127.0.0.3", pool)
	if !waitFor(30*time.Second, func() bool { code, _ := a.call("GET", base+"/healthz", "", nil); return code == 200 }) {
		t.Fatal("the site does not answer through nginx")
	}
	// Plain HTTP redirects to HTTPS.
	if code, loc := a.redirect(fmt.Sprintf("http://127.0.0.1:%d/en/rules", httpPort)); code != http.StatusMovedPermanently ||
		!strings.HasSuffix(loc, "/en/rules") || !strings.HasPrefix(loc, "https://") {
		t.Errorf("plain HTTP: %d to %q, want 301 to https://.../en/rules", code, loc)
	}

	// A live game: A sits South, B joins North; each watches the game.
	var created struct{ ID, Token string }
	if code, body := a.call("POST", base+"/api/v1/games", "", map[string]string{"rules": "abapa", "seat": "south"}); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	} else {
		json.Unmarshal(body, &created)
	}
	var joined struct{ Token string }
	if code, body := b.call("POST", base+"/api/v1/games/"+created.ID+"/join", "", nil); code != 200 {
		t.Fatalf("join: %d %s", code, body)
	} else {
		json.Unmarshal(body, &joined)
	}
	streamA, code := a.stream(t, base, created.ID, "")
	streamB, codeB := b.stream(t, base, created.ID, "")
	if code != 200 || codeB != 200 {
		t.Fatalf("event streams: %d and %d, want 200", code, codeB)
	}
	// Each stream first gets the game as it is (version 2: created, joined).
	for name, s := range map[string]<-chan string{"A": streamA, "B": streamB} {
		if got := next(t, s); got != "id: 2" {
			t.Fatalf("%s's stream begins with %q, want the game's version 2", name, got)
		}
	}
	if code, body := a.call("POST", base+"/api/v1/games/"+created.ID+"/moves", created.Token, map[string]string{"pit": "C"}); code != 200 {
		t.Fatalf("South's move: %d %s", code, body)
	}
	if got := next(t, streamB); got != "id: 3" {
		t.Fatalf("North's stream after South's move: %q, want id: 3", got)
	}
	if code, body := b.call("POST", base+"/api/v1/games/"+created.ID+"/moves", joined.Token, map[string]string{"pit": "d"}); code != 200 {
		t.Fatalf("North's move: %d %s", code, body)
	}
	// South's stream has South's own move first, then North's.
	if got, got2 := next(t, streamA), next(t, streamA); got != "id: 3" || got2 != "id: 4" {
		t.Fatalf("South's stream after both moves: %q, %q, want id: 3, id: 4", got, got2)
	}

	// The limits (-stream-limits 2,...: two streams a client on a game).
	// A opens its second stream, and a third is refused; B, whose address
	// differs, still opens its second.
	if _, code := a.stream(t, base, created.ID, ""); code != 200 {
		t.Fatalf("A's second stream: %d, want 200", code)
	}
	if _, code := a.stream(t, base, created.ID, ""); code != http.StatusTooManyRequests {
		t.Errorf("A's third stream: %d, want 429", code)
	}
	// A claiming to be B (X-Forwarded-For: 127.0.0.3) is still A: nginx
	// replaces the header with the address it sees.
	if _, code := a.stream(t, base, created.ID, "127.0.0.3"); code != http.StatusTooManyRequests {
		t.Errorf("A's stream with a forged X-Forwarded-For: %d, want 429", code)
	}
	if _, code := b.stream(t, base, created.ID, ""); code != 200 {
		t.Errorf("B's second stream: %d, want 200 (B's own limit, not A's)", code)
	}
}

// startSite builds and starts cmd/oware on 127.0.0.1:port behind the
// proxy at base, on an SQLite file in dir, and waits until it is ready.
func startSite(t *testing.T, dir string, port int, base string) {
	t.Helper()
	bin := filepath.Join(dir, "oware")
	if out, err := exec.Command("go", "build", "-o", bin, "oware/cmd/oware").CombinedOutput(); err != nil {
		t.Fatalf("build cmd/oware: %v\n%s", err, out)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	logf, err := os.Create(filepath.Join(dir, "oware.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-addr", addr, "-database", filepath.Join(dir, "oware.db"), "-base-url", base,
		"-behind-proxy", "-table-seeds", "0", "-computer", "1", "-stream-limits", "2,40,20000")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); logf.Close(); close(done) }()
	t.Cleanup(func() { stop(cmd, done) })
	ready := func() bool {
		res, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == 200
	}
	if !waitFor(60*time.Second, ready) {
		b, _ := os.ReadFile(filepath.Join(dir, "oware.log"))
		t.Fatalf("the site did not get ready:\n%s", b)
	}
}

// startNginx writes a certificate for 127.0.0.1, the site's nginx
// configuration with the test's ports and paths, and a main configuration
// around it, starts nginx and returns the certificate's pool.
func startNginx(t *testing.T, nginx, dir string, sitePort, httpPort, httpsPort int) *x509.CertPool {
	t.Helper()
	certFile, keyFile, pool := certificate(t, dir)
	site, err := os.ReadFile(filepath.Join("nginx", "oware.conf"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(site)
	for _, r := range [][2]string{
		{"server 127.0.0.1:8080;", fmt.Sprintf("server 127.0.0.1:%d;", sitePort)},
		{"\tlisten 80;", fmt.Sprintf("\tlisten 127.0.0.1:%d;", httpPort)},
		{"\tlisten [::]:80;\n", ""},
		{"\tlisten 443 ssl http2;", fmt.Sprintf("\tlisten 127.0.0.1:%d ssl http2;", httpsPort)},
		{"\tlisten [::]:443 ssl http2;\n", ""},
		{"/etc/letsencrypt/live/oware.example.org/fullchain.pem", certFile},
		{"/etc/letsencrypt/live/oware.example.org/privkey.pem", keyFile},
		{"return 301 https://$host$request_uri;", fmt.Sprintf("return 301 https://$host:%d$request_uri;", httpsPort)},
	} {
		if strings.Count(text, r[0]) != 1 {
			t.Fatalf("nginx/oware.conf: %q is not there once; the test needs it", r[0])
		}
		text = strings.Replace(text, r[0], r[1], 1)
	}
	if err := os.WriteFile(filepath.Join(dir, "site.conf"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var temps strings.Builder
	for _, name := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o777)
		fmt.Fprintf(&temps, "\t%s_temp_path %s;\n", name, p)
	}
	main := fmt.Sprintf(`pid %[1]s/nginx.pid;
worker_processes 1;
events { worker_connections 256; }
http {
	access_log %[1]s/access.log;
%[2]s	include %[1]s/site.conf;
}
`, dir, temps.String())
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	errLog := filepath.Join(dir, "error.log")
	args := []string{"-e", errLog, "-p", dir, "-c", conf}
	if out, err := exec.Command(nginx, append(args, "-t")...).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t: %v\n%s", err, out)
	}
	cmd := exec.Command(nginx, append(args, "-g", "daemon off;")...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		stop(cmd, done)
		if t.Failed() {
			b, _ := os.ReadFile(errLog)
			t.Logf("nginx: %s\nerror.log:\n%s", out.String(), b)
		}
	})
	return pool
}

// stop ends a process started by the test: SIGTERM, then SIGKILL after
// 15 s.
func stop(cmd *exec.Cmd, done <-chan struct{}) {
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// certificate writes a self-signed certificate for 127.0.0.1 and its key
// into dir and returns their paths and a pool that trusts it.
func certificate(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "oware test"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// httpClient is a client that connects from one loopback address.
type httpClient struct{ *http.Client }

// client returns a client whose connections come from the address from
// and that trusts pool.
func client(t *testing.T, from string, pool *x509.CertPool) httpClient {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	tr := &http.Transport{DialContext: dialer.DialContext, TLSClientConfig: &tls.Config{RootCAs: pool},
		ForceAttemptHTTP2: true}
	t.Cleanup(tr.CloseIdleConnections)
	return httpClient{&http.Client{Transport: tr, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// call sends a JSON request (with the bearer token when not empty) and
// returns the status and the body; 0 when the request failed.
func (c httpClient) call(method, url, token string, body any) (int, []byte) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		return 0, nil
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// redirect GETs url and returns the status and the Location.
func (c httpClient) redirect(url string) (int, string) {
	res, err := c.Get(url)
	if err != nil {
		return 0, ""
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

// stream opens the event stream of game id (with the X-Forwarded-For
// header xff when not empty) and returns its "id: N" lines and the status;
// the stream stays open until the test ends.
func (c httpClient) stream(t *testing.T, base, id, xff string) (<-chan string, int) {
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/en/games/"+id+"/events", nil)
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	// No client timeout: a stream stays open (the test's end closes it).
	res, err := (&http.Client{Transport: c.Transport}).Do(req)
	if err != nil {
		cancel()
		t.Fatalf("event stream: %v", err)
	}
	t.Cleanup(func() { cancel(); res.Body.Close() })
	ids := make(chan string, 16)
	if res.StatusCode != 200 {
		return ids, res.StatusCode
	}
	go func() {
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "id: ") {
				ids <- sc.Text()
			}
		}
	}()
	return ids, res.StatusCode
}

// next returns the next "id: N" line of a stream, failing the test when
// none comes within 30 s.
func next(t *testing.T, ids <-chan string) string {
	t.Helper()
	select {
	case id := <-ids:
		return id
	case <-time.After(30 * time.Second):
		t.Fatal("no event within 30 s")
		return ""
	}
}
