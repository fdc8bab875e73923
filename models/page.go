package models

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Page is one long text of the site in one language (table pages): the
// rules, a variant page, the history, the variants side by side. Its source
// is locales/pages/<Locale>/<Slug>.md; LoadPages keeps the rows up to date
// with the sources without overwriting a correction made in the database.
type Page struct {
	// ID is the row id, set by the database.
	ID uint `gorm:"primaryKey"`
	// Slug names the page in its URL: "rules", "abapa", "history", ...
	Slug string `gorm:"uniqueIndex:pages_slug_locale"`
	// Locale is "cs", "it" or "en".
	Locale string `gorm:"uniqueIndex:pages_slug_locale"`
	// Title is the page's heading and <title>.
	Title string
	// Summary is one line (at most 160 characters), the meta description.
	Summary string
	// Body is the Markdown source of the page, without the front matter.
	Body string
	// SourceHash is the SHA-256 (hex) of the source file last loaded into
	// the row.
	SourceHash string
	// BodyHash is ContentHash of the title, summary and body as the last
	// load wrote them. When the row's text no longer matches it, the row was
	// edited in the database and LoadPages leaves it alone.
	BodyHash string
	// UpdatedAt is when the row was last written by LoadPages (UTC).
	UpdatedAt time.Time
}

// Edited reports whether the page's text was changed in the database since
// LoadPages last wrote it.
func (p *Page) Edited() bool {
	return ContentHash(p.Title, p.Summary, p.Body) != p.BodyHash
}

// ContentHash returns the SHA-256 (hex) of a page's title, summary and body.
func ContentHash(title, summary, body string) string {
	h := sha256.New()
	for _, s := range []string{title, summary, body} {
		fmt.Fprintf(h, "%d:%s\n", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// PageSource is a page source file, read by ReadPageSources.
type PageSource struct {
	// Slug and Locale come from the file's path, <Locale>/<Slug>.md.
	Slug, Locale string
	// Title, Summary and Variant come from the front matter; Variant is the
	// rule set key of a variant page ("abapa", ..., "namnam"), else "".
	// Stage is a lesson's stage (a tutorial source's front matter).
	Title, Summary, Variant, Stage string
	// Body is the Markdown after the front matter.
	Body string
	// Hash is the SHA-256 (hex) of the whole file.
	Hash string
}

// ReadPageSources reads every page source <locale>/<slug>.md of fsys (the
// locales/pages folder), sorted by locale and slug.
func ReadPageSources(fsys fs.FS) ([]PageSource, error) {
	return readSources(fsys, ParsePageSource)
}

// readSources parses every source <locale>/<name>.md of fsys with parse,
// sorted by locale and file name; it stops at the first error.
func readSources[T any](fsys fs.FS, parse func(locale, name string, data []byte) (T, error)) ([]T, error) {
	files, err := fs.Glob(fsys, "*/*.md")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var out []T
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		locale, name := path.Split(f)
		src, err := parse(strings.TrimSuffix(locale, "/"), strings.TrimSuffix(name, ".md"), data)
		if err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, nil
}

// ParsePageSource parses one page source: front matter between "---" lines
// with the keys title, summary, variant and stage (one "key: value" a line, the
// value optionally in double quotes), then the Markdown body.
func ParsePageSource(locale, slug string, data []byte) (PageSource, error) {
	sum := sha256.Sum256(data)
	src := PageSource{Slug: slug, Locale: locale, Hash: hex.EncodeToString(sum[:])}
	bad := func(msg string, args ...any) error {
		return fmt.Errorf("page %s/%s.md: %s", locale, slug, fmt.Sprintf(msg, args...))
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return src, bad("no front matter (a first line ---)")
	}
	front, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return src, bad("front matter not closed by a line ---")
	}
	sc := bufio.NewScanner(strings.NewReader(front))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return src, bad("front matter line %q is not key: value", line)
		}
		value = strings.TrimSpace(value)
		if strings.HasPrefix(value, `"`) {
			v, err := strconv.Unquote(value)
			if err != nil {
				return src, bad("front matter %s: bad quoted value %s", key, value)
			}
			value = v
		}
		switch strings.TrimSpace(key) {
		case "title":
			src.Title = value
		case "summary":
			src.Summary = value
		case "variant":
			src.Variant = value
		case "stage":
			src.Stage = value
		default:
			return src, bad("unknown front matter key %q", key)
		}
	}
	src.Body = strings.TrimLeft(body, "\n")
	switch {
	case src.Title == "":
		return src, bad("no title")
	case src.Summary == "" || len([]rune(src.Summary)) > 160:
		return src, bad("the summary must have 1 to 160 characters")
	case strings.TrimSpace(src.Body) == "":
		return src, bad("empty body")
	}
	return src, nil
}

// LoadResult counts what LoadPages did.
type LoadResult struct {
	// Added counts the new rows, Updated the rows that took a changed
	// source, Unchanged the rows whose source is the one last loaded.
	Added, Updated, Unchanged int
	// Kept lists the pages ("cs/rules") whose source changed but whose row
	// was edited in the database, so the row was kept.
	Kept []string
}

// LoadPages brings the pages table up to date with the sources: a missing
// row is added; a row whose source changed since it was last loaded gets the
// new text, unless it was edited in the database since (Page.Edited), then
// it is kept as it is (delete the row to take the source again). Rows
// without a source stay. Several instances may run it at once.
func (db *DB) LoadPages(ctx context.Context, sources []PageSource) (LoadResult, error) {
	var res LoadResult
	for _, s := range sources {
		now := db.Gorm.NowFunc()
		fresh := Page{
			Slug: s.Slug, Locale: s.Locale, Title: s.Title, Summary: s.Summary, Body: s.Body,
			SourceHash: s.Hash, BodyHash: ContentHash(s.Title, s.Summary, s.Body), UpdatedAt: now,
		}
		var row Page
		err := db.Gorm.WithContext(ctx).Where("slug = ? AND locale = ?", s.Slug, s.Locale).Take(&row).Error
		switch {
		case errors.Is(err, gorm.ErrRecordNotFound):
			tx := db.Gorm.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&fresh)
			if tx.Error != nil {
				return res, fmt.Errorf("models: add page %s/%s: %w", s.Locale, s.Slug, tx.Error)
			}
			res.Added++
		case err != nil:
			return res, fmt.Errorf("models: read page %s/%s: %w", s.Locale, s.Slug, err)
		case row.SourceHash == s.Hash:
			res.Unchanged++
		case row.Edited():
			res.Kept = append(res.Kept, s.Locale+"/"+s.Slug)
		default:
			// Only if nobody changed the row meanwhile.
			tx := db.Gorm.WithContext(ctx).Model(&Page{}).
				Where("id = ? AND source_hash = ? AND body_hash = ?", row.ID, row.SourceHash, row.BodyHash).
				Updates(map[string]any{
					"title": fresh.Title, "summary": fresh.Summary, "body": fresh.Body,
					"source_hash": fresh.SourceHash, "body_hash": fresh.BodyHash, "updated_at": now,
				})
			if tx.Error != nil {
				return res, fmt.Errorf("models: update page %s/%s: %w", s.Locale, s.Slug, tx.Error)
			}
			res.Updated++
		}
	}
	return res, nil
}

// PageBySlug returns the page slug in locale, or ErrNotFound.
func (db *DB) PageBySlug(ctx context.Context, slug, locale string) (*Page, error) {
	var p Page
	err := db.Gorm.WithContext(ctx).Where("slug = ? AND locale = ?", slug, locale).Take(&p).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &p, nil
}

// PagesState returns a string that changes whenever one of the pages
// slugs in locale is added, deleted or updated (its updated_at moves on):
// the key of what a rendering of them is still valid for. ErrNotFound when
// none exists.
func (db *DB) PagesState(ctx context.Context, locale string, slugs []string) (string, error) {
	var rows []Page
	err := db.Gorm.WithContext(ctx).Select("slug", "updated_at").
		Where("locale = ? AND slug IN ?", locale, slugs).Order("slug").Find(&rows).Error
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		return "", ErrNotFound
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.Slug + "@" + r.UpdatedAt.UTC().Format(time.RFC3339Nano) + " ")
	}
	return b.String(), nil
}

// PageSummaries returns the titles and summaries (no bodies) of the pages
// slugs in locale that exist, by slug.
func (db *DB) PageSummaries(ctx context.Context, locale string, slugs []string) (map[string]Page, error) {
	var pages []Page
	err := db.Gorm.WithContext(ctx).Select("slug", "locale", "title", "summary", "updated_at").
		Where("locale = ? AND slug IN ?", locale, slugs).Find(&pages).Error
	out := make(map[string]Page, len(pages))
	for _, p := range pages {
		out[p.Slug] = p
	}
	return out, err
}

// PageLocales returns the locales in which page slug exists, sorted.
func (db *DB) PageLocales(ctx context.Context, slug string) ([]string, error) {
	var locales []string
	err := db.Gorm.WithContext(ctx).Model(&Page{}).Where("slug = ?", slug).Order("locale").Pluck("locale", &locales).Error
	return locales, err
}

// AllPages returns every page (without bodies), ordered by slug and locale:
// the sitemap lists them.
func (db *DB) AllPages(ctx context.Context) ([]Page, error) {
	var pages []Page
	err := db.Gorm.WithContext(ctx).Omit("body").Order("slug, locale").Find(&pages).Error
	return pages, err
}
