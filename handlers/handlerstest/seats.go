package handlerstest

import (
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Send sends a request from a goroutine other than the test's: it returns
// the status and the Location header, or an error (never t.Fatal).
func (s *Site) Send(c *http.Client, method, path string, form url.Values) (int, string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, s.Srv.URL+path, body)
	if err != nil {
		return 0, "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body)
	return res.StatusCode, res.Header.Get("Location"), nil
}
