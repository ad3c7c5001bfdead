package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Per-event behaviour lives in the catalog (issue 14): no production file
// outside events.go compares an event name to a string literal or switches
// on one. This walks every non-test Go file of the module and fails on
// `x == "pre_tool_call"`, `x != "Stop"` and `case "PreToolUse":`.
func TestNoEventNameComparedOutsideTheCatalog(t *testing.T) {
	names := map[string]bool{}
	for _, e := range Events() {
		names[e.Name], names[e.ClaudeName()] = true, true
		for _, a := range e.Aliases {
			names[a] = true
		}
	}
	isName := func(x ast.Expr) (string, bool) {
		lit, ok := x.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil && names[s]
	}
	root := ".."
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "bench" || strings.HasPrefix(n, ".") && n != ".." {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || rel == filepath.Join("protocol", "events.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if x.Op == token.EQL || x.Op == token.NEQ {
					for _, side := range []ast.Expr{x.X, x.Y} {
						if s, ok := isName(side); ok {
							t.Errorf("%s: compares an event name (%q): make it a field of the catalog row", fset.Position(x.Pos()), s)
						}
					}
				}
			case *ast.CaseClause:
				for _, e := range x.List {
					if s, ok := isName(e); ok {
						t.Errorf("%s: switches on an event name (%q): make it a field of the catalog row", fset.Position(e.Pos()), s)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
