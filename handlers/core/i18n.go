package core

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"oware/locales"
	"oware/views"
)

// DefaultLang is the locale of / without a usable Accept-Language, and of
// pages outside any language prefix.
const DefaultLang = "en"

// MissingPrefix starts the text shown for a message id that a catalog lacks;
// the tests look for it in every rendered page.
const MissingPrefix = "!MISSING:"

// LoadBundle reads the message catalogs of every locale: locales/<lang>.toml
// and every feature's locales/<feature>.<lang>.toml.
func LoadBundle() (*i18n.Bundle, error) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, lang := range locales.Langs {
		// <lang>.toml and every feature's <feature>.<lang>.toml.
		files, err := fs.Glob(locales.Catalogs, "*"+lang+".toml")
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if f != lang+".toml" && !strings.HasSuffix(f, "."+lang+".toml") {
				continue
			}
			if _, err := b.LoadMessageFileFS(locales.Catalogs, f); err != nil {
				return nil, fmt.Errorf("message catalog %s: %w", f, err)
			}
		}
	}
	return b, nil
}

// Localizer gives the views the UI strings of one locale. A message missing
// from the locale's catalog is logged and shown as "!MISSING:id", never
// taken silently from another language. It is safe for concurrent use.
type Localizer struct {
	lang string
	loc  *i18n.Localizer
	log  *slog.Logger
	// done remembers the messages already localized, by message id,
	// count and data (a board names each of its pits with a template).
	mu   sync.Mutex
	done map[string]string
}

// maxLocalized bounds a localizer's memory of messages; past it, it
// starts afresh.
const maxLocalized = 20000

// NewLocalizer returns the localizer of lang over the catalogs of b;
// a message missing from them is shown as MissingPrefix and its id,
// and logged to log.
func NewLocalizer(b *i18n.Bundle, lang string, log *slog.Logger) *Localizer {
	return &Localizer{lang: lang, loc: i18n.NewLocalizer(b, lang), log: log, done: map[string]string{}}
}

// NewLocalizers returns the localizer of every locale, by locale.
func NewLocalizers(b *i18n.Bundle, log *slog.Logger) map[string]*Localizer {
	m := map[string]*Localizer{}
	for _, lang := range locales.Langs {
		m[lang] = NewLocalizer(b, lang, log)
	}
	return m
}

// T implements views.Localizer.
func (l *Localizer) T(id string, data ...any) string { return l.localize(id, nil, data) }

// N implements views.Localizer.
func (l *Localizer) N(id string, count int, data ...any) string {
	return l.localize(id, count, data)
}

func (l *Localizer) localize(id string, count any, data []any) string {
	key := messageKey(id, count, data)
	l.mu.Lock()
	s, ok := l.done[key]
	l.mu.Unlock()
	if ok {
		return s
	}
	s, ok = l.localizeNow(id, count, data)
	if ok {
		l.mu.Lock()
		if len(l.done) >= maxLocalized {
			clear(l.done)
		}
		l.done[key] = s
		l.mu.Unlock()
	}
	return s
}

// messageKey writes a message id, its count and data as one string.
func messageKey(id string, count any, data []any) string {
	var b strings.Builder
	b.WriteString(id)
	for _, v := range append([]any{count}, data...) {
		b.WriteByte(0)
		switch v := v.(type) {
		case string:
			b.WriteString(v)
		case int:
			b.WriteString(strconv.Itoa(v))
		case nil:
		default:
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

// localizeNow localizes a message with go-i18n; ok is false for a message
// missing from the catalog.
func (l *Localizer) localizeNow(id string, count any, data []any) (string, bool) {
	m := map[string]any{}
	for i := 0; i+1 < len(data); i += 2 {
		m[fmt.Sprint(data[i])] = data[i+1]
	}
	if count != nil {
		m["Count"] = count
	}
	s, err := l.loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: m, PluralCount: count})
	if err != nil {
		var nf *i18n.MessageNotFoundErr
		if !errors.As(err, &nf) {
			l.log.Error("i18n", "lang", l.lang, "id", id, "err", err)
		} else {
			l.log.Error("i18n: missing message", "lang", l.lang, "id", id)
		}
		return MissingPrefix + id, false
	}
	return s, true
}

// MatchLang picks a site locale from an Accept-Language header; English
// when nothing matches.
func MatchLang(header string) string {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil {
		return DefaultLang
	}
	for _, t := range tags {
		base, conf := t.Base()
		if conf == language.No {
			continue
		}
		for _, l := range locales.Langs {
			if strings.EqualFold(base.String(), l) {
				return l
			}
		}
	}
	return DefaultLang
}

// ValidLang reports whether lang is one of the site's locales.
func ValidLang(lang string) bool {
	for _, l := range locales.Langs {
		if l == lang {
			return true
		}
	}
	return false
}

// LocalizeCounted localizes a message id, or "id:count" as the plural
// form of id for count.
func LocalizeCounted(l views.Localizer, key string) string {
	if id, n, ok := strings.Cut(key, ":"); ok {
		if count, err := strconv.Atoi(n); err == nil {
			return l.N(id, count)
		}
	}
	return l.T(key)
}
