package oware_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// allowedImports is the direction of imports of DESIGN.md: the project
// packages each top-level package and its subpackages may import (their own
// tree aside). Tests may import more.
var allowedImports = map[string][]string{
	"engine":     {},
	"tutor":      {"engine"},
	"views":      {"engine", "locales", "route", "play"},
	"models":     {"engine"},
	"game":       {"models", "engine", "play"},
	"tournament": {"game", "models", "engine"},
	"content":    {"models", "engine", "tutor", "locales"},
	"accounts":   {"models", "engine"},
	// handlers never use the storage: they call the services.
	"handlers": {"accounts", "game", "tournament", "content", "tutor", "views", "route", "play", "engine", "locales", "static", "mailer", "metrics"},
	"mailer":   {},
	"metrics":  {},
	"static":   {},
	"locales":  {},
	"route":    {},
	// play: the words of a game's life that game stores and views show.
	"play": {"engine"},
}

// rooms are the subpackages of a tree that may import only some of its
// others: the surfaces of handlers (the site, the JSON API, the event
// streams) import the state and middleware they share (handlers/core) and
// the services, never each other, and handlers/core imports no surface.
var rooms = map[string][]string{
	"handlers/core": {},
	"handlers/web":  {"handlers/core"},
	"handlers/api":  {"handlers/core"},
	"handlers/live": {"handlers/core"},
}

// TestImportDirection: engine imports nothing of the project, views
// neither models nor handlers, no package, nor any of its subpackages,
// imports against the direction of DESIGN.md, and no room of handlers
// imports another against rooms.
func TestImportDirection(t *testing.T) {
	for _, err := range importViolations(".", allowedImports, rooms) {
		t.Error(err)
	}
}

// TestImportDirectionSeesSubpackages: the check itself finds a subpackage
// importing against the direction (testdata/imports: engine/search imports
// handlers, game/glicko imports views), a views file importing game
// (views get game's words from play, which views/ok.go imports), a room
// of handlers importing a surface (handlers/core imports handlers/web,
// handlers/web imports handlers/api; handlers/web/ok.go imports
// handlers/core), and passes a tree that keeps it.
func TestImportDirectionSeesSubpackages(t *testing.T) {
	allowed := map[string][]string{"engine": nil, "game": allowedImports["game"], "views": allowedImports["views"],
		"handlers": allowedImports["handlers"]}
	got := importViolations(filepath.Join("testdata", "imports"), allowed, rooms)
	var names []string
	for _, err := range got {
		names = append(names, err.Error())
	}
	want := []string{"engine/search/bad.go imports oware/handlers", "game/glicko/bad.go imports oware/views",
		"handlers/core/bad.go imports oware/handlers/web", "handlers/web/bad.go imports oware/handlers/api",
		"views/bad.go imports oware/game"}
	if len(got) != len(want) {
		t.Fatalf("violations %q, want %d: %q", names, len(want), want)
	}
	for i, w := range want {
		if !strings.HasPrefix(filepath.ToSlash(names[i]), w) {
			t.Errorf("violation %d: %q, want %q", i, names[i], w)
		}
	}
}

// importViolations walks every package under root whose top folder is a key
// of allowed, subpackages included, and returns one error per import of a
// project package that the direction (or, inside a tree, its rooms)
// forbids, in file order.
func importViolations(root string, allowed, rooms map[string][]string) []error {
	var errs []error
	tops := make([]string, 0, len(allowed))
	for top := range allowed {
		tops = append(tops, top)
	}
	slices.Sort(tops)
	for _, top := range tops {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "handlerstest") {
				return filepath.SkipDir // handlerstest: the handlers' tests' helpers, which may import more
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			errs = append(errs, fileViolations(path, rel, top, allowed[top], rooms)...)
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", top, err))
		}
	}
	return errs
}

// fileViolations returns the forbidden project imports of one file of the
// tree top.
func fileViolations(path, rel, top string, allowed []string, rooms map[string][]string) []error {
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, imp := range file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		dep, ours := strings.CutPrefix(p, "oware/")
		if !ours {
			continue
		}
		if dep == top || strings.HasPrefix(dep, top+"/") {
			from, to := roomOf(filepath.ToSlash(filepath.Dir(rel))), roomOf(dep)
			_, fromRoom := rooms[from]
			_, toRoom := rooms[to]
			if from != to && fromRoom && toRoom && !slices.Contains(rooms[from], to) {
				errs = append(errs, fmt.Errorf("%s imports %s: %s may import only %v of its tree", filepath.ToSlash(rel), p, from, rooms[from]))
			}
			continue
		}
		if depTop, _, _ := strings.Cut(dep, "/"); !slices.Contains(allowed, depTop) {
			errs = append(errs, fmt.Errorf("%s imports %s: %s may import only %v", filepath.ToSlash(rel), p, top, allowed))
		}
	}
	return errs
}

// roomOf returns the room of a package path (its first two folders,
// "handlers/web").
func roomOf(pkg string) string {
	parts := strings.SplitN(pkg, "/", 3)
	if len(parts) < 2 {
		return parts[0]
	}
	return parts[0] + "/" + parts[1]
}
