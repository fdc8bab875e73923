package oware_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// allowedImports is the direction of imports of DESIGN.md: the project
// packages each package may import (its own subpackages aside). Tests may
// import more.
var allowedImports = map[string][]string{
	"engine":     {},
	"tutor":      {"engine"},
	"views":      {"engine"},
	"models":     {"engine"},
	"game":       {"models", "engine"},
	"tournament": {"game", "models", "engine"},
	"content":    {"models", "engine", "tutor", "locales"},
	"handlers":   {"game", "tournament", "content", "tutor", "views", "models", "engine", "locales", "static", "mailer", "metrics"},
	"mailer":     {},
	"metrics":    {},
	"static":     {},
	"locales":    {},
}

// TestImportDirection: engine imports nothing of the project, views
// neither models nor handlers, and no package imports against the
// direction of DESIGN.md.
func TestImportDirection(t *testing.T) {
	for pkg, allowed := range allowedImports {
		files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", pkg, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				dep, ours := strings.CutPrefix(path, "oware/")
				if !ours || dep == pkg || strings.HasPrefix(dep, pkg+"/") {
					continue
				}
				if top, _, _ := strings.Cut(dep, "/"); !slices.Contains(allowed, top) {
					t.Errorf("%s imports %s: %s may import only %v", f, path, pkg, allowed)
				}
			}
		}
	}
}
