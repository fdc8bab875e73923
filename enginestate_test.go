package oware_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEngineOwnsItsGame: no package but engine assigns a field of
// engine.Game, builds one as a literal or copies one by value (Clone copies
// the repetition history too); engine.Resume rebuilds a stored game.
func TestEngineOwnsItsGame(t *testing.T) {
	exports, pkgs := exportData(t, "./...")
	for _, pkg := range pkgs {
		if pkg.path == "oware/engine" {
			continue
		}
		for _, err := range engineGameWrites(pkg.path, pkg.files, exports) {
			t.Error(err)
		}
	}
}

// TestEngineOwnsItsGameSeesWrites: the check finds each kind of write in a
// package written for it, and nothing in one that only reads.
func TestEngineOwnsItsGameSeesWrites(t *testing.T) {
	exports, _ := exportData(t, "oware/engine")
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.go")
	src := `package bad

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
	good := filepath.Join(dir, "good.go")
	goodSrc := `package good

import "oware/engine"

type game struct{ Position engine.Position; Engine *engine.Game }

func f(g *game, p engine.Position) int {
	g.Position = g.Engine.Position
	c := g.Engine.Clone()
	return len(c.Moves) + int(p.Pits[0])
}
`
	if err := os.WriteFile(bad, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, []byte(goodSrc), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, err := range engineGameWrites("bad", []string{bad}, exports) {
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
	if errs := engineGameWrites("good", []string{good}, exports); len(errs) != 0 {
		t.Errorf("a package that only reads: %v", errs)
	}
}

// goPackage is a package of the module: its import path and its non-test
// Go files.
type goPackage struct {
	path  string
	files []string
}

// exportData lists the packages matching pattern with `go list -export
// -deps` and returns where the compiler's export data of each dependency
// is, and the module's own packages among them.
func exportData(t *testing.T, pattern string) (map[string]string, []goPackage) {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-f",
		"{{.ImportPath}}\t{{.Export}}\t{{.Module}}\t{{.Dir}}\t{{join .GoFiles \" \"}}", pattern)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	exports := map[string]string{}
	var pkgs []goPackage
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			continue
		}
		exports[f[0]] = f[1]
		if f[2] != "oware" {
			continue
		}
		p := goPackage{path: f[0]}
		for _, name := range strings.Fields(f[4]) {
			p.files = append(p.files, filepath.Join(f[3], name))
		}
		pkgs = append(pkgs, p)
	}
	return exports, pkgs
}

// engineGameWrites type-checks the files of package path (its imports from
// their export data) and returns one error per write of an engine.Game
// outside the engine: a field assigned or incremented, a value copy, or a
// composite literal.
func engineGameWrites(path string, files []string, exports map[string]string) []error {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return []error{err}
		}
		parsed = append(parsed, f)
	}
	lookup := func(p string) (io.ReadCloser, error) {
		if exports[p] == "" {
			return nil, fmt.Errorf("no export data for %s", p)
		}
		return os.Open(exports[p])
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	if _, err := conf.Check(path, fset, parsed, info); err != nil {
		return []error{fmt.Errorf("%s: %v", path, err)}
	}
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
	for _, f := range parsed {
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
