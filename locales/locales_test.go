package locales

import (
	"io/fs"
	"testing"
)

// TestEveryLocaleHasANameAndACatalog: the site speaks Czech, Italian and
// English (DESIGN.md); each locale has its own name and a message catalog.
func TestEveryLocaleHasANameAndACatalog(t *testing.T) {
	want := map[string]string{"cs": "Čeština", "it": "Italiano", "en": "English"}
	if len(Langs) != len(want) || len(Names) != len(want) {
		t.Errorf("locales %q, names %v; want cs, it and en", Langs, Names)
	}
	for _, l := range Langs {
		if Names[l] != want[l] {
			t.Errorf("the name of %s is %q, want %q", l, Names[l], want[l])
		}
		if _, err := fs.Stat(Catalogs, l+".toml"); err != nil {
			t.Errorf("no catalog of %s: %v", l, err)
		}
	}
}
