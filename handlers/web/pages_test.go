package web_test

import (
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"oware/handlers/handlerstest"
	"oware/models"
)

// missing is what the site shows for a message id a catalog lacks.
const missing = "!MISSING:"

// checkPage fails on a missing catalog key or a wrong html lang.
func checkPage(t *testing.T, lang, path string, code int, page string) {
	t.Helper()
	if i := strings.Index(page, missing); i >= 0 {
		t.Errorf("%s: missing message %s", path, page[i:min(len(page), i+60)])
	}
	if !strings.Contains(page, `<html lang="`+lang+`">`) {
		t.Errorf("%s: no <html lang=%q>", path, lang)
	}
	for _, l := range []string{"cs", "it", "en"} {
		if !strings.Contains(page, `hreflang="`+l+`"`) {
			t.Errorf("%s: no hreflang %s", path, l)
		}
	}
	if !strings.Contains(page, "v0.1.0 · a38d0e2") {
		t.Errorf("%s: no build in the footer", path)
	}
	if !strings.Contains(page, `href="#main"`) || !strings.Contains(page, `class="beta"`) {
		t.Errorf("%s: no skip link or Beta badge", path)
	}
	if code >= 500 {
		t.Errorf("%s: status %d", path, code)
	}
	// A strict Content-Security-Policy (no 'unsafe-inline') must not break
	// the page: no inline script, style or event handler.
	if m := inlineCode.FindString(page); m != "" {
		t.Errorf("%s: inline code %q", path, m)
	}
}

// inlineCode finds a style attribute or element, a script element without
// src, or an event handler attribute.
var inlineCode = regexp.MustCompile(`\sstyle=|<style|<script>|<script(\s+[a-z-]+(="[^"]*")?)*\s*>[^<]|\son[a-z]+=`)

// TestEveryPageEveryLanguage renders every page and state in cs, it and en
// and fails on any missing catalog key.
func TestEveryPageEveryLanguage(t *testing.T) {
	handlerstest.EachDialect(t, everyPageEveryLanguage)
}

func everyPageEveryLanguage(t *testing.T, db *models.DB) {
	s := handlerstest.NewSite(t, db)
	for _, lang := range []string{"cs", "it", "en"} {
		t.Run(lang, func(t *testing.T) {
			visit := func(c *http.Client, path string) string {
				t.Helper()
				code, _, page := s.Get(c, path)
				if code == http.StatusSeeOther {
					return page
				}
				checkPage(t, lang, path, code, page)
				return page
			}
			visit(nil, "/"+lang+"/")
			visit(nil, "/"+lang+"/games/new")
			visit(nil, "/"+lang+"/rules")
			visit(nil, "/"+lang+"/games/nosuchgame00")
			for _, rules := range []string{"abapa", "wari", "warri"} {
				creator := s.Browser()
				page := visit(creator, "/"+lang+"/games/new")
				_, hdr, _ := s.Post(creator, "/"+lang+"/games/new", url.Values{"_csrf": {s.Csrf(page)}, "rules": {rules}, "seat": {"random"}}, nil)
				game := hdr.Get("Location")
				page = visit(creator, game) // waiting, with the invitation
				if !strings.Contains(page, "/join/") {
					t.Errorf("%s: no invitation link", game)
				}
				watch := regexp.MustCompile(`href="(/` + lang + `/watch/[^"]+)"`).FindStringSubmatch(page)
				if watch == nil {
					t.Fatalf("%s: no spectator link", game)
				}
				visit(nil, watch[1]) // waiting, seen by a spectator
				guest := s.Browser()
				page = visit(guest, game+"/join")
				s.Post(guest, game+"/join", url.Values{"_csrf": {s.Csrf(page)}}, nil)
				visit(guest, game+"/join") // full: redirects to the game
				visit(guest, game)
				visit(creator, game)
				visit(nil, watch[1])
				visit(s.Browser(), game+"/join")
				// A refused move shows its message on the next page.
				page = visit(guest, game)
				s.Post(guest, game+"/moves", url.Values{"_csrf": {s.Csrf(page)}, "pit": {"Z"}}, nil)
				if page = visit(guest, game); !strings.Contains(page, `class="error"`) {
					t.Errorf("%s: no message for a refused move", game)
				}
				// End offer, seen by both; declined; then resignation and rematch offers.
				page = visit(creator, game)
				s.Post(creator, game+"/end/offer", url.Values{"_csrf": {s.Csrf(page)}}, nil)
				visit(creator, game)
				page = visit(guest, game)
				s.Post(guest, game+"/end/decline", url.Values{"_csrf": {s.Csrf(page)}}, nil)
				page = visit(guest, game+"/resign")
				s.Post(guest, game+"/resign", url.Values{"_csrf": {s.Csrf(page)}}, nil)
				page = visit(guest, game)
				s.Post(guest, game+"/rematch", url.Values{"_csrf": {s.Csrf(page)}}, nil)
				visit(guest, game)
				visit(creator, game)
				visit(nil, watch[1])
			}
		})
	}
}

// TestCatalogs: every family of message catalogs in locales/ (<lang>.toml,
// accounts.<lang>.toml, namnam.<lang>.toml, ...) has the same keys in cs,
// it and en, and the plural messages have every form their language needs.
func TestCatalogs(t *testing.T) {
	forms := map[string][]string{"en": {"one", "other"}, "cs": {"few", "many", "one", "other"}, "it": {"many", "one", "other"}}
	files, err := filepath.Glob("../../locales/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	// families are the file name prefixes before the language: "",
	// "accounts.", "namnam.", ...
	families := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		i := strings.LastIndex(name, ".") + 1
		if _, ok := forms[name[i:]]; !ok {
			t.Errorf("%s: not a catalog of cs, it or en", f)
			continue
		}
		families[name[:i]] = true
	}
	for _, family := range []string{"", "accounts.", "namnam."} {
		if !families[family] {
			t.Fatalf("no catalogs %s<lang>.toml in ../locales", family)
		}
	}
	for family := range families {
		keys := map[string]map[string]any{}
		for lang := range forms {
			var m map[string]any
			if _, err := toml.DecodeFile("../../locales/"+family+lang+".toml", &m); err != nil {
				t.Fatal(err)
			}
			keys[lang] = m
		}
		for lang, m := range keys {
			for id, v := range m {
				if _, ok := keys["en"][id]; !ok {
					t.Errorf("%s%s.toml: %s is not in %sen.toml", family, lang, id, family)
				}
				if p, ok := v.(map[string]any); ok {
					var got []string
					for f := range p {
						got = append(got, f)
					}
					slices.Sort(got)
					if !slices.Equal(got, forms[lang]) {
						t.Errorf("%s%s.toml: %s has forms %v, want %v", family, lang, id, got, forms[lang])
					}
				}
			}
			for id := range keys["en"] {
				if _, ok := m[id]; !ok {
					t.Errorf("%s%s.toml lacks %s", family, lang, id)
				}
			}
		}
	}
}

// TestPluralForms: Czech seeds take one, few and other forms.
func TestPluralForms(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	south, _ := s.FormGame("cs", "abapa")
	_, _, page := s.Get(south.C, south.Game)
	for _, want := range []string{"jamka C, 4 semínka", "0 zajatých semínek"} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q", want)
		}
	}
	s.Move(south, "C", nil)
	_, _, page = s.Get(south.C, south.Game)
	for _, want := range []string{"jamka D, 5 semínek", "jamka C, 0 semínek", "1 tah"} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q", want)
		}
	}
}
