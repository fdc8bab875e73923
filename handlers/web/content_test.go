package web_test

import (
	"encoding/xml"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"oware/handlers/handlerstest"
	"oware/locales"
	"oware/models"
)

// pageSlugs are the pages of the pages table and their paths after the
// language prefix.
var pageSlugs = map[string]string{
	"rules": "/rules", "history": "/history", "glossary": "/glossary", "variants": "/variants",
	"abapa": "/variants/abapa", "wari": "/variants/wari", "warri": "/variants/warri", "namnam": "/variants/namnam",
}

// variantNames are the variants' names in the pages (the same in every
// language).
var variantNames = map[string]string{"abapa": "Abapa", "wari": "Wari", "warri": "Warri", "namnam": "Nam-nam"}

// ruleRows are the first cells of the rule tables' rows (CONTRACTS.md):
// grand slam; when the grand slam is the only move; other captures;
// feeding; end of the game.
var ruleRows = map[string][]string{
	"en": {"Grand slam", "When the grand slam is the only move", "Other captures", "Feeding", "End of the game"},
	"cs": {"Grand slam", "Když je grand slam jediným tahem", "Ostatní braní", "Krmení", "Konec hry"},
	"it": {"Grande slam", "Quando il grande slam è l'unica mossa", "Altre catture", "Nutrire l'avversario", "Fine della partita"},
}

// variantSections are the headings of a variant page (%s: its name).
var variantSections = map[string][]string{
	"en": {`What is %s\?`, `How %s differs from standard Oware`, `History`},
	"cs": {`Co je %s\?`, `Čím se %s liší od standardního Oware`, `Historie`},
	"it": {`Che cos'è (l'|il )%s\?`, `In cosa (l'|il )%s differisce dall'Oware standard`, `Storia`},
}

// outline is what a page body is made of, for comparing the languages.
type outline struct {
	sections []string   // the ## headings
	tables   [][]string // per table: the first cell of every row, header first
	widths   []int      // per table: the number of columns
	lastHead []string   // per table: the last header cell
	diagrams []string   // the position and highlight lines of every diagram, with the number of their section
}

// outlineOf reads the headings, tables and diagrams of a Markdown body.
func outlineOf(body string) outline {
	var o outline
	inTable, inBoard := false, false
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "```board":
			inBoard = true
		case inBoard && line == "```":
			inBoard = false
		case inBoard:
			if strings.HasPrefix(line, "position:") || strings.HasPrefix(line, "highlight:") {
				o.diagrams = append(o.diagrams, fmt.Sprintf("§%d %s", len(o.sections), strings.Join(strings.Fields(line), " ")))
			}
		case strings.HasPrefix(line, "## "):
			o.sections = append(o.sections, strings.TrimPrefix(line, "## "))
		case strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			if strings.HasPrefix(cells[0], "---") {
				continue
			}
			if !inTable {
				o.tables = append(o.tables, nil)
				o.widths = append(o.widths, len(cells))
				o.lastHead = append(o.lastHead, cells[len(cells)-1])
			}
			inTable = true
			n := len(o.tables) - 1
			o.tables[n] = append(o.tables[n], cells[0])
			if len(cells) != o.widths[n] {
				o.widths[n] = -1 // ragged
			}
		default:
			inTable = false
		}
	}
	return o
}

// TestContentPages: every page is in the database in every language, with
// a title, summary and body, the same sections, rule table rows and
// diagrams in every language, and is served from the database with its
// title, meta description, canonical URL, alternates and menu.
func TestContentPages(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		for slug, path := range pageSlugs {
			outlines := map[string]outline{}
			for _, lang := range locales.Langs {
				pg, err := db.PageBySlug(t.Context(), slug, lang)
				if err != nil {
					t.Errorf("%s/%s: %v", lang, slug, err)
					continue
				}
				if strings.TrimSpace(pg.Title) == "" || strings.TrimSpace(pg.Summary) == "" || strings.TrimSpace(pg.Body) == "" {
					t.Errorf("%s/%s: empty title, summary or body", lang, slug)
				}
				o := outlineOf(pg.Body)
				outlines[lang] = o
				if name, ok := variantNames[slug]; ok {
					checkVariantOutline(t, lang, slug, name, o)
				}
				checkServedPage(t, s, lang, path, pg)
				for _, m := range regexp.MustCompile(`\]\((/[^) ]*)\)`).FindAllStringSubmatch(pg.Body, -1) {
					if code, _, _ := s.Get(nil, m[1]); !strings.HasPrefix(m[1], "/"+lang+"/") || code != http.StatusOK {
						t.Errorf("%s/%s: link %s (status %d) is not a page in its language", lang, slug, m[1], code)
					}
				}
			}
			en := outlines["en"]
			for lang, o := range outlines {
				if len(o.sections) != len(en.sections) {
					t.Errorf("%s/%s: %d sections %q, en has %d %q", lang, slug, len(o.sections), o.sections, len(en.sections), en.sections)
				}
				if len(o.tables) != len(en.tables) || !slices.Equal(o.widths, en.widths) || !slices.Equal(o.lastHead, en.lastHead) {
					t.Errorf("%s/%s: tables %d %v %q, en has %d %v %q", lang, slug, len(o.tables), o.widths, o.lastHead, len(en.tables), en.widths, en.lastHead)
				}
				for i := range min(len(o.tables), len(en.tables)) {
					if len(o.tables[i]) != len(en.tables[i]) {
						t.Errorf("%s/%s: table %d has %d rows, en %d", lang, slug, i+1, len(o.tables[i]), len(en.tables[i]))
					}
				}
				if !slices.Equal(o.diagrams, en.diagrams) {
					t.Errorf("%s/%s: diagrams %q differ from en %q", lang, slug, o.diagrams, en.diagrams)
				}
			}
			if slug == "variants" {
				for lang, o := range outlines {
					if len(o.tables) != 1 || !slices.Equal(o.tables[0][1:], ruleRows[lang]) {
						t.Errorf("%s/variants: table rows %q, want %q", lang, o.tables, ruleRows[lang])
					}
				}
			}
			if slug == "rules" && len(en.diagrams) < 6 {
				t.Errorf("rules: only %d diagram lines", len(en.diagrams))
			}
		}
	})
}

// checkVariantOutline: a variant page has the sections "What is X?", "How
// X differs from standard Oware", "History", and one table of the five
// rule rows with the columns rule / standard Oware / X.
func checkVariantOutline(t *testing.T, lang, slug, name string, o outline) {
	t.Helper()
	want := variantSections[lang]
	if len(o.sections) != len(want) {
		t.Errorf("%s/%s: sections %q, want %d", lang, slug, o.sections, len(want))
	} else {
		for i, w := range want {
			if re := regexp.MustCompile("^" + strings.ReplaceAll(w, "%s", regexp.QuoteMeta(name)) + "$"); !re.MatchString(o.sections[i]) {
				t.Errorf("%s/%s: section %d is %q, want %s", lang, slug, i+1, o.sections[i], re)
			}
		}
	}
	if len(o.tables) != 1 || o.widths[0] != 3 || o.lastHead[0] != name || !slices.Equal(o.tables[0][1:], ruleRows[lang]) {
		t.Errorf("%s/%s: tables %q (widths %v, last header %q), want the rows %q and a column %s", lang, slug, o.tables, o.widths, o.lastHead, ruleRows[lang], name)
	}
}

// checkServedPage fetches a page and checks its head, menu and content.
func checkServedPage(t *testing.T, s *handlerstest.Site, lang, path string, pg *models.Page) {
	t.Helper()
	url := "/" + lang + path
	code, _, page := s.Get(nil, url)
	if code != http.StatusOK {
		t.Errorf("%s: status %d", url, code)
		return
	}
	checkPage(t, lang, url, code, page)
	base := s.Srv.URL
	want := []string{
		"<title>" + html.EscapeString(pg.Title) + " · Oware</title>",
		`<meta name="description" content="` + html.EscapeString(pg.Summary) + `">`,
		`<link rel="canonical" href="` + base + url + `">`,
		"<h1>" + html.EscapeString(pg.Title) + "</h1>",
		`aria-current="page"`,
	}
	for _, l := range locales.Langs {
		want = append(want, `<link rel="alternate" hreflang="`+l+`" href="`+base+"/"+l+path+`">`)
	}
	for _, p := range []string{"/games/new", "/rules", "/variants", "/tutorials", "/history"} {
		want = append(want, `href="/`+lang+p+`"`)
	}
	if n := strings.Count(pg.Body, "```board"); strings.Count(page, `class="board"`) != n {
		t.Errorf("%s: %d boards, the body has %d diagrams", url, strings.Count(page, `class="board"`), n)
	}
	slug := pg.Slug
	if _, ok := variantNames[slug]; ok {
		play := "/" + lang + "/games/new?rules=" + slug
		want = append(want, `href="`+play+`"`)
		_, _, form := s.Get(nil, play)
		if strings.Contains(form, `id="rules-`+slug+`"`) {
			if n := len(regexp.MustCompile(`<input type="radio" id="rules-[a-z]+"[^>]*checked`).FindAllString(form, -1)); n != 1 ||
				!regexp.MustCompile(`id="rules-`+slug+`"[^>]*checked`).MatchString(form) {
				t.Errorf("%s: the new-game form does not preselect %s alone (%d rule sets checked)", play, slug, n)
			}
		} else {
			t.Logf("%s: the new-game form has no choice %s yet", play, slug)
		}
	}
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("%s: no %s", url, w)
		}
	}
}

// TestPagesFromDatabase: a page is shown from the database, and a
// correction made there survives a restart (a reload of the same sources)
// and is sanitized; a changed source updates a row nobody edited.
func TestPagesFromDatabase(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		handlerstest.NewSite(t, db)
		edit := "## Corrected\n\nAn editor corrected this page.\n\n<script>alert(1)</script>\n\n" +
			"```board\nposition: 4-4-4-4-4-4-4-4-4-4-4-9-0-0-S\n```\n"
		if err := db.Gorm.Model(&models.Page{}).Where("slug = ? AND locale = ?", "history", "en").Update("body", edit).Error; err != nil {
			t.Fatal(err)
		}
		// A source that changed since the last load (simulated: the row
		// holds an older source's text and hashes).
		old, _ := db.PageBySlug(t.Context(), "rules", "cs")
		if err := db.Gorm.Model(&models.Page{}).Where("id = ?", old.ID).Updates(map[string]any{
			"title": "Stará pravidla", "body": "## Staré\n", "source_hash": "older",
			"body_hash": models.ContentHash("Stará pravidla", old.Summary, "## Staré\n"),
		}).Error; err != nil {
			t.Fatal(err)
		}
		s := handlerstest.NewSite(t, db) // a restart
		_, _, page := s.Get(nil, "/en/history")
		if !strings.Contains(page, "An editor corrected this page.") {
			t.Errorf("the database edit is not shown after a restart")
		}
		if strings.Contains(page, "alert(1)") {
			t.Errorf("a script of the body reached the page")
		}
		if strings.Contains(page, `class="board"`) || !strings.Contains(page, "This diagram cannot be shown") {
			t.Errorf("an impossible diagram was drawn, or without a notice")
		}
		if pg, _ := db.PageBySlug(t.Context(), "rules", "cs"); pg.Title != old.Title || pg.Body != old.Body || pg.SourceHash != old.SourceHash {
			t.Errorf("the changed source did not update cs/rules: %q", pg.Title)
		}
		if _, _, page := s.Get(nil, "/cs/rules"); !strings.Contains(page, html.EscapeString(old.Title)) {
			t.Errorf("/cs/rules does not show the source's title")
		}
	})
}

// TestSitemap: /sitemap.xml lists every page in every language, with its
// alternates, and every URL it lists answers 200.
func TestSitemap(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		code, hdr, body := s.Get(nil, "/sitemap.xml")
		if code != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "application/xml") {
			t.Fatalf("sitemap: %d %s", code, hdr.Get("Content-Type"))
		}
		var set struct {
			URLs []struct {
				Loc   string `xml:"loc"`
				Links []struct {
					HrefLang string `xml:"hreflang,attr"`
					Href     string `xml:"href,attr"`
				} `xml:"link"`
			} `xml:"url"`
		}
		if err := xml.Unmarshal([]byte(body), &set); err != nil {
			t.Fatal(err)
		}
		listed := map[string]bool{}
		for _, u := range set.URLs {
			listed[u.Loc] = true
			if len(u.Links) != len(locales.Langs) {
				t.Errorf("%s: %d alternates", u.Loc, len(u.Links))
			}
			path := strings.TrimPrefix(u.Loc, s.Srv.URL)
			if code, _, _ := s.Get(nil, path); code != http.StatusOK {
				t.Errorf("%s: status %d", path, code)
			}
		}
		paths := []string{"/", "/games/new"}
		for _, p := range pageSlugs {
			paths = append(paths, p)
		}
		for _, p := range paths {
			for _, l := range locales.Langs {
				if u := s.Srv.URL + "/" + l + p; !listed[u] {
					t.Errorf("sitemap lacks %s", u)
				}
			}
		}
	})
}

// TestNotFoundLocalized: an unknown page or variant is a 404 page in the
// request's language, not indexed (an unknown language prefix:
// TestUnknownLanguage).
func TestNotFoundLocalized(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		titles := map[string]string{"en": "Page not found", "cs": "Stránka nenalezena", "it": "Pagina non trovata"}
		for _, c := range []struct{ path, accept, lang string }{
			{"/cs/variants/nosuch", "", "cs"},
			{"/it/variants/rules", "", "it"},
			{"/en/variants/", "", "en"},
			{"/cs/nosuchpage", "en", "cs"},
			{"/it/rules/extra", "", "it"},
			{"/nosuchpage/rules", "cs-CZ,cs;q=0.9", "cs"},
			{"/english/history", "", "en"},
		} {
			code, _, page := s.Do(nil, http.MethodGet, c.path, nil, map[string]string{"Accept-Language": c.accept})
			if code != http.StatusNotFound {
				t.Errorf("%s: status %d", c.path, code)
			}
			for _, w := range []string{`<html lang="` + c.lang + `">`, titles[c.lang], `<meta name="robots" content="noindex">`} {
				if !strings.Contains(page, w) {
					t.Errorf("%s (Accept-Language %q): no %s", c.path, c.accept, w)
				}
			}
			if strings.Contains(page, `rel="canonical"`) {
				t.Errorf("%s: a 404 page has a canonical URL", c.path)
			}
		}
	})
}

// TestUnknownLanguage: a path that begins with a language code the site
// does not speak is a 404 page, not indexed, in the language of
// Accept-Language (English without one it speaks), that names the code
// and links each language: the same page when a route under the language
// prefix matched the rest, else the home page.
func TestUnknownLanguage(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		titles := map[string]string{"en": "Unknown language", "cs": "Neznámý jazyk", "it": "Lingua sconosciuta"}
		texts := map[string]string{
			"en": "The address begins with the language code “%s”, which this site does not know. Choose one of its languages:",
			"cs": "Adresa začíná kódem jazyka „%s“, který tento web nezná. Vyberte si jeden z jeho jazyků:",
			"it": "L&#39;indirizzo comincia con il codice di lingua «%s», che questo sito non conosce. Scegli una delle sue lingue:",
		}
		for _, c := range []struct{ path, accept, lang, code, rest string }{
			{"/xx/", "", "en", "xx", "/"},
			{"/xx/", "it-IT,it;q=0.9,en;q=0.8", "it", "xx", "/"},
			{"/xx", "cs", "cs", "xx", "/"},
			{"/de/rules", "cs-CZ,cs;q=0.9", "cs", "de", "/rules"},
			{"/xx/variants/wari", "it", "it", "xx", "/variants/wari"},
			{"/de/history", "de-DE,fr;q=0.8", "en", "de", "/history"},
			{"/pt-BR/no/such/page", "", "en", "pt-BR", "/"},
		} {
			code, _, page := s.Do(nil, http.MethodGet, c.path, nil, map[string]string{"Accept-Language": c.accept})
			if code != http.StatusNotFound {
				t.Errorf("%s: status %d", c.path, code)
			}
			want := []string{`<html lang="` + c.lang + `">`, "<title>" + titles[c.lang] + " · Oware</title>",
				"<p>" + fmt.Sprintf(texts[c.lang], c.code) + "</p>", `<meta name="robots" content="noindex">`,
				`<p class="unknown-lang"><a class="button" href="/cs` + c.rest + `" hreflang="cs" lang="cs">Čeština</a>` +
					`<a class="button" href="/it` + c.rest + `" hreflang="it" lang="it">Italiano</a>` +
					`<a class="button" href="/en` + c.rest + `" hreflang="en" lang="en">English</a></p>`}
			for _, w := range want {
				if !strings.Contains(page, w) {
					t.Errorf("%s (Accept-Language %q): no %s", c.path, c.accept, w)
				}
			}
		}
	})
}

// TestRegionLangRedirect: a path whose first segment is a language tag
// of a language the site speaks, with a region or in other letters
// ("en-US", "it_IT", "CS-cz", "EN"), is moved for good (301) to the same
// page in that language, the rest of the path and the query kept; a tag
// of another language stays the unknown-language 404.
func TestRegionLangRedirect(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	for _, c := range []struct{ method, path, to string }{
		{http.MethodGet, "/en-US/", "/en/"},
		{http.MethodGet, "/en-US", "/en/"},
		{http.MethodHead, "/it-IT/rules", "/it/rules"},
		{http.MethodGet, "/cs-CZ/variants/wari?ply=3&x=%C3%A9", "/cs/variants/wari?ply=3&x=%C3%A9"},
		{http.MethodGet, "/CS-cz/history", "/cs/history"},
		{http.MethodGet, "/it_it/games/new", "/it/games/new"},
		{http.MethodGet, "/en-Latn-GB/players/a%20b", "/en/players/a%20b"},
		{http.MethodGet, "/EN/rules", "/en/rules"},
		{http.MethodGet, "/en-GB/no/such/page", "/en/no/such/page"},
	} {
		code, hdr, _ := s.Do(nil, c.method, c.path, nil, nil)
		if code != http.StatusMovedPermanently || hdr.Get("Location") != c.to {
			t.Errorf("%s %s: %d, Location %q; want 301 to %s", c.method, c.path, code, hdr.Get("Location"), c.to)
		}
	}
	for _, p := range []string{"/de-DE/rules", "/pt-BR/", "/ces/rules", "/xx-en/"} {
		code, hdr, page := s.Get(nil, p)
		if code != http.StatusNotFound || hdr.Get("Location") != "" || !strings.Contains(page, "<title>Unknown language · Oware</title>") {
			t.Errorf("GET %s: %d, Location %q; want the unknown-language 404", p, code, hdr.Get("Location"))
		}
	}
}

// TestPageCatalogs: the pages' catalogs have the same keys in every
// language.
func TestPageCatalogs(t *testing.T) {
	keys := map[string][]string{}
	for _, lang := range locales.Langs {
		data, err := locales.Catalogs.ReadFile("pages." + lang + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if k, _, ok := strings.Cut(line, " = "); ok && !strings.HasPrefix(k, "#") {
				keys[lang] = append(keys[lang], k)
			}
		}
		slices.Sort(keys[lang])
	}
	for _, lang := range locales.Langs {
		if !slices.Equal(keys[lang], keys["en"]) {
			t.Errorf("pages.%s.toml keys %v, pages.en.toml %v", lang, keys[lang], keys["en"])
		}
	}
}

// TestPageRedirects: /rules, /variants and /history lead to the page in
// the visitor's language.
func TestPageRedirects(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	for path, accept := range map[string]string{"/rules": "cs", "/variants": "it-IT", "/history": ""} {
		want := "/" + map[string]string{"cs": "cs", "it-IT": "it", "": "en"}[accept] + path
		code, hdr, _ := s.Do(nil, http.MethodGet, path, nil, map[string]string{"Accept-Language": accept})
		if code != http.StatusFound || hdr.Get("Location") != want {
			t.Errorf("%s (Accept-Language %q): %d %q, want %s", path, accept, code, hdr.Get("Location"), want)
		}
	}
}

// TestNewGameFormPreselect: without a known rule set the new-game form
// chooses the standard one.
func TestNewGameFormPreselect(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	for _, q := range []string{"", "?rules=bogus", "?rules=%3Cscript%3E"} {
		_, _, form := s.Get(nil, "/en/games/new"+q)
		checked := regexp.MustCompile(`<input type="radio" id="rules-([a-z]+)"[^>]*checked`).FindAllStringSubmatch(form, -1)
		if len(checked) != 1 || checked[0][1] != "abapa" {
			t.Errorf("/en/games/new%s: checked %v, want abapa", q, checked)
		}
	}
}

// TestCachedPages: the pages a visitor without an account gets from the
// page cache follow the database: an edit of a page (with its updated_at)
// shows at the next request (on PostgreSQL: once its event reached the
// instance, within a few ms), a move at the next look at the game; a
// player who is logged in gets their own page.
func TestCachedPages(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		for range 2 {
			if _, _, page := s.Get(nil, "/en/history"); strings.Contains(page, "Edited since") {
				t.Fatal("the page shows an edit before it was made")
			}
		}
		if err := db.Gorm.Model(&models.Page{}).Where("slug = ? AND locale = ?", "history", "en").
			Updates(map[string]any{"body": "## Edited since\n", "updated_at": time.Now().Add(time.Second)}).Error; err != nil {
			t.Fatal(err)
		}
		if !pageShows(s, "/en/history", "Edited since") {
			t.Error("the edit is not shown")
		}
		// The forms of a page kept for every visitor carry each visitor's
		// own CSRF token: the same on each of their views, one a form of
		// theirs is accepted with.
		tokens := map[string]bool{}
		for range 2 {
			b := s.Browser()
			var first string
			for i := range 2 {
				_, _, page := s.Get(b, "/en/rules")
				token := s.Csrf(page)
				if i == 0 {
					first = token
				} else if token != first {
					t.Errorf("one visitor's two views carry the tokens %q and %q", first, token)
				}
				tokens[token] = true
			}
			if code, _, _ := s.Post(b, "/en/games/new", url.Values{"_csrf": {first}, "rules": {"abapa"}, "seat": {"south"}}, nil); code != http.StatusSeeOther {
				t.Errorf("a form with the kept page's token: %d, want 303", code)
			}
		}
		if len(tokens) != 2 {
			t.Errorf("two visitors got %d CSRF tokens", len(tokens))
		}
		// The colour theme a visitor chose is part of the page.
		dark := map[string]string{"Cookie": "theme=dark"}
		if _, _, page := s.Do(nil, "GET", "/en/history", nil, dark); !strings.Contains(page, `data-theme="dark"`) {
			t.Error("a visitor who chose the dark theme got another page")
		}
		if _, _, page := s.Get(nil, "/en/history"); strings.Contains(page, `data-theme="dark"`) {
			t.Error("a visitor without a theme got the dark one")
		}
		// A variant's summary is on the variants page.
		_, _, before := s.Get(nil, "/en/variants")
		if err := db.Gorm.Model(&models.Page{}).Where("slug = ? AND locale = ?", "wari", "en").
			Updates(map[string]any{"summary": "A new summary of Wari.", "updated_at": time.Now().Add(2 * time.Second)}).Error; err != nil {
			t.Fatal(err)
		}
		if strings.Contains(before, "A new summary of Wari.") || !pageShows(s, "/en/variants", "A new summary of Wari.") {
			t.Error("the variants page does not follow a variant page's summary")
		}

		south, north := s.FormGame("en", "abapa")
		watcher := s.Browser()
		if _, _, page := s.Get(watcher, south.Game); strings.Contains(page, "Last move") {
			t.Fatalf("the game watched before any move:\n%s", page)
		}
		if code, _, _ := s.Move(south, "C", nil); code != http.StatusSeeOther {
			t.Fatal(code)
		}
		if _, _, page := s.Get(watcher, south.Game); !strings.Contains(page, "Last move: C") {
			t.Error("the watched game does not show the move")
		}
		if _, _, page := s.Get(north.C, north.Game); !strings.Contains(page, `name="pit" value="d"`) {
			t.Error("a player got the spectators' page")
		}
		carol := s.Account("carol")
		if _, _, page := s.Get(carol, "/en/history"); !strings.Contains(page, "carol") {
			t.Error("a logged-in player got the page of visitors without an account")
		}
	})
}

// pageShows reports whether the page at path shows want within 5 s: an
// edit made in the database reaches a page kept on PostgreSQL with the
// pages' event (content.Service.Follow), on SQLite at the next request.
func pageShows(s *handlerstest.Site, path, want string) bool {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, _, page := s.Get(nil, path); strings.Contains(page, want) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// TestCachedPageETag: a kept page answers with a strong ETag, one for each
// encoding; the same visitor asking again with If-None-Match gets 304
// without a body, another visitor (another CSRF token in the forms) or the
// page at another state gets 200 with the whole page.
func TestCachedPageETag(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		b := s.Browser()
		s.Get(b, "/en/rules") // kept from now on
		gz := map[string]string{"Accept-Encoding": "gzip"}
		code, hdr, page := s.Do(b, "GET", "/en/rules", nil, gz)
		tag := hdr.Get("ETag")
		if code != http.StatusOK || hdr.Get("Content-Encoding") != "gzip" || !strings.HasSuffix(tag, `-gz"`) || !strings.HasPrefix(tag, `"`) {
			t.Fatalf("kept page: %d, encoding %q, ETag %q", code, hdr.Get("Content-Encoding"), tag)
		}
		_, plain, _ := s.Do(b, "GET", "/en/rules", nil, map[string]string{"Accept-Encoding": "identity"})
		if other := plain.Get("ETag"); other == "" || other == tag || strings.HasSuffix(other, `-gz"`) {
			t.Errorf("the identity encoding's ETag %q, the gzip one's %q", other, tag)
		}
		if code, hdr, body := s.Do(b, "GET", "/en/rules", nil, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": `"x", W/` + tag}); code != http.StatusNotModified || body != "" || hdr.Get("ETag") != tag {
			t.Errorf("the same visitor's copy: %d, ETag %q, %d bytes", code, hdr.Get("ETag"), len(body))
		}
		if code, _, body := s.Do(s.Browser(), "GET", "/en/rules", nil, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": tag}); code != http.StatusOK || body == page || s.Csrf(body) == s.Csrf(page) {
			t.Errorf("another visitor with the first one's ETag: %d", code)
		}
		if err := db.Gorm.Model(&models.Page{}).Where("slug = ? AND locale = ?", "rules", "en").
			Updates(map[string]any{"body": "## Edited since\n", "updated_at": time.Now().Add(time.Second)}).Error; err != nil {
			t.Fatal(err)
		}
		if !pageShows(s, "/en/rules", "Edited since") {
			t.Fatal("the edit is not shown")
		}
		if code, hdr, body := s.Do(b, "GET", "/en/rules", nil, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": tag}); code != http.StatusOK || hdr.Get("ETag") == tag || !strings.Contains(body, "Edited since") {
			t.Errorf("the edited page with the old ETag: %d", code)
		}
	})
}
