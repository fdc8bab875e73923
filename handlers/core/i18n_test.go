package core

import (
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"oware/locales"
)

// TestEveryMessageIDInEveryCatalog: every message id that the handlers,
// the tutor and the views name literally ("err_...", T("...")) is in every catalog, so a
// refusal shown only in rare states cannot miss its text.
func TestEveryMessageIDInEveryCatalog(t *testing.T) {
	b, err := LoadBundle()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../*.go")
	surfaces, _ := filepath.Glob("../*/*.go")
	tutor, _ := filepath.Glob("../../tutor/*.go")
	files = append(append(files, surfaces...), tutor...)
	views, _ := filepath.Glob("../../views/*.templ")
	ids := map[string]bool{}
	re := regexp.MustCompile(`"(err_[a-z_]+)"|\.[TN]\("([a-z_]+)"[,)]`)
	for _, f := range append(files, views...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			ids[m[1]+m[2]] = true
		}
	}
	if len(ids) < 40 {
		t.Fatalf("found only %d message ids", len(ids))
	}
	en, err := catalogKeys("en")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, lang := range locales.Langs {
		l := NewLocalizer(b, lang, log)
		for id := range ids {
			s := l.T(id, "Label", "A", "Side", "x", "Result", "x", "Reason", "x")
			if en[id] != nil { // a plural message
				s = l.N(id, 2, "Label", "A")
			}
			if strings.HasPrefix(s, MissingPrefix) {
				t.Errorf("%s: no message %s", lang, id)
			}
		}
	}
}

// TestMatchLang: Accept-Language picks cs, it or en; English by default.
func TestMatchLang(t *testing.T) {
	for h, want := range map[string]string{"": "en", "cs-CZ": "cs", "sk, it;q=0.4": "it", "fr": "en", "garbage;;": "en", "en-US,cs;q=0.9": "en"} {
		if got := MatchLang(h); got != want {
			t.Errorf("%q: %s, want %s", h, got, want)
		}
	}
}

// catalogKeys returns the message ids of one catalog file and, for plural
// messages, their forms (for the tests).
func catalogKeys(lang string) (map[string][]string, error) {
	data, err := fs.ReadFile(locales.Catalogs, lang+".toml")
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	keys := map[string][]string{}
	for id, v := range raw {
		keys[id] = nil
		if forms, ok := v.(map[string]any); ok {
			for f := range forms {
				keys[id] = append(keys[id], f)
			}
		}
	}
	return keys, nil
}
