package content

import (
	"strings"
	"testing"
	"unicode/utf8"

	"oware/locales"
	"oware/models"
)

// pageSources returns the shipped page sources by locale and slug.
func pageSources(t *testing.T) map[string]map[string]models.PageSource {
	t.Helper()
	srcs, err := models.ReadPageSources(locales.Pages)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]models.PageSource{}
	for _, s := range srcs {
		if out[s.Locale] == nil {
			out[s.Locale] = map[string]models.PageSource{}
		}
		out[s.Locale][s.Slug] = s
	}
	return out
}

// sourcesHeading is the last section of a page with references, by locale.
var sourcesHeading = map[string]string{"cs": "## Prameny", "it": "## Fonti", "en": "## Sources"}

// TestHistoryPage: the history page has at least 8,000 characters of text
// before its sources in every language (issue 32), ends with a sources
// section of the same number of entries in the three languages, and the
// text cites every entry (by its first name, e.g. "Murray"), so no source
// is listed for nothing.
func TestHistoryPage(t *testing.T) {
	entries := map[string]int{}
	for _, lang := range locales.Langs {
		src, ok := pageSources(t)[lang]["history"]
		if !ok {
			t.Fatalf("%s: no history page", lang)
		}
		text, sources, ok := strings.Cut(src.Body, sourcesHeading[lang]+"\n")
		if !ok {
			t.Errorf("%s: no section %q", lang, sourcesHeading[lang])
			continue
		}
		if n := utf8.RuneCountInString(text); n < 8000 {
			t.Errorf("%s: %d characters of text before the sources, want at least 8,000", lang, n)
		}
		for _, line := range strings.Split(sources, "\n") {
			entry, ok := strings.CutPrefix(line, "- ")
			if !ok {
				continue
			}
			entries[lang]++
			name, _, _ := strings.Cut(entry, " ")
			name = strings.Trim(name, ",.")
			if name == "van" { // van den Herik
				name = "van den Herik"
			}
			if !strings.Contains(text, "("+name) && !strings.Contains(text, "; "+name) {
				t.Errorf("%s: the source %q is never cited", lang, entry)
			}
		}
	}
	if entries["cs"] != entries["en"] || entries["it"] != entries["en"] || entries["en"] < 10 {
		t.Errorf("sources per language %v, want the same (at least 10) in each", entries)
	}
}
