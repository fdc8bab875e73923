package handlers_test

import (
	"slices"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestAccountCatalogs: accounts.<lang>.toml have the same keys in cs, it
// and en, and plural messages have every form their language needs.
func TestAccountCatalogs(t *testing.T) {
	forms := map[string][]string{"en": {"one", "other"}, "cs": {"few", "many", "one", "other"}, "it": {"many", "one", "other"}}
	keys := map[string]map[string]any{}
	for lang := range forms {
		var m map[string]any
		if _, err := toml.DecodeFile("../locales/accounts."+lang+".toml", &m); err != nil {
			t.Fatal(err)
		}
		keys[lang] = m
	}
	for lang, m := range keys {
		for id, v := range m {
			if _, ok := keys["en"][id]; !ok {
				t.Errorf("accounts.%s.toml: %s is not in accounts.en.toml", lang, id)
			}
			if p, ok := v.(map[string]any); ok {
				var got []string
				for f := range p {
					got = append(got, f)
				}
				slices.Sort(got)
				if !slices.Equal(got, forms[lang]) {
					t.Errorf("accounts.%s.toml: %s has forms %v, want %v", lang, id, got, forms[lang])
				}
			}
		}
		for id := range keys["en"] {
			if _, ok := m[id]; !ok {
				t.Errorf("accounts.%s.toml lacks %s", lang, id)
			}
		}
	}
}
