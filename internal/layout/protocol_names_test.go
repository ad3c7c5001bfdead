package layout

import (
	"go/ast"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestProtocolSpellsNoAgent: package protocol's exported names (what `go
// doc ./protocol` lists: functions, methods, types, variables, constants)
// spell no agent's name. An agent's own dialect is a Codec in package
// agents; protocol keeps the two dialects it reads itself, Hermes' and
// Claude Code's, whose names (ClaudePayload, protocol.Claude …) are the
// dialect's, not the agent's.
func TestProtocolSpellsNoAgent(t *testing.T) {
	var banned []string
	for _, n := range agentNames(t) {
		if n == "claude" {
			continue // the Claude dialect is protocol's own
		}
		r, size := utf8.DecodeRuneInString(n)
		banned = append(banned, string(unicode.ToUpper(r))+n[size:])
	}
	p, ok := listAll(t)["protocol"]
	if !ok {
		t.Fatal("go list found no package protocol")
	}
	var found []string
	for _, f := range p.GoFiles {
		for _, name := range exportedNames(parse(t, filepath.Join(p.Dir, f))) {
			for _, b := range banned {
				if strings.Contains(name, b) {
					found = append(found, f+": "+name+" (spells "+b+")")
				}
			}
		}
	}
	sort.Strings(found)
	for _, s := range found {
		t.Errorf("protocol exports %s: an agent's dialect belongs in package agents, as a protocol.Codec", s)
	}
}

// exportedNames are the exported top-level names a file declares, methods
// included.
func exportedNames(f *ast.File) []string {
	var out []string
	add := func(id *ast.Ident) {
		if id != nil && id.IsExported() {
			out = append(out, id.Name)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(d.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name)
				case *ast.ValueSpec:
					for _, id := range s.Names {
						add(id)
					}
				}
			}
		}
	}
	return out
}
