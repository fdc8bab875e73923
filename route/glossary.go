package route

// GlossaryPattern is the strategy glossary, a page of the pages table
// (slug "glossary"); its entries' anchors (#tempo, #double-threat, ...)
// are the same in every language.
const GlossaryPattern = "/glossary"

// Glossary is the glossary page: "/{lang}/glossary".
func Glossary(lang string) string { return In(lang, GlossaryPattern) }
