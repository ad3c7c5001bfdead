package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// firingKeys are the host fields protocol.Firing types: read from a host's
// map by its builder (protocol.NewFiring) only, so that matching, `if`
// rules, gating, the runner and the journal agree on what the host said
// (issue 34, item 2).
var firingKeys = map[string]bool{"tool_name": true, "tool_input": true, "args": true, "session_id": true, "cwd": true}

// firingReaders are the places allowed to index a map with one of
// firingKeys, and why: the builder; package agents (whole), whose
// decoders translate an agent's payload into the host's map and whose
// encoders read the payload built for a hook back; protocol's payload
// builders, which pass the host's values through to a hook's stdin as
// sent (a non-string tool_name or session id included); and maps that are
// no host's fields. A key is "package/file.go:Func" or "package" (all of
// it).
var firingReaders = map[string]string{
	"protocol/firing.go:NewFiring":             "the builder",
	"agents":                                   "per-agent decoders (agent payload → host map) and codecs (hook payload ← host map)",
	"protocol/payload.go:HermesPayload":        "payload builder: the host's tool_name passed through as sent",
	"protocol/payload.go:ClaudePayload":        "payload builder: the host's tool_name passed through as sent",
	"protocol/payload.go:sessionValue":         "payload builder: the session value passed through as sent (the builder's Session is its string)",
	"protocol/reply_hermes.go:hermesToolReply": "a hook's reply object, not the host's fields",
	"protocol/permrule/permrule.go":            "a tool's input (the Skill tool's args), not the host's fields",
}

// TestFieldsReadByTheFiringOnly fails when code outside firingReaders
// reads one of firingKeys from a map (an index expression with that string
// literal that is not the target of an assignment): such code would derive
// the tool, the arguments, the session or the cwd by a rule of its own.
// Read protocol.Firing (built once at each entrance) instead.
func TestFieldsReadByTheFiringOnly(t *testing.T) {
	used := map[string]bool{}
	var bad []string
	for rel, p := range listAll(t) {
		for _, f := range p.GoFiles {
			for _, r := range firingKeyReads(t, filepath.Join(p.Dir, f)) {
				key := rel + "/" + f + ":" + r.fn
				switch {
				case firingReaders[rel] != "":
					used[rel] = true
				case firingReaders[rel+"/"+f] != "":
					used[rel+"/"+f] = true
				case firingReaders[key] != "":
					used[key] = true
				default:
					bad = append(bad, key+" reads "+strconv.Quote(r.key)+" at line "+strconv.Itoa(r.line))
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s from a host's map: read protocol.Firing (protocol.NewFiring is the one reader of tool_name, args, tool_input, session_id and cwd)", b)
	}
	for k := range firingReaders {
		if !used[k] {
			t.Errorf("firingReaders lists %s, which reads none of the firing's keys any more: remove it", k)
		}
	}
}

type keyRead struct {
	fn, key string
	line    int
}

// firingKeyReads lists the reads of firingKeys in one file, with the
// top-level function (or method) they are in ("" outside any).
func firingKeyReads(t *testing.T, path string) []keyRead {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []keyRead
	for _, d := range file.Decls {
		fn := ""
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		}
		written := map[ast.Expr]bool{}
		ast.Inspect(d, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					written[l] = true
				}
			}
			ix, ok := n.(*ast.IndexExpr)
			if !ok || written[ix] {
				return true
			}
			lit, ok := ix.Index.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && firingKeys[s] {
				out = append(out, keyRead{fn: fn, key: s, line: fset.Position(ix.Pos()).Line})
			}
			return true
		})
	}
	return out
}
