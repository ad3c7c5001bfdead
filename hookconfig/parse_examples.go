package hookconfig

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A hook's examples: payloads it declares together with the outcome it
// must produce on them, so that `hermes-hooks test --examples` and
// `doctor` can prove that a guard still blocks what it should (and lets
// through what it should). Hermes ignores the key, as it ignores every key
// of an entry it does not know.

// Expect is the outcome an example must produce.
type Expect string

// The outcomes an example can expect: the decisions an outcome has, plus
// what a hook can do besides deciding.
const (
	ExpectBlock   Expect = "block"   // the call is refused
	ExpectAsk     Expect = "ask"     // the user is asked
	ExpectAllow   Expect = "allow"   // explicitly allowed (Claude's allow)
	ExpectNone    Expect = "none"    // goes ahead as announced: no block, ask or rewrite
	ExpectRewrite Expect = "rewrite" // goes ahead with rewritten arguments
	ExpectContext Expect = "context" // goes ahead, with context for the model
)

var expects = []Expect{ExpectBlock, ExpectAsk, ExpectAllow, ExpectNone, ExpectRewrite, ExpectContext}

// denyIsBlock follows a refused decision or expect of "deny": Claude
// Code's word for a refusal, which no did-you-mean finds near block.
const denyIsBlock = " (Claude Code's deny is block here)"

// Bounds on examples: they are read from files a repository controls,
// and each one runs a process.
const (
	MaxExamples         = 32       // per entry
	MaxExampleArgsBytes = 16 << 10 // args, as JSON
	maxExampleNodes     = 4096     // YAML nodes per example's args, aliases expanded
	maxExampleDepth     = 16       // nesting of args
	maxExampleText      = 4096     // tool, name, reason
)

// Example is one example of an entry (examples:). It runs on the entry's
// own event with the synthetic payload of that event, its tool_name and
// args replaced by Tool and Args; nothing else of the payload can be set,
// so an example cannot change where, or which, hook runs.
type Example struct {
	// Name labels the example in reports (default: the tool and its
	// command or args).
	Name   string
	Tool   string
	Args   map[string]any
	Expect Expect
	// Reason, when set, must be a substring of the outcome's message
	// (block, ask) or context (context).
	Reason string
	// Cwd, when set, is the firing's working directory (cwd: in the
	// payload): what a rule about paths compares with. Rules only: a
	// hook's example must not move where the hook runs.
	Cwd string
	// Key is the example's key path ("hooks.pre_tool_call[0].examples[1]").
	Key string
	// Line is the example's line in its entry's file (Entry.Source; 0:
	// unknown): what test --examples and doctor name a failing one by,
	// as validate does.
	Line int
	// Invalid says why the example cannot run (a warning says so too);
	// running it fails with this reason.
	Invalid string
}

// exampleKeys are the keys of one example.
var exampleKeys = []string{"name", "event", "tool", "args", "expect", "reason"}

// parseExamples reads examples: a list of mappings. Problems are warnings
// naming the example's key path (validate adds the line) and, for an
// example that cannot run, an Invalid example that fails when run, so a
// broken example is never mistaken for a passing one.
func (cfg *Config) parseExamples(e *Entry, path string, n *yaml.Node) {
	if cfg.skipsExamples() {
		return // a built-in file's, in a load that never runs them
	}
	x := pyyaml.MappingGet(n, "examples")
	if x == nil || x.Kind == yaml.ScalarNode && x.Tag == "!!null" {
		return
	}
	if x.Kind != yaml.SequenceNode {
		cfg.warn(path, ".examples must be a list of {tool, args, expect} mappings; got "+pyyaml.Type(x)+"; ignoring")
		return
	}
	if !e.Event.Tool {
		cfg.warn(path, ".examples are supported on tool events only (pre_tool_call, post_tool_call and their Claude names); ignored on "+e.DeclaredAs)
		return
	}
	items := x.Content
	if len(items) > MaxExamples {
		cfg.warn(path, fmt.Sprintf(".examples has %d examples; only the first %d are kept", len(items), MaxExamples))
		items = items[:MaxExamples]
	}
	for i, item := range items {
		key := fmt.Sprintf("%s.examples[%d]", path, i)
		ex := cfg.parseExample(e, key, item)
		ex.Key, ex.Line = key, item.Line
		if ex.Invalid != "" {
			cfg.warn(key, ex.Invalid)
		}
		e.Examples = append(e.Examples, ex)
	}
}

// strayArgKey is the first key of example n that is none of known and no
// misspelling of one (that has its own "did you mean"): most likely a
// tool's argument written where args: was meant. "" when there is none,
// or when the file's did-you-mean searches are spent (maySearch).
func (cfg *Config) strayArgKey(n *yaml.Node, known []string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if slices.Contains(known, k) {
			continue
		}
		if !cfg.maySearch() {
			return ""
		}
		if suggest.ClosestCutoff(k, known, 0.6) == "" {
			return k
		}
	}
	return ""
}

// parseExample reads one example; an example that cannot run comes back
// with Invalid set (the first problem, with how to fix it).
func (cfg *Config) parseExample(e *Entry, key string, n *yaml.Node) Example {
	ex := Example{Args: map[string]any{}}
	if n.Kind != yaml.MappingNode {
		ex.Invalid = " must be a mapping like {tool: terminal, args: {command: \"rm -rf /\"}, expect: block}; got " + pyyaml.Type(n)
		return ex
	}
	if r := cfg.flat.Repeated(n); r != nil {
		// An example is no guard: it fails (validate, test) rather than
		// keep the file from loading.
		ex.Invalid = ": " + r[0].String() + "; keep one"
		return ex
	}
	known := exampleKeys
	if e.Rule() != nil {
		known = append(known[:len(known):len(known)], "cwd")
	}
	cfg.unknownKeys(n, key, known, 0)
	text := func(k string) (string, bool) {
		v := pyyaml.MappingGet(n, k)
		if v == nil {
			return "", true
		}
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || len(v.Value) > maxExampleText {
			return "", false
		}
		return strings.TrimSpace(v.Value), true
	}
	var ok bool
	if ex.Name, ok = text("name"); !ok {
		ex.Invalid = ".name must be a short string"
		return ex
	}
	if ex.Reason, ok = text("reason"); !ok {
		ex.Invalid = ".reason must be a short string (a part of the message the hook must give)"
		return ex
	}
	if ev, ok := text("event"); !ok || ev != "" && !sameEvent(ev, e.Event) {
		ex.Invalid = ".event must name this entry's own event (" + e.DeclaredAs + "): an example runs only its own hook; leave it out"
		return ex
	}
	if ex.Cwd, ok = text("cwd"); e.Rule() == nil {
		ex.Cwd = "" // reported above as an unknown key
	} else if !ok {
		ex.Invalid = ".cwd must be a directory path (a short string)"
		return ex
	}
	if ex.Tool, ok = text("tool"); ok && ex.Tool == "" && PlainName(e.Matcher) {
		// The one tool the entry's matcher names: {args: …, expect: …}.
		ex.Tool = e.Matcher
	}
	switch {
	case !ok:
		ex.Invalid = ".tool must be the tool name, e.g. tool: terminal"
		return ex
	case ex.Tool == "":
		// Left out, and the matcher names no one tool (or is misspelt and
		// so absent): say which key is missing and when it may be.
		ex.Invalid = ".tool is missing: name the tool, e.g. tool: terminal (it may be left out only when the entry's matcher names one tool)"
		return ex
	}
	a := pyyaml.MappingGet(n, "args")
	if a == nil {
		// The arguments under the payload's name (tool_input) or beside
		// tool and expect: run with none, the example failed on what the
		// hook made of that ("no key command"), not on where they go.
		if k := cfg.strayArgKey(n, known); k != "" {
			ex.Invalid = ".args is missing, and '" + textutil.Truncate(k, 40) + "' is no key of an example: give the tool's arguments under args:, " +
				`e.g. {tool: terminal, args: {command: "rm -rf /"}, expect: block}`
			return ex
		}
	}
	if a != nil && !(a.Kind == yaml.ScalarNode && a.Tag == "!!null") {
		v, err := exampleValue(a, 0, new(int))
		m, isMap := v.(map[string]any)
		switch {
		case err != "":
			ex.Invalid = ".args " + err
			return ex
		case !isMap:
			ex.Invalid = ".args must be a mapping of the tool's arguments, e.g. args: {command: ls}; got " + pyyaml.Type(a)
			return ex
		case len(pyjson.Encode(m, pyjson.Compact)) > MaxExampleArgsBytes:
			ex.Invalid = fmt.Sprintf(".args is larger than %d KiB as JSON; use a smaller payload", MaxExampleArgsBytes>>10)
			return ex
		}
		ex.Args = m
	}
	exp, _ := text("expect")
	if ex.Expect = Expect(strings.ToLower(exp)); !isExpect(ex.Expect) {
		ex.Expect = ""
		ex.Invalid = ".expect must be one of " + expectList() + "; got " + strconv.Quote(textutil.Truncate(exp, 40))
		if pyyaml.MappingGet(n, "expect") == nil {
			// Not written: `got ""` was about a key the author never wrote.
			ex.Invalid = ".expect is missing: say what the hook must do with the call, one of " + expectList() + " (none: it lets the call through unchanged)"
		}
		if strings.EqualFold(exp, "deny") {
			ex.Invalid += denyIsBlock
		}
	} else if what := impossibleExpect(ex.Expect, e.Event); what != "" {
		ex.Invalid = ".expect: " + string(ex.Expect) + " is not possible on " + e.DeclaredAs + " (its hooks cannot " + what +
			"): the example can never pass, whatever the hook does"
	} else if r := e.Rule(); r != nil && ex.Expect != ExpectNone && string(ex.Expect) != r.Decision {
		// A rule gives its decision or nothing: allow (Claude Code's word
		// for "let it through") failed as "expected allow, got none".
		ex.Invalid = ".expect: " + string(ex.Expect) + " is not possible for this rule, which decides " + r.Decision +
			" or nothing: write expect: none for a call it lets through"
	}
	return ex
}

// impossibleExpect is what x needs that ev cannot do ("" when it can).
// The fold drops what an event cannot take (an ask after the tool ran),
// so such an example failed as "expected ask, got none", which reads as
// a hook that did not ask. A block, an ask or context needs what a rule
// deciding it needs (ruleDecisions); a rewrite, CapModify.
func impossibleExpect(x Expect, ev *protocol.Event) string {
	if x == ExpectRewrite && !ev.Can(protocol.CapModify) {
		return "rewrite the arguments"
	}
	for _, d := range ruleDecisions {
		if d.name == string(x) && !ev.Can(d.cap) {
			return d.what
		}
	}
	return ""
}

// exampleValue converts args to the JSON value a host would send, within
// the bounds (depth, nodes: an alias counts every time it is used, so a
// "billion laughs" document stays small). err says why it cannot.
func exampleValue(n *yaml.Node, depth int, nodes *int) (any, string) {
	*nodes++
	if *nodes > maxExampleNodes || depth > maxExampleDepth {
		return nil, fmt.Sprintf("is too large (at most %d values, nested %d deep)", maxExampleNodes, maxExampleDepth)
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, "holds a broken alias"
		}
		return exampleValue(n.Alias, depth+1, nodes)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, "has a key that is not a string"
			}
			v, err := exampleValue(n.Content[i+1], depth+1, nodes)
			if err != "" {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, ""
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := exampleValue(c, depth+1, nodes)
			if err != "" {
				return nil, err
			}
			s = append(s, v)
		}
		return s, ""
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, ""
		case "!!bool":
			b, _ := pyyaml.Bool(n)
			return b, ""
		case "!!int", "!!float":
			var v any
			if n.Decode(&v) == nil {
				switch v.(type) {
				case int, int64, uint64, float64:
					return v, ""
				}
			}
			return n.Value, ""
		}
		return n.Value, ""
	}
	return nil, "holds a value that is not JSON"
}

// sameEvent reports whether name is ev under any of its names.
func sameEvent(name string, ev *protocol.Event) bool {
	got, ok := protocol.Lookup(name)
	return ok && got == ev
}

func isExpect(x Expect) bool {
	for _, e := range expects {
		if x == e {
			return true
		}
	}
	return false
}

func expectList() string {
	s := make([]string, len(expects))
	for i, e := range expects {
		s[i] = string(e)
	}
	return strings.Join(s, ", ")
}

// Label names the example in reports: its name, else its tool and command
// (or args).
func (x *Example) Label() string {
	if x.Name != "" {
		return x.Name
	}
	if x.Invalid != "" && len(x.Args) == 0 {
		// Its args were refused: its place names it, where "{}" would
		// read as an example of no arguments.
		if i := strings.LastIndex(x.Key, "."); i >= 0 {
			return x.Tool + " " + x.Key[i+1:]
		}
	}
	if c, ok := x.Args["command"].(string); ok && len(x.Args) == 1 {
		return x.Tool + " " + strconv.Quote(textutil.Truncate(c, 80))
	}
	return x.Tool + " " + textutil.Truncate(string(pyjson.Encode(x.Args, pyjson.Compact)), 80)
}

// PlainName reports a matcher that names one tool (terminal, Bash): an
// example may leave its tool out, and a command line may name it unquoted.
func PlainName(m string) bool {
	if m == "" {
		return false
	}
	for _, r := range m {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
