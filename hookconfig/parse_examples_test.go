package hookconfig

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

func TestParseExamples(t *testing.T) {
	for _, tc := range []struct {
		name    string
		event   string
		yaml    []string
		want    []Example // Key left out
		warning string    // "" → none
	}{
		{name: "the issue's form", event: "pre_tool_call",
			yaml: []string{`examples: [{tool: terminal, args: {command: "rm -rf /"}, expect: block}, {tool: terminal, args: {command: "ls"}, expect: none}]`},
			want: []Example{{Tool: "terminal", Args: map[string]any{"command": "rm -rf /"}, Expect: ExpectBlock},
				{Tool: "terminal", Args: map[string]any{"command": "ls"}, Expect: ExpectNone}}},
		{name: "name, reason, own event by another name, nested args", event: "pre_tool_call",
			yaml: []string{`examples:`, `  - name: patch outside`, `    event: PreToolUse`, `    tool: patch`, `    args: {path: /etc/passwd, edits: [{n: 1, on: true, x: 1.5, z: null}]}`, `    expect: ASK`, `    reason: outside`},
			want: []Example{{Name: "patch outside", Tool: "patch", Expect: ExpectAsk, Reason: "outside",
				Args: map[string]any{"path": "/etc/passwd", "edits": []any{map[string]any{"n": 1, "on": true, "x": 1.5, "z": nil}}}}}},
		{name: "no args is an empty object", event: "PreToolUse",
			yaml: []string{`examples: [{tool: Bash, expect: rewrite}, {tool: Bash, expect: context}, {tool: Bash, expect: allow}]`},
			want: []Example{{Tool: "Bash", Args: map[string]any{}, Expect: ExpectRewrite}, {Tool: "Bash", Args: map[string]any{}, Expect: ExpectContext},
				{Tool: "Bash", Args: map[string]any{}, Expect: ExpectAllow}}},
		{name: "null", event: "pre_tool_call", yaml: []string{`examples: null`}},
		{name: "not a list", event: "pre_tool_call", yaml: []string{`examples: {tool: terminal}`},
			warning: "hooks.pre_tool_call[0].examples must be a list of {tool, args, expect} mappings; got dict; ignoring"},
		{name: "not a tool event", event: "pre_llm_call", yaml: []string{`examples: [{tool: terminal, expect: none}]`},
			warning: "examples are supported on tool events only"},
		{name: "unknown expect", event: "pre_tool_call", yaml: []string{`examples: [{tool: terminal, expect: deny}]`},
			want:    []Example{{Tool: "terminal", Args: map[string]any{}, Invalid: `.expect must be one of block, ask, allow, none, rewrite, context; got "deny" (Claude Code's deny is block here)`}},
			warning: `hooks.pre_tool_call[0].examples[0].expect must be one of block, ask, allow, none, rewrite, context; got "deny" (Claude Code's deny is block here)`},
		// A missing expect is said to be missing, with what it says: the
		// error read `must be one of …; got ""`, about a key never written.
		{name: "missing expect", event: "pre_tool_call", yaml: []string{`examples: [{tool: terminal, args: {command: ls}}]`},
			want:    []Example{{Tool: "terminal", Args: map[string]any{"command": "ls"}, Invalid: ".expect is missing: say what the hook must do with the call, one of block, ask, allow, none, rewrite, context (none: it lets the call through unchanged)"}},
			warning: "hooks.pre_tool_call[0].examples[0].expect is missing: say what the hook must do with the call"},
		// A missing tool is said to be missing, with when it may be left
		// out: a newcomer whose matcher was misspelt (matchr) read "must be
		// the tool name" about a key they never wrote.
		{name: "missing tool", event: "pre_tool_call", yaml: []string{`examples: [{args: {command: ls}, expect: none}]`},
			want:    []Example{{Args: map[string]any{}, Invalid: ".tool is missing: name the tool, e.g. tool: terminal (it may be left out only when the entry's matcher names one tool)"}},
			warning: ".tool is missing: name the tool, e.g. tool: terminal (it may be left out only when the entry's matcher names one tool)"},
		{name: "tool not a string", event: "pre_tool_call", yaml: []string{`examples: [{tool: [terminal], expect: none}]`},
			want:    []Example{{Args: map[string]any{}, Invalid: ".tool must be the tool name, e.g. tool: terminal"}},
			warning: ".tool must be the tool name"},
		{name: "args not a mapping", event: "pre_tool_call", yaml: []string{`examples: [{tool: terminal, args: "ls", expect: none}]`},
			want:    []Example{{Tool: "terminal", Args: map[string]any{}, Invalid: ".args must be a mapping of the tool's arguments, e.g. args: {command: ls}; got str"}},
			warning: ".args must be a mapping"},
		{name: "another event", event: "pre_tool_call", yaml: []string{`examples: [{event: post_tool_call, tool: terminal, expect: none}]`},
			want:    []Example{{Args: map[string]any{}, Invalid: ".event must name this entry's own event (pre_tool_call): an example runs only its own hook; leave it out"}},
			warning: ".event must name this entry's own event"},
		{name: "an example that is not a mapping", event: "pre_tool_call", yaml: []string{`examples: [block]`},
			want:    []Example{{Args: map[string]any{}, Invalid: ` must be a mapping like {tool: terminal, args: {command: "rm -rf /"}, expect: block}; got str`}},
			warning: "hooks.pre_tool_call[0].examples[0] must be a mapping like"},
		// An outcome the event cannot give: the fold drops it, and the
		// example failed as "expected ask, got none", a hook that did not
		// ask.
		{name: "ask after the tool ran", event: "post_tool_call", yaml: []string{`examples: [{tool: terminal, expect: ask}]`},
			want:    []Example{{Tool: "terminal", Args: map[string]any{}, Expect: ExpectAsk, Invalid: ".expect: ask is not possible on post_tool_call (its hooks cannot ask the user): the example can never pass, whatever the hook does"}},
			warning: "hooks.post_tool_call[0].examples[0].expect: ask is not possible on post_tool_call"},
		{name: "rewrite after the tool ran", event: "PostToolUse", yaml: []string{`examples: [{tool: Bash, expect: rewrite}, {tool: Bash, expect: block}, {tool: Bash, expect: context}]`},
			want: []Example{{Tool: "Bash", Args: map[string]any{}, Expect: ExpectRewrite, Invalid: ".expect: rewrite is not possible on PostToolUse (its hooks cannot rewrite the arguments): the example can never pass, whatever the hook does"},
				{Tool: "Bash", Args: map[string]any{}, Expect: ExpectBlock}, {Tool: "Bash", Args: map[string]any{}, Expect: ExpectContext}},
			warning: "cannot rewrite the arguments"},
		{name: "block on an observing event", event: "PermissionDenied", yaml: []string{`examples: [{tool: Bash, expect: block}, {tool: Bash, expect: none}]`},
			want: []Example{{Tool: "Bash", Args: map[string]any{}, Expect: ExpectBlock, Invalid: ".expect: block is not possible on PermissionDenied (its hooks cannot block): the example can never pass, whatever the hook does"},
				{Tool: "Bash", Args: map[string]any{}, Expect: ExpectNone}},
			warning: "cannot block"},
		// The tool's arguments given as the payload names them
		// (tool_input), or beside tool and expect: the example ran with
		// no arguments and failed on what the hook made of that ("no key
		// command"), saying nothing of where the arguments go.
		{name: "tool_input for args", event: "PreToolUse", yaml: []string{`examples: [{tool: Bash, tool_input: {command: rm}, expect: block}]`},
			want:    []Example{{Tool: "Bash", Args: map[string]any{}, Invalid: `.args is missing, and 'tool_input' is no key of an example: give the tool's arguments under args:, e.g. {tool: terminal, args: {command: "rm -rf /"}, expect: block}`}},
			warning: `hooks.PreToolUse[0].examples[0].args is missing, and 'tool_input' is no key of an example`},
		{name: "arguments beside tool", event: "pre_tool_call", yaml: []string{`examples: [{tool: terminal, command: "rm -rf /", expect: block}]`},
			want:    []Example{{Tool: "terminal", Args: map[string]any{}, Invalid: `.args is missing, and 'command' is no key of an example: give the tool's arguments under args:, e.g. {tool: terminal, args: {command: "rm -rf /"}, expect: block}`}},
			warning: "unknown key 'command' is ignored"},
		{name: "misspelt key", event: "pre_tool_call", yaml: []string{`examples: [{tool: terminal, expcet: block, expect: block}]`},
			want:    []Example{{Tool: "terminal", Args: map[string]any{}, Expect: ExpectBlock}},
			warning: "unknown key 'expcet' is ignored — did you mean 'expect'?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(hookYAML(tc.event, "./x.sh", tc.yaml...)), "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			got := cfg.Entries[0].Examples
			for i := range got {
				if want := fmt.Sprintf("hooks.%s[0].examples[%d]", tc.event, i); got[i].Key != want {
					t.Errorf("example %d key %q, want %q", i, got[i].Key, want)
				}
				if got[i].Line <= 0 {
					t.Errorf("example %d has no line", i)
				}
				got[i].Key, got[i].Line = "", 0
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("examples\n got %#v\nwant %#v", got, tc.want)
			}
			var warns []string
			for _, w := range cfg.Warnings {
				warns = append(warns, w.String())
			}
			joined := strings.Join(warns, "\n")
			if (tc.warning == "") != (joined == "") || !strings.Contains(joined, tc.warning) {
				t.Errorf("warnings %q, want %q", joined, tc.warning)
			}
		})
	}
}

// A repository's file controls its examples: their number, size, depth
// and aliases are bounded, and nothing but tool and args reaches the
// payload.
func TestParseExamplesBounded(t *testing.T) {
	many := "examples: [" + strings.Repeat("{tool: terminal, expect: none},", MaxExamples+5) + "]"
	cfg, err := ParseConfig([]byte(hookYAML("pre_tool_call", "./x.sh", many)), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cfg.Entries[0].Examples); n != MaxExamples {
		t.Fatalf("%d examples kept, want %d", n, MaxExamples)
	}
	deep := "examples: [{tool: terminal, expect: none, args: {a: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "}}]"
	big := "examples: [{tool: terminal, expect: none, args: {command: " + strings.Repeat("x", MaxExampleArgsBytes) + "}}]"
	laughs := "examples: [{tool: terminal, expect: none, args: {a: &a [1,1,1,1,1,1,1,1,1,1], b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], d: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]}}]"
	for name, y := range map[string]string{"deep": deep, "big": big, "laughs": laughs} {
		cfg, err := ParseConfig([]byte(hookYAML("pre_tool_call", "./x.sh", y)), "t.yaml")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ex := cfg.Entries[0].Examples
		if len(ex) != 1 || ex[0].Invalid == "" || len(ex[0].Args) != 0 {
			t.Errorf("%s: %#v, want one invalid example without args", name, ex)
		}
	}
}

func TestExampleLabel(t *testing.T) {
	for _, tc := range []struct {
		x    Example
		want string
	}{
		{Example{Name: "root", Tool: "terminal"}, "root"},
		{Example{Tool: "terminal", Args: map[string]any{"command": "rm -rf /"}}, `terminal "rm -rf /"`},
		{Example{Tool: "patch", Args: map[string]any{"path": "/etc/x"}}, `patch {"path":"/etc/x"}`},
	} {
		if got := tc.x.Label(); got != tc.want {
			t.Errorf("Label() = %q, want %q", got, tc.want)
		}
	}
}

// FuzzParseExamples: any examples block parses without panicking, keeps
// the bounds, and every example either runs (a known expect, a tool) or
// says why it cannot.
func FuzzParseExamples(f *testing.F) {
	for _, s := range []string{
		`[{tool: terminal, args: {command: "rm -rf /"}, expect: block}]`,
		`[{tool: terminal, args: {a: &x [1, 2], b: *x}, expect: none, reason: r, name: n, event: PreToolUse}]`,
		`{tool: terminal}`, `[1, null, "x", [], {}]`, `[{tool: [], args: [], expect: {}}]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, block string) {
		cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - command: ./x.sh\n      examples: "+block+"\n"), "f.yaml")
		checkNoPanic(t, err)
		if err != nil || len(cfg.Entries) == 0 {
			return
		}
		ex := cfg.Entries[0].Examples
		if len(ex) > MaxExamples {
			t.Fatalf("%d examples", len(ex))
		}
		for _, x := range ex {
			if x.Invalid != "" {
				continue
			}
			if x.Tool == "" || !isExpect(x.Expect) || x.Args == nil {
				t.Fatalf("runnable example %#v", x)
			}
			if n := len(pyjson.Encode(x.Args, pyjson.Compact)); n > MaxExampleArgsBytes {
				t.Fatalf("args of %d bytes", n)
			}
		}
	})
}

// A rule decides its decision or nothing: an example of it expecting
// anything else (allow, as a Claude Code user writes for "let it
// through"; rewrite; another decision) can never pass, and failed as
// "expected allow, got none", a rule that did not allow.
func TestParseRuleExampleExpect(t *testing.T) {
	for _, tc := range []struct {
		decision, expect, invalid string
	}{
		{"block", "block", ""},
		{"block", "none", ""},
		{"ask", "ask", ""},
		{"context", "context", ""},
		{"block", "allow", ".expect: allow is not possible for this rule, which decides block or nothing: write expect: none for a call it lets through"},
		{"block", "rewrite", ".expect: rewrite is not possible for this rule, which decides block or nothing: write expect: none for a call it lets through"},
		{"ask", "block", ".expect: block is not possible for this rule, which decides ask or nothing: write expect: none for a call it lets through"},
	} {
		y := "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      rule: 'args.command == \"x\"'\n      decision: " + tc.decision +
			"\n      message: m\n      examples: [{args: {command: x}, expect: " + tc.expect + "}]\n"
		cfg, err := ParseConfig([]byte(y), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		ex := cfg.Entries[0].Examples
		if len(ex) != 1 || ex[0].Invalid != tc.invalid {
			t.Errorf("%s rule, expect %s: %+v, want invalid %q", tc.decision, tc.expect, ex, tc.invalid)
		}
	}
}
