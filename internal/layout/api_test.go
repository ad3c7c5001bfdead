package layout

import (
	"go/ast"
	"path/filepath"
	"strings"
	"testing"
)

// maxDispatcherNames bounds package dispatcher's exported top-level names
// (types, functions, constants, variables; methods and fields not
// counted): its API is what a Go host embeds (Load a config, New, Options,
// a Gate, Dispatch and its Outcome, the Record a Recorder gets), and what
// only this module's own packages need goes to internal/ or is unexported
// (issue 25: 39 before, 31 after).
const maxDispatcherNames = 40

func TestDispatcherAPIBudget(t *testing.T) {
	p := listAll(t)["dispatcher"]
	if p == nil {
		t.Fatal("no package dispatcher")
	}
	var names []string
	for _, f := range p.GoFiles {
		for _, d := range parse(t, filepath.Join(p.Dir, f)).Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	if len(names) > maxDispatcherNames {
		t.Errorf("package dispatcher exports %d names, over %d: %s", len(names), maxDispatcherNames, strings.Join(names, " "))
	}
}
