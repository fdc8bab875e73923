package oware_test

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEngineOwnsItsGame: no package but engine assigns a field of
// engine.Game, builds one as a literal or copies one by value (Clone copies
// the repetition history too); engine.Resume rebuilds a stored game.
func TestEngineOwnsItsGame(t *testing.T) {
	imp := newProjectImporter(".")
	for _, pkg := range imp.packages(t) {
		if pkg == "oware/engine" {
			continue
		}
		for _, err := range imp.engineGameWrites(pkg) {
			t.Error(err)
		}
	}
}

// TestEngineOwnsItsGameSeesWrites: the check finds each kind of write in a
// package written for it, and nothing in one that only reads.
func TestEngineOwnsItsGameSeesWrites(t *testing.T) {
	root := t.TempDir()
	engineDir, err := filepath.Abs("engine")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(engineDir, filepath.Join(root, "engine")); err != nil {
		t.Fatal(err)
	}
	bad := `package bad

import "oware/engine"

func f(g *engine.Game, p engine.Position) int {
	g.Position = p
	g.Round++
	g.Moves, g.RoundMoves = nil, 0
	c := *g
	_ = engine.Game{Start: p}
	return len(c.Moves) + g.Round
}
`
	good := `package good

import "oware/engine"

type game struct{ Position engine.Position; Engine *engine.Game }

func f(g *game, p engine.Position) int {
	g.Position = g.Engine.Position
	c := g.Engine.Clone()
	return len(c.Moves) + int(p.Pits[0])
}
`
	for name, src := range map[string]string{"bad": bad, "good": good} {
		if err := os.Mkdir(filepath.Join(root, name), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name, name+".go"), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	imp := newProjectImporter(root)
	var got []string
	for _, err := range imp.engineGameWrites("oware/bad") {
		_, msg, _ := strings.Cut(err.Error(), ": ")
		got = append(got, msg)
	}
	want := []string{
		"assigns engine.Game.Position",
		"assigns engine.Game.Round",
		"assigns engine.Game.Moves",
		"assigns engine.Game.RoundMoves",
		"copies an engine.Game by value (use Clone)",
		"builds an engine.Game literal (use NewGame or Resume)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("writes found:\n%q\nwant\n%q", got, want)
	}
	if errs := imp.engineGameWrites("oware/good"); len(errs) != 0 {
		t.Errorf("a package that only reads: %v", errs)
	}
}

// projectImporter type-checks the module's packages from their source,
// each once. Packages from outside the module are empty stand-ins: what
// is typed from them stays untyped, which cannot hide a type of ours.
type projectImporter struct {
	root  string
	fset  *token.FileSet
	pkgs  map[string]*types.Package
	files map[string][]*ast.File
	info  *types.Info
}

func newProjectImporter(root string) *projectImporter {
	return &projectImporter{root: root, fset: token.NewFileSet(), pkgs: map[string]*types.Package{},
		files: map[string][]*ast.File{},
		info:  &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}}
}

// packages returns the import paths of the module's packages with Go files
// to build (not only tests), testdata left out.
func (imp *projectImporter) packages(t *testing.T) []string {
	var out []string
	err := filepath.WalkDir(imp.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != imp.root {
			return filepath.SkipDir
		}
		if bp, err := build.ImportDir(path, 0); err == nil && len(bp.GoFiles) > 0 {
			rel, _ := filepath.Rel(imp.root, path)
			out = append(out, "oware/"+filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Import implements types.Importer.
func (imp *projectImporter) Import(path string) (*types.Package, error) {
	if p := imp.pkgs[path]; p != nil {
		return p, nil
	}
	rel, ours := strings.CutPrefix(path, "oware/")
	if !ours {
		name := pathpkg.Base(strings.TrimSuffix(path, pathpkg.Ext(path)))
		if v := pathpkg.Base(path); len(v) > 1 && v[0] == 'v' && strings.Trim(v[1:], "0123456789") == "" {
			name = pathpkg.Base(pathpkg.Dir(path))
		}
		p := types.NewPackage(path, strings.TrimPrefix(name, "go-"))
		p.MarkComplete()
		imp.pkgs[path] = p
		return p, nil
	}
	bp, err := build.ImportDir(filepath.Join(imp.root, rel), 0)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(imp.fset, filepath.Join(bp.Dir, name), nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: imp, Error: func(error) {}}
	p, _ := conf.Check(path, imp.fset, files, imp.info)
	imp.pkgs[path], imp.files[path] = p, files
	return p, nil
}

// engineGameWrites type-checks package path and returns one error per
// write of an engine.Game in it: a field assigned or incremented, a value
// copy, or a composite literal.
func (imp *projectImporter) engineGameWrites(path string) []error {
	if _, err := imp.Import(path); err != nil {
		return []error{err}
	}
	fset, info := imp.fset, imp.info
	var errs []error
	report := func(n ast.Node, what string) {
		errs = append(errs, fmt.Errorf("%s: %s", fset.Position(n.Pos()), what))
	}
	field := func(e ast.Expr) {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if s := info.Selections[sel]; ok && s != nil && s.Kind() == types.FieldVal && isEngineGame(s.Recv()) {
			report(e, "assigns engine.Game."+sel.Sel.Name)
		}
	}
	for _, f := range imp.files[path] {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					field(lhs)
				}
			case *ast.IncDecStmt:
				field(n.X)
			case *ast.StarExpr:
				if tv, ok := info.Types[n]; ok && tv.IsValue() && isEngineGame(tv.Type) {
					if _, ptr := tv.Type.(*types.Pointer); !ptr {
						report(n, "copies an engine.Game by value (use Clone)")
					}
				}
			case *ast.CompositeLit:
				if tv, ok := info.Types[n]; ok && isEngineGame(tv.Type) {
					report(n, "builds an engine.Game literal (use NewGame or Resume)")
				}
			}
			return true
		})
	}
	return errs
}

// isEngineGame reports whether t is engine.Game or a pointer to it.
func isEngineGame(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "oware/engine" && n.Obj().Name() == "Game"
}
