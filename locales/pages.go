package locales

import (
	"embed"
	"io/fs"
)

//go:embed pages/*/*.md
var pagesFS embed.FS

// Pages holds the page sources: <lang>/<slug>.md (front matter and
// Markdown), loaded into the pages table at start-up by models.LoadPages.
var Pages fs.FS = mustSub(pagesFS, "pages")

// mustSub returns the subtree dir of fsys; dir is a constant of this
// package, so an error is a programming error.
func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	return sub
}
