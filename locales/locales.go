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

// Langs are the site's locales; the first is no default, en is.
var Langs = []string{"cs", "it", "en"}
