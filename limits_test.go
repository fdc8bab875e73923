package oware_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// limitName is the name of an exported limit: Max…, Min… or …Limit (an
// error, Err…, aside).
var limitName = regexp.MustCompile(`^(Max|Min)[A-Z0-9]|Limit$`)

// TestReadmeListsEveryLimit: every constant README's Limits table names
// is declared where it says, and every exported limit of the module's
// packages (commands and scripts aside) is in the table.
func TestReadmeListsEveryLimit(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := limitsTable(t, string(readme))
	declared := map[string]bool{} // "pkg.Name" of every top-level const and var
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || path == "cmd" || path == "scripts") {
			return filepath.SkipDir
		}
		bp, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files to build
		}
		for _, name := range topLevelNames(t, path, bp.GoFiles) {
			key := bp.Name + "." + name
			declared[key] = true
			if ast.IsExported(name) && limitName.MatchString(name) && !strings.HasPrefix(name, "Err") && !listed[key] {
				t.Errorf("%s (%s) is not in README's Limits table", key, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range listed {
		if !declared[key] {
			t.Errorf("README's Limits table names %s, which no package declares", key)
		}
	}
}

// limitsTable returns the constants ("pkg.Name" in backquotes) in the
// last column of README's Limits table.
func limitsTable(t *testing.T, readme string) map[string]bool {
	_, section, ok := strings.Cut(readme, "\n## Limits\n")
	if !ok {
		t.Fatal("README has no Limits section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[string]bool{}
	code := regexp.MustCompile("`([a-z]+\\.[A-Za-z0-9]+)`")
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range code.FindAllStringSubmatch(cells[len(cells)-2], -1) {
			listed[m[1]] = true
		}
	}
	if len(listed) == 0 {
		t.Fatal("README's Limits table names no constant")
	}
	return listed
}

// topLevelNames returns the names of the top-level constants and variables
// of files in dir.
func topLevelNames(t *testing.T, dir string, files []string) []string {
	var names []string
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || (gd.Tok != token.CONST && gd.Tok != token.VAR) {
				continue
			}
			for _, spec := range gd.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					names = append(names, id.Name)
				}
			}
		}
	}
	return names
}
