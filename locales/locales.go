// Package locales embeds the UI message catalogs (cs.toml, it.toml,
// en.toml), read by go-i18n. The long texts under pages/ and tutorials/ are
// separate sources.
package locales

import "embed"

// Catalogs holds the message catalogs, one TOML file per locale.
//
//go:embed cs.toml it.toml en.toml
var Catalogs embed.FS

// Langs are the site's locales; the first is no default, en is.
var Langs = []string{"cs", "it", "en"}
