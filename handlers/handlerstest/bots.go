package handlerstest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// AccountToken creates an account token with the scopes through the API
// with the account's session (client c) and returns its secret.
func (s *Site) AccountToken(c *http.Client, scopes ...string) string {
	s.T.Helper()
	b, _ := json.Marshal(map[string]any{"name": "engine", "scopes": scopes})
	code, _, text := s.Do(c, http.MethodPost, "/api/v1/account/tokens", bytes.NewReader(b), map[string]string{"Content-Type": "application/json"})
	var out struct {
		ID     uint     `json:"id"`
		Token  string   `json:"token"`
		Scopes []string `json:"scopes"`
	}
	if err := json.Unmarshal([]byte(text), &out); code != http.StatusCreated || err != nil || out.Token == "" || out.ID == 0 ||
		strings.Join(out.Scopes, " ") != strings.Join(scopes, " ") {
		s.T.Fatalf("create token: %d %s", code, text)
	}
	return out.Token
}
