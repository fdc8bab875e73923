// Package locales embeds the UI message catalogs (cs.toml, it.toml,
// en.toml), read by go-i18n. The long texts under pages/ and tutorials/ are
// separate sources.
package locales

import "embed"

// Catalogs holds the message catalogs: one TOML file per locale
// (<lang>.toml) and one per feature and locale (<feature>.<lang>.toml).
//
//go:embed *.toml
var Catalogs embed.FS

// Langs are the site's locales, in the order the language switcher shows
// them; the first is no default, en is. It is the one list of them.
var Langs = []string{"cs", "it", "en"}

// Names are the locales' own names for themselves, as the language switcher
// shows them.
var Names = map[string]string{"cs": "Čeština", "it": "Italiano", "en": "English"}
