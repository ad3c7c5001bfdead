// Package layout holds no code: its tests keep the repository's layout
// (docs/design.md) by test rather than by review — which package may import
// which, that agent names stay in package agents, the size budgets of files
// and functions, and what the binary depends on (deps_test.go).
//
// Where the tree does not keep a rule yet, the violation is listed in
// debt (debt.go) with the work that removes it: each test fails on any
// violation not listed, and on a listed one that is gone (remove it from
// the list), so the list only shrinks.
package layout

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/hermes-hooks/hermes-hooks"

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

// listAll lists every package of the module (the root is two levels up),
// once for all the tests.
func listAll(t *testing.T) map[string]*pkg {
	t.Helper()
	listOnce.Do(func() { listed, listErr = list() })
	if listErr != nil {
		t.Fatal(listErr)
	}
	return listed
}

var (
	listOnce sync.Once
	listed   map[string]*pkg
	listErr  error
)

func list() (map[string]*pkg, error) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	all := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		all[strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")] = &p
	}
	return all, nil
}

// The layering of docs/design.md. Direct imports for purity (a pure package
// may use a library that does I/O elsewhere, mvdan.cc/sh's parser); every
// dependency, transitive too, for the layers of this module.
func TestLayering(t *testing.T) {
	r := newRatchet(t, debtLayering)
	defer r.done()
	all := listAll(t)
	own := func(path string) (string, bool) {
		rest, ok := strings.CutPrefix(path, module)
		return strings.TrimPrefix(rest, "/"), ok
	}
	for _, rule := range []struct {
		pkg     string
		imports []string // none of these, directly
		deps    []string // none of these, even indirectly (module packages)
		only    func(dep string) bool
		why     string
	}{
		{pkg: "protocol", imports: []string{"os", "os/exec", "net", "syscall"}, deps: []string{"dispatcher", "consent"}, why: "pure: parsing and folding, no I/O"},
		{pkg: "protocol/permrule", imports: []string{"os", "os/exec", "net", "syscall"}, deps: []string{"dispatcher", "consent"}, why: "pure: Claude Code if rules"},
		{pkg: "agents", imports: []string{"os", "os/exec", "net", "syscall"}, deps: []string{"dispatcher", "consent"}, why: "pure: per-agent tables and encodings"},
		{pkg: "internal/pattern", only: func(dep string) bool {
			_, mine := own(dep)
			return !mine && (!strings.Contains(strings.Split(dep, "/")[0], ".") || strings.HasPrefix(dep, "github.com/dlclark/regexp2"))
		}, why: "the standard library and regexp2 only"},
		{pkg: "internal/hookproc", only: func(dep string) bool {
			p, mine := own(dep)
			return !mine || p == "internal/fsutil"
		}, why: "nothing of this module but internal/fsutil"},
		{pkg: "internal/hookhttp", only: func(dep string) bool {
			p, mine := own(dep)
			return !mine || p == "internal/hookproc" || p == "internal/fsutil" || p == "internal/shquote" || p == "internal/textutil" || p == "internal/tlsroots"
		}, why: "posts http hooks: nothing of this module but internal/hookproc (the Result it answers in, so that an http hook is read as a process is) and, through it, internal/fsutil; the leaves internal/shquote (the one reading of $NAME in a header, the one consent pins), internal/textutil (cutting an error) and internal/tlsroots (the CAs an https post trusts)"},
		{pkg: "internal/yamltree", only: func(dep string) bool {
			_, mine := own(dep)
			return !mine && (!strings.Contains(strings.Split(dep, "/")[0], ".") || dep == "gopkg.in/yaml.v3")
		}, why: "a leaf: yaml.v3's node trees as bytes and back, the standard library and yaml.v3 only"},
		{pkg: "internal/tlsroots", only: func(dep string) bool {
			_, mine := own(dep)
			return !mine
		}, why: "a leaf: which CAs an https post trusts, for hookhttp and export alike"},
		{pkg: "internal/cmdpin", only: func(dep string) bool {
			p, mine := own(dep)
			return !mine || p == "internal/fsutil" || p == "internal/pyjson" || p == "internal/shquote"
		}, why: "works out and pins what a command runs; decides nothing (no consent, no dispatcher)"},
		// hookconfig reads the built-in rule files from it: were it to
		// import anything of this module, a config's reading would reach
		// what the examples' package needs.
		{pkg: "agent-hooks", only: func(dep string) bool {
			_, mine := own(dep)
			return !mine
		}, why: "a leaf: the built-in rule files (embedded data) and the standard library only"},
		{pkg: "bundle", deps: []string{"consent", "dispatcher", "hookconfig", "internal/cmdpin"}, why: "signed bundles: archives, manifests, signatures and their install; consent reads them, not the other way round"},
		{pkg: "hookconfig", deps: []string{"dispatcher", "internal/hookproc"}, why: "reads configs; runs nothing"},
		// agents reach the dispatcher only as hookconfig's reading of
		// their hook files (docs/design.md): never imported directly.
		{pkg: "dispatcher", imports: []string{module + "/agents"}, deps: []string{"journal", "report", "server", "install", "internal/cli"}, why: "one event → one outcome, for any host"},
		// Every agent event starts the binary, and Go runs the init of
		// every package it links: client_golang's stack cost ~0.9 ms of
		// it (bench section 10). Tests read /metrics with promscrape.
		{pkg: "cmd/hermes-hooks", only: func(dep string) bool {
			return !strings.HasPrefix(dep, "github.com/prometheus/") && !strings.HasPrefix(dep, "google.golang.org/protobuf") && dep != module+"/internal/promscrape"
		}, why: "the binary links no Prometheus client or protobuf runtime"},
	} {
		p := all[rule.pkg]
		if p == nil {
			r.report(rule.pkg+": no such package", "docs/design.md")
			continue
		}
		for _, imp := range p.Imports {
			if slices.Contains(rule.imports, imp) {
				r.report(rule.pkg+" imports "+imp, rule.why)
			}
		}
		for _, dep := range p.Deps {
			if rel, mine := own(dep); mine && slices.Contains(rule.deps, rel) {
				r.report(rule.pkg+" depends on "+rel, rule.why)
			}
			if rule.only != nil && !rule.only(dep) && !strings.HasPrefix(dep, "internal/") && !strings.HasPrefix(dep, "vendor/") {
				r.report(rule.pkg+" depends on "+dep, rule.why)
			}
		}
	}
}

// A blank import is a side effect someone must remember: no package but a
// main may have one.
func TestNoBlankImportOutsideMain(t *testing.T) {
	for _, p := range listAll(t) {
		if p.Name == "main" {
			continue
		}
		for _, f := range p.GoFiles {
			file := parse(t, filepath.Join(p.Dir, f))
			for _, imp := range file.Imports {
				// embed is the standard library's own way to say "this
				// file embeds data": not a side effect to remember.
				if imp.Name != nil && imp.Name.Name == "_" && imp.Path.Value != `"embed"` {
					t.Errorf("%s: blank import of %s", filepath.Join(p.Dir, f), imp.Path.Value)
				}
			}
		}
	}
}

// An agent is one file in package agents: no other production code names
// one (as a string literal), the way no production file outside the catalog
// compares an event name.
func TestNoAgentNameOutsideAgents(t *testing.T) {
	r := newRatchet(t, debtAgentNames)
	defer r.done()
	names := agentNames(t)
	for rel, p := range listAll(t) {
		if rel == "agents" || p.Name == "main" && strings.HasPrefix(rel, "bench") {
			continue
		}
		for _, f := range p.GoFiles {
			ast.Inspect(parse(t, filepath.Join(p.Dir, f)), func(n ast.Node) bool {
				// A dialect (protocol.Claude = "claude") is how a script
				// speaks, not which agent runs it: its constants may share
				// a name with an agent.
				if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST && rel == "protocol" {
					return false
				}
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(names, s) {
					r.report(rel+"/"+f+" names the agent "+strconv.Quote(s), "an agent's rules belong in package agents")
				}
				return true
			})
		}
	}
}

// agentNames are the names package agents registers (newX functions'
// Name: "…" fields), read from its source so this test needs no import.
func agentNames(t *testing.T) []string {
	var names []string
	files, _ := filepath.Glob(filepath.Join("..", "..", "agents", "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast.Inspect(parse(t, f), func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Name" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						names = append(names, s)
					}
				}
			}
			return true
		})
	}
	if len(names) < 4 {
		t.Fatalf("found agent names %v in package agents; want at least claude, codex, copilot, cursor", names)
	}
	return names
}

// Budgets (docs/design.md): a newcomer reads a file in one sitting and a
// function on one screen or two. There is no budget per package: a line
// count decided where code went (it moved code away from its owner to fit);
// a package's growth is held by what it may import (TestLayering) and by the
// binary's dependency golden (TestDependencyGolden).
const (
	maxFileLines = 500
	maxFuncLines = 120
)

// funcExempt are the functions allowed past maxFuncLines, and why (none
// today: the regex planners were split when they moved to
// internal/pattern).
var funcExempt = map[string]string{}

func TestBudgets(t *testing.T) {
	r := newRatchet(t, debtBudgets)
	defer r.done()
	for rel, p := range listAll(t) {
		if p.Name == "main" && rel == "bench" {
			continue // the benchmark harness is not product code
		}
		for _, f := range p.GoFiles {
			path := filepath.Join(p.Dir, f)
			n := lines(t, path)
			if n > maxFileLines {
				r.report(rel+"/"+f+" is over "+strconv.Itoa(maxFileLines)+" lines", strconv.Itoa(n)+" lines")
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
				if _, ok := funcExempt[rel+"."+fn.Name.Name]; n > maxFuncLines && !ok {
					r.report(rel+"."+fn.Name.Name+" is over "+strconv.Itoa(maxFuncLines)+" lines", strconv.Itoa(n)+" lines")
				}
			}
		}
	}
}

func parse(t *testing.T, path string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func lines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		n++
	}
	return n
}

// ratchet reports violations, letting through those listed as debt, and
// fails for listed debt that no longer shows.
type ratchet struct {
	t    *testing.T
	debt map[string]string
	seen map[string]bool
}

func newRatchet(t *testing.T, debt map[string]string) *ratchet {
	return &ratchet{t: t, debt: debt, seen: map[string]bool{}}
}

func (r *ratchet) report(what, detail string) {
	r.t.Helper()
	r.seen[what] = true
	if _, owed := r.debt[what]; !owed {
		r.t.Errorf("%s (%s)", what, detail)
	}
}

func (r *ratchet) done() {
	r.t.Helper()
	for what := range r.debt {
		if !r.seen[what] {
			r.t.Errorf("%q is listed as debt but no longer holds: remove it from debt.go", what)
		}
	}
}
