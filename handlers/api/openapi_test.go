package api_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"oware/handlers"
	"oware/handlers/handlerstest"
)

// TestOpenAPIListsEveryRoute: /api/v1/openapi.json is the embedded
// document, and it names every /api/v1 route with its method, and nothing
// else.
func TestOpenAPIListsEveryRoute(t *testing.T) {
	e, err := handlers.New(handlerstest.WithServices(t, handlerstest.ModelsOpenSQLite(t), handlers.Config{Secret: []byte("0123456789abcdef0123456789abcdef"),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	for _, r := range e.Routes() {
		if strings.HasPrefix(r.Path, "/api/v1/") {
			routes = append(routes, r.Method+" "+regexp.MustCompile(`:(\w+)`).ReplaceAllString(r.Path, "{$1}"))
		}
	}
	doc, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		OpenAPI string
		Paths   map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(doc, &spec); err != nil || spec.OpenAPI != "3.1.0" {
		t.Fatalf("openapi.json: %v %q", err, spec.OpenAPI)
	}
	var documented []string
	for path, ops := range spec.Paths {
		for method := range ops {
			if method != "parameters" {
				documented = append(documented, strings.ToUpper(method)+" "+path)
			}
		}
	}
	slices.Sort(routes)
	slices.Sort(documented)
	if !slices.Equal(routes, documented) {
		t.Errorf("routes %q\ndocumented %q", routes, documented)
	}
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	if code, hdr, body := s.Get(nil, "/api/v1/openapi.json"); code != 200 || hdr.Get("Content-Type") != "application/json" || body != string(doc) {
		t.Errorf("served: %d %s", code, hdr.Get("Content-Type"))
	}
}
