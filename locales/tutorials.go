package locales

import (
	"embed"
	"io/fs"
)

//go:embed tutorials/cs/*.md tutorials/it/*.md tutorials/en/*.md
var tutorialsFS embed.FS

// TutorialSources holds the tutorial sources, <lang>/<nn>-<slug>.md: front
// matter (title, summary), then one "## " section a step, each with a
// fenced "step" block (position, highlight, task, accept, rules). They are
// loaded into the tutorial tables at start-up (models.LoadTutorials).
var TutorialSources fs.FS = func() fs.FS {
	sub, err := fs.Sub(tutorialsFS, "tutorials")
	if err != nil {
		panic(err) // "tutorials" is a constant: a programming error
	}
	return sub
}()
