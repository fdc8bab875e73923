package web

import (
	"encoding/xml"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"oware/content"
	"oware/engine"
	"oware/handlers/core"
	"oware/locales"
	"oware/route"
	"oware/views"
)

// variantSlugs are the variant pages, /{lang}/variants/{slug}, in the
// order the variants page lists them: the rule sets, each slug the rule set
// key of the new-game form.
var variantSlugs = engine.RuleSets()

// pageInLanguage returns the handler of a language-less address (/rules,
// /variants, /history: path, a pattern without parameters): a redirect to
// the page in the visitor's language.
func (h *Site) pageInLanguage(path string) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
		return c.Redirect(http.StatusFound, route.In(core.MatchLang(c.Request().Header.Get("Accept-Language")), path))
	}
}

// pageBySlug returns the handler of the page slug.
func (h *Site) pageBySlug(slug string) echo.HandlerFunc {
	return func(c echo.Context) error { return h.showPage(c, slug, pagePathOf(slug)) }
}

// variantPage is the page of one rule variant.
func (h *Site) variantPage(c echo.Context) error {
	slug := c.Param("slug")
	if !slices.Contains(variantSlugs, slug) {
		return core.ErrNotFound
	}
	return h.showPage(c, slug, route.Fill(route.VariantPattern, slug))
}

// showPage renders the page slug of the request's language from the
// database; path is its URL path after the language prefix.
func (h *Site) showPage(c echo.Context, slug, path string) error {
	ctx := c.Request().Context()
	lang := core.LangOf(c)
	state := ""
	if h.Cacheable(c) {
		shown := []string{slug}
		if slug == "variants" {
			shown = append(shown, variantSlugs...)
		}
		var err error
		if state, err = h.Content.PagesState(ctx, lang, shown); err != nil && !errors.Is(err, content.ErrNotFound) {
			return err
		}
		if h.Pages.Serve(c, state) {
			return nil
		}
	}
	pg, err := h.Content.Page(ctx, slug, lang)
	if errors.Is(err, content.ErrNotFound) {
		return core.ErrNotFound
	}
	if err != nil {
		return err
	}
	parts, err := h.Bodies.Body(slug, lang, pg.UpdatedAt, pg.Body)
	if err != nil {
		return err
	}
	a := views.Article{Title: pg.Title, Summary: pg.Summary}
	for _, part := range parts {
		if part.Err != nil {
			h.Log.ErrorContext(c.Request().Context(), "page diagram", "page", lang+"/"+slug, "err", part.Err)
		}
		a.Parts = append(a.Parts, articlePart(part))
	}
	if slices.Contains(variantSlugs, slug) {
		a.Variant = slug
	}
	if slug == "variants" {
		summaries, err := h.Content.Summaries(ctx, lang, variantSlugs)
		if err != nil {
			return err
		}
		for _, v := range variantSlugs {
			if vp, ok := summaries[v]; ok {
				a.Links = append(a.Links, views.ArticleLink{URL: route.Variant(lang, v), Title: vp.Title, Summary: vp.Summary})
			}
		}
	}
	titleKey := "nav_" + slug // the menu's name of the page, until the row's title replaces it
	if a.Variant != "" {
		titleKey = "nav_variants"
	}
	p := h.Page(c, titleKey, path)
	p.Title, p.Description = pg.Title, pg.Summary
	if state != "" {
		return h.Pages.Render(c, state, p, func(p views.Page) templ.Component { return views.ArticlePage(p, a) })
	}
	return core.Render(c, http.StatusOK, views.ArticlePage(p, a))
}

// articlePart is the view of a part of a page body.
func articlePart(p content.Part) views.ArticlePart {
	v := views.ArticlePart{HTML: p.HTML, Err: p.Err}
	if d := p.Diagram; d != nil {
		v.Diagram = &views.Diagram{Position: d.Position,
			Options: views.BoardOptions{Highlight: d.Highlight, Caption: d.Caption, Last: -1}}
	}
	return v
}

// sitemapURL is one <url> of the sitemap, with its language alternates.
type sitemapURL struct {
	Loc     string        `xml:"loc"`
	LastMod string        `xml:"lastmod,omitempty"`
	Links   []sitemapLink `xml:"xhtml:link"`
}

// sitemapLink is an <xhtml:link rel="alternate" hreflang=".." href=".."/>.
type sitemapLink struct {
	Rel      string `xml:"rel,attr"`
	HrefLang string `xml:"hreflang,attr"`
	Href     string `xml:"href,attr"`
}

// sitemapSet is the <urlset> of /sitemap.xml.
type sitemapSet struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	XHTML   string       `xml:"xmlns:xhtml,attr"`
	URLs    []sitemapURL `xml:"url"`
}

// sitemap lists every public page in every language: the home page, the
// new-game form, the pages of the pages table, and the tutorials index
// and steps.
func (h *Site) sitemap(c echo.Context) error {
	ctx := c.Request().Context()
	paths := []string{route.HomePattern, route.NewGamePattern}
	pages, err := h.Content.AllPages(ctx)
	if err != nil {
		return err
	}
	// The menu's order: rules, variants, each variant, history, the rest.
	order := slices.Concat([]string{"rules", "variants"}, variantSlugs, []string{"history", "glossary"})
	rank := func(slug string) int {
		if i := slices.Index(order, slug); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(pages, func(a, b content.Page) int { return rank(a.Slug) - rank(b.Slug) })
	lastmod := map[string]time.Time{} // path -> newest row of its languages
	for _, pg := range pages {
		path := pagePathOf(pg.Slug)
		if _, seen := lastmod[path]; !seen {
			paths = append(paths, path)
		}
		if pg.UpdatedAt.After(lastmod[path]) {
			lastmod[path] = pg.UpdatedAt
		}
	}
	// The tutorials: the slugs and steps are the same in every language.
	tutorials, err := h.Content.Tutorials(ctx, core.DefaultLang)
	if err != nil {
		return err
	}
	paths = append(paths, route.TutorialsPattern)
	for _, t := range tutorials {
		for _, s := range t.Steps {
			paths = append(paths, route.Fill(route.TutorialStepPattern, t.Slug, strconv.Itoa(s.Number)))
		}
	}
	set := sitemapSet{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", XHTML: "http://www.w3.org/1999/xhtml"}
	seen := map[string]bool{}
	for _, path := range paths {
		if seen[path] {
			continue
		}
		seen[path] = true
		var links []sitemapLink
		for _, l := range locales.Langs {
			links = append(links, sitemapLink{Rel: "alternate", HrefLang: l, Href: h.Base + route.In(l, path)})
		}
		for _, l := range locales.Langs {
			u := sitemapURL{Loc: h.Base + route.In(l, path), Links: links}
			if t, ok := lastmod[path]; ok {
				u.LastMod = t.UTC().Format("2006-01-02")
			}
			set.URLs = append(set.URLs, u)
		}
	}
	out, err := xml.MarshalIndent(set, "", "  ")
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=3600")
	return c.Blob(http.StatusOK, "application/xml; charset=utf-8", append([]byte(xml.Header), out...))
}

// pagePathOf returns the URL path after the language prefix of page slug.
func pagePathOf(slug string) string {
	if slices.Contains(variantSlugs, slug) {
		return route.Fill(route.VariantPattern, slug)
	}
	return "/" + slug
}
