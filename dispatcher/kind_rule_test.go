package dispatcher

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

const rmRule = `args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"`

func ruleEntry(t *testing.T, src, decision string, scope consent.Scope, failClosed bool) *hookconfig.Entry {
	t.Helper()
	pre, _ := protocol.Lookup("pre_tool_call")
	e := &hookconfig.Entry{Event: pre, Matcher: "terminal", Scope: scope, FailClosed: failClosed,
		Spec: &hookconfig.RuleSpec{Source: src, Decision: decision, Message: "refused by rule"}}
	e.Prepare(nil)
	return e
}

func terminal(cmd string) map[string]any {
	return map[string]any{"tool_name": "terminal", "args": map[string]any{"command": cmd}, "session_id": "s1"}
}

// countRuleEvals counts the rule evaluations that start during the test.
func countRuleEvals(t *testing.T) *atomic.Int64 {
	var n atomic.Int64
	testRuleEval = func(string) { n.Add(1) }
	t.Cleanup(func() { testRuleEval = nil })
	return &n
}

// A rule of the user's own config runs through the consent gate without
// an approval and contributes its decision; false contributes nothing.
func TestRuleOfTheUsersConfigNeedsNoApproval(t *testing.T) {
	dir := t.TempDir()
	store := consent.NewStore(filepath.Join(dir, "home"))
	for _, tc := range []struct {
		decision, cmd string
		want          protocol.Decision
		context       string
	}{
		{"block", "rm -rf /", protocol.DecisionBlock, ""},
		{"block", "ls -la", protocol.DecisionNone, ""},
		{"ask", "echo x; rm -rf y", protocol.DecisionAsk, ""},
		{"context", "rm -rf /", protocol.DecisionNone, "refused by rule"},
	} {
		e := ruleEntry(t, rmRule, tc.decision, consent.Scope{}, false)
		d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{e}}, Options{Gate: ConsentGate(&consent.Policy{Store: store}), Cwd: dir})
		if err != nil {
			t.Fatal(err)
		}
		o := dispatch(t, d, "pre_tool_call", terminal(tc.cmd))
		if o.Decision != tc.want || o.Context != tc.context || len(o.Hooks) != 1 || !o.Hooks[0].Ran {
			t.Errorf("%s on %q: %+v", tc.decision, tc.cmd, o)
		}
		if tc.want != protocol.DecisionNone && o.Message != "refused by rule" {
			t.Errorf("%s on %q: message %q", tc.decision, tc.cmd, o.Message)
		}
	}
}

// A repository's rule is approved like its hooks, pinned to its text,
// decision and message: unapproved it never evaluates; approved it runs;
// a changed message needs a new approval (and, as a guard, blocks).
func TestRuleOfARepositoryIsApproved(t *testing.T) {
	evals := countRuleEvals(t)
	dir := t.TempDir()
	store := consent.NewStore(filepath.Join(dir, "home"))
	scope := consent.Scope{Project: dir, Source: filepath.Join(dir, ".hermes", "hooks.yaml")}
	e := ruleEntry(t, `true`, "block", scope, true)
	d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{e}}, Options{Gate: ConsentGate(&consent.Policy{Store: store}), Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", terminal("ls"))
	if o.Decision != protocol.DecisionNone || evals.Load() != 0 || len(o.Hooks) > 0 && o.Hooks[0].Ran {
		t.Fatalf("unapproved repository rule: evaluated %d times, %+v", evals.Load(), o)
	}
	if _, err := store.ApproveHook(ConsentRequest(e, dir, nil)); err != nil {
		t.Fatal(err)
	}
	o = dispatch(t, d, "pre_tool_call", terminal("ls"))
	if o.Decision != protocol.DecisionBlock || evals.Load() != 1 {
		t.Fatalf("approved repository rule: evaluated %d times, %+v", evals.Load(), o)
	}
	e.Rule().Message = "something else"
	o = dispatch(t, d, "pre_tool_call", terminal("ls"))
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "the rule changed since approval") || evals.Load() != 1 {
		t.Fatalf("changed repository rule: evaluated %d times, %+v", evals.Load(), o)
	}
	e.Rule().Message = "refused by rule"
	e.Rule().Decision = "context"
	o = dispatch(t, d, "pre_tool_call", terminal("ls"))
	if !strings.Contains(o.Message, "changed since approval") || evals.Load() != 1 {
		t.Fatalf("repository rule with a changed decision: evaluated %d times, %+v", evals.Load(), o)
	}
}

// An evaluation error (a missing key, a rule that does not compile) fails
// the hook: a fail_closed guard blocks with the error, any other rule
// contributes nothing and reports the error.
func TestRuleErrorsFailLikeAHook(t *testing.T) {
	for _, src := range []string{`args.nope == "x"`, `args.command matches "("`} {
		for _, fc := range []bool{true, false} {
			e := ruleEntry(t, src, "block", consent.Scope{}, fc)
			d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{e}}, Options{Gate: AllowAll, Cwd: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			o := dispatch(t, d, "pre_tool_call", terminal("ls"))
			rep := o.Hooks[0]
			if !strings.Contains(rep.Error, "rule ") || rep.Ran {
				t.Errorf("%s: report %+v", src, rep)
			}
			if fc != (o.Decision == protocol.DecisionBlock) || fc && !strings.Contains(o.Message, rep.Error) {
				t.Errorf("%s fail_closed=%v: %+v", src, fc, o)
			}
		}
	}
}

// Odd payloads (args that are no object, huge or deeply nested values)
// are evaluation errors or plain answers, never a crash.
func TestRuleHostilePayloads(t *testing.T) {
	deep := any("x")
	for range 10000 {
		deep = map[string]any{"a": deep}
	}
	big := strings.Repeat("rm -rf / ", 1<<17)
	for _, fields := range []map[string]any{
		{"tool_name": "terminal", "args": "rm -rf /"},
		{"tool_name": "terminal", "args": []any{1, 2}},
		{"tool_name": "terminal", "args": map[string]any{"command": 12}},
		{"tool_name": "terminal", "args": map[string]any{"command": big}},
		{"tool_name": "terminal", "args": map[string]any{"command": deep}},
		{"tool_name": "terminal"},
	} {
		e := ruleEntry(t, rmRule, "block", consent.Scope{}, true)
		d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{e}}, Options{Gate: AllowAll, Cwd: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		o := dispatch(t, d, "pre_tool_call", fields)
		if o.Decision != protocol.DecisionBlock {
			t.Errorf("a fail_closed rule let %.80v through: %+v", fields["args"], o)
		}
	}
}

// Only the rules a firing selects are compiled, each once for the
// dispatcher's life: a one-shot hook with many rules pays for the few its
// firing reaches.
func TestRulesCompileLazilyOnce(t *testing.T) {
	var compiled []string
	testRuleCompile = func(src string) { compiled = append(compiled, src) }
	t.Cleanup(func() { testRuleCompile = nil })
	pre, _ := protocol.Lookup("pre_tool_call")
	var entries []*hookconfig.Entry
	for i := range 20 {
		e := &hookconfig.Entry{Event: pre, Matcher: "tool" + strconv.Itoa(i),
			Spec: &hookconfig.RuleSpec{Source: `args.n == ` + strconv.Itoa(i), Decision: "block", Message: "m"}}
		e.Prepare(nil)
		entries = append(entries, e)
	}
	d, err := New(&hookconfig.Config{Entries: entries}, Options{Gate: AllowAll, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(compiled) != 0 {
		t.Fatalf("New compiled %d rules", len(compiled))
	}
	for range 3 {
		o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "tool7", "args": map[string]any{"n": 7}})
		if o.Decision != protocol.DecisionBlock {
			t.Fatalf("%+v", o)
		}
	}
	if len(compiled) != 1 || compiled[0] != "args.n == 7" {
		t.Fatalf("compiled %q; want the selected rule, once", compiled)
	}
}

// A rule that does not compile is a mistake in the config: said once on
// the dispatcher's warnings (where the host's stderr shows it), whichever
// path decides it and however often it is selected; an evaluation error
// of a rule that compiles is a firing's failure and only reported.
func TestRuleThatDoesNotCompileWarnsOnce(t *testing.T) {
	bad := ruleEntry(t, `args.command matchez "x"`, "block", consent.Scope{}, false)
	bad.Source, bad.Rule().Line = "/cfg/config.yaml", 7
	errs := ruleEntry(t, `args.nope == "x"`, "block", consent.Scope{}, false)
	var warned []string
	d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{bad, errs}},
		Options{Gate: AllowAll, Cwd: t.TempDir(), Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		dispatch(t, d, "pre_tool_call", terminal("ls"))
	}
	pre, _ := protocol.Lookup("pre_tool_call")
	d.RunEntry(context.Background(), pre, bad, terminal("ls"))
	if len(warned) != 1 || !strings.Contains(warned[0], "(/cfg/config.yaml:7) does not compile") || !strings.Contains(warned[0], "matchez") {
		t.Fatalf("warnings %q; want one naming the rule's line and the error", warned)
	}
}

// The warning says what the failure does: a fail_closed rule that does
// not compile refuses every call it selects, which "it decides nothing"
// (what it said) contradicted.
func TestFailClosedRuleThatDoesNotCompileWarnsItRefuses(t *testing.T) {
	bad := ruleEntry(t, `args.command matchez "x"`, "block", consent.Scope{}, true)
	var warned []string
	d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{bad}},
		Options{Gate: AllowAll, Cwd: t.TempDir(), Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if o := dispatch(t, d, "pre_tool_call", terminal("ls")); o.Decision != protocol.DecisionBlock {
		t.Fatalf("decision %q; want block", o.Decision)
	}
	if len(warned) != 1 || strings.Contains(warned[0], "decides nothing") || !strings.Contains(warned[0], "fail_closed, it refuses every call it selects") {
		t.Fatalf("warnings %q; want one saying it refuses every call it selects", warned)
	}
}

// A long-lived host that says at load which rules do not compile (serve's
// reload) has the dispatcher compile them (CompileRules): each rule is
// compiled once, for the check and every later firing, where the check
// compiled each one and the dispatcher each again at its first selection.
// The warning of a rule that does not compile still comes when a firing
// first selects it, once.
func TestCompileRulesCompilesEachOnce(t *testing.T) {
	compiled := map[string]int{}
	testRuleCompile = func(src string) { compiled[src]++ }
	t.Cleanup(func() { testRuleCompile = nil })
	good := ruleEntry(t, rmRule, "block", consent.Scope{}, false)
	bad := ruleEntry(t, `args.command matchez "x"`, "block", consent.Scope{}, false)
	var warned []string
	d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{good, bad}},
		Options{Gate: AllowAll, Cwd: t.TempDir(), Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	var broken []*hookconfig.Entry
	d.CompileRules(func(e *hookconfig.Entry, err error) {
		if err == nil || !strings.Contains(err.Error(), "matchez") {
			t.Errorf("the broken rule's error: %v", err)
		}
		broken = append(broken, e)
	})
	if len(broken) != 1 || broken[0] != bad || len(warned) != 0 {
		t.Fatalf("CompileRules named %d rules, warned %q; want the broken one, no warning yet", len(broken), warned)
	}
	for range 2 {
		if o := dispatch(t, d, "pre_tool_call", terminal("rm -rf /")); o.Decision != protocol.DecisionBlock {
			t.Fatalf("%+v", o)
		}
	}
	if compiled[rmRule] != 1 || compiled[`args.command matchez "x"`] != 1 || len(compiled) != 2 {
		t.Fatalf("compilations %v; want each rule once", compiled)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "does not compile") {
		t.Fatalf("warnings %q; want one, at the first firing", warned)
	}
}

// A repository's rules are checked by CompileRules (serve's log names one
// that does not compile) but not kept compiled: whether they may ever run
// is the gate's to say at a firing, and until one selects a rule approved
// its program is not held. Kept, the rules of a repository nobody
// approved held their compiled patterns for the server's life: 256 rules
// of 40 bounded patterns each held some 190 MB per project, where the
// check before CompileRules dropped each after compiling it.
func TestCompileRulesKeepsNoRepositoryRule(t *testing.T) {
	dir := t.TempDir()
	scope := consent.Scope{Project: dir, Source: filepath.Join(dir, ".hermes", "hooks.yaml")}
	repo := ruleEntry(t, rmRule, "block", scope, false)
	broken := ruleEntry(t, `args.command matchez "x"`, "block", scope, false)
	own := ruleEntry(t, `args.command contains "x"`, "block", consent.Scope{}, false)
	d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{repo, broken, own}}, Options{Gate: AllowAll, Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	var bad []*hookconfig.Entry
	d.CompileRules(func(e *hookconfig.Entry, err error) { bad = append(bad, e) })
	if len(bad) != 1 || bad[0] != broken {
		t.Fatalf("CompileRules named %d rules; want the repository's broken one", len(bad))
	}
	for _, e := range []*hookconfig.Entry{repo, broken} {
		if k := d.kinds[e].(*ruleKind); k.ready.Load() || k.r != nil {
			t.Errorf("%s: a repository's rule kept compiled by CompileRules", e.Rule().Source)
		}
	}
	if k := d.kinds[own].(*ruleKind); !k.ready.Load() || k.r == nil {
		t.Error("the user's own rule is not kept compiled for its firings")
	}
}

// How a refusal names a rule (ShownHook): a short rule by its text, a
// rule with an id by its text and id, a long one by its id, else its
// place, and the short start of its text (a repository's by its line
// only), escaped for a terminal; with no place, by its cut text.
func TestShownHook(t *testing.T) {
	long := `(any(commands((args.command matches "(?s)^(.*[^\\s\\\\]\\s*(&&|;|\\|\\||\\n)\\s*)?ssh ` + strings.Repeat("x", 200) + `"))))`
	entry := func(src, id, file string, line int, scope consent.Scope) *hookconfig.Entry {
		return &hookconfig.Entry{Source: file, Scope: scope, Spec: &hookconfig.RuleSpec{Source: src, ID: id, Line: line, Decision: "block", Message: "m"}}
	}
	repo := consent.Scope{Project: "/r"}
	for _, c := range []struct {
		e    *hookconfig.Entry
		want string
	}{
		{entry(`args.x == 1`, "", "/r/team.yaml", 12, consent.Scope{}), `rule: args.x == 1`},
		{entry(`args.x == 1`, "team/x", "/r/team.yaml", 12, consent.Scope{}), `rule: args.x == 1 (team/x)`},
		{entry(long, "team/x", "/r/team.yaml", 12, consent.Scope{}), `rule team/x ((any(commands((args.c...)`},
		{entry(long, "destructive-shell/rm-rf-commands", "builtin:destructive-shell", 123, consent.Scope{}), `rule destructive-shell/rm-rf-commands ((any(commands((args.c...)`},
		{entry(long, "", "builtin:destructive-shell", 123, consent.Scope{}), `rule at builtin:destructive-shell:123 ((any(commands((args.c...)`},
		{entry(long, "", "/r/.hermes/team.yaml", 12, repo), `rule at line 12 ((any(commands((args.c...)`},
		{entry("\x1b]0;pwned\a"+long, "", "/r/\x1b[31mred.yaml", 7, consent.Scope{}), `rule at /r/\x1b[31mred.yaml:7 (\x1b]0;pwned\x07(any(comman...)`},
		{entry(long, "", "", 0, consent.Scope{}), consent.ShownCommand("rule: " + long)},
	} {
		if got := ShownHook(c.e); got != c.want {
			t.Errorf("ShownHook(%.40q…, id %q, %s:%d) = %q, want %q", c.e.Rule().Source, c.e.Rule().ID, c.e.Source, c.e.Rule().Line, got, c.want)
		}
	}
}
