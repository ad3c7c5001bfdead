package pattern

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The package's contract (doc.go, docs/design.md): it imports only the
// standard library and regexp2, nothing of this module.
func TestImportsOnlyStdAndRegexp2(t *testing.T) {
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, fi := range files {
		name := fi.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			if strings.Contains(first, ".") && path != "github.com/dlclark/regexp2" {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}

// Every backtracking match is bounded because every regexp2 regex is
// compiled here, with MatchTimeout set (compile), and matched through
// Match: a matcher is a repository's text ((a+)+$ on a long name would
// run for hours). No other package of the module may use regexp2 itself.
func TestRegexp2OnlyHere(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || filepath.Dir(p) == filepath.Join(root, "internal", "pattern") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(path, "github.com/dlclark/regexp2") {
				t.Errorf("%s imports %s: compile patterns with internal/pattern, which bounds every match", p, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
