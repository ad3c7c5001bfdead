package dispatcher

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// inlineTable is a config of rules that decide differently per firing:
// blocks, asks and context, errors (fail-closed or not), a rule that does
// not compile, a shadow rule, and two priority tiers, each with a process
// hook beside its rules.
func inlineTable(t *testing.T) *hookconfig.Config {
	t.Helper()
	type row struct {
		src, decision string
		failClosed    bool
		priority      int
		shadow        bool
	}
	var entries []*hookconfig.Entry
	for _, r := range []row{
		{rmRule, "block", false, 0, false},
		{`args.command contains "sudo"`, "ask", false, 0, false},
		{`args.command contains "deploy"`, "context", false, 0, false},
		{`args.nope == 1`, "block", false, 0, false},
		{`args.command contains "x" && args.nope == 1`, "block", true, 0, false},
		{`args.command contains (`, "block", false, 0, false},
		{`true`, "block", false, 0, true},
		{`tool == "terminal" && agent == ""`, "context", false, 0, false},
		{`args.command contains "late"`, "block", false, 5, false},
		{`session_id == "s1" && cwd != ""`, "context", false, 5, false},
	} {
		e := ruleEntry(t, r.src, r.decision, consent.Scope{}, r.failClosed)
		e.Priority, e.Shadow = r.priority, r.shadow
		entries = append(entries, e)
	}
	// A process in each tier, beside the rules: it blocks a sudo.
	pre, _ := protocol.Lookup("pre_tool_call")
	for _, prio := range []int{0, 5} {
		e := &hookconfig.Entry{Event: pre, Matcher: "terminal", Priority: prio,
			Command: `sh -c 'grep -q sudo && printf "{\"action\": \"block\", \"message\": \"by a process\"}"; exit 0'`}
		e.Prepare(nil)
		entries = append(entries, e)
	}
	return &hookconfig.Config{Entries: entries}
}

// The tier's rules decided inline give the same outcome, the same hook
// reports in the same order, as each rule run by runInto on its own
// goroutine (the path before inline rules), for a table of firings.
func TestRulesInlineAsRunInto(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the process hook beside the rules is a POSIX sh command line")
	}
	dir := t.TempDir()
	cfg := inlineTable(t)
	outcome := func(inline bool, fields map[string]any) protocol.Outcome {
		defer func(v bool) { inlineRules = v }(inlineRules)
		inlineRules = inline
		d, err := New(cfg, Options{Gate: AllowAll, Cwd: dir})
		if err != nil {
			t.Fatal(err)
		}
		o := dispatch(t, d, "pre_tool_call", fields)
		for i := range o.Hooks {
			o.Hooks[i].ElapsedMS = 0
		}
		return o
	}
	for _, cmd := range []string{"ls", "rm -rf /", "sudo ls", "deploy x", "late", "late sudo", "x", "echo deploy; rm -rf ~", ""} {
		for _, fields := range []map[string]any{terminal(cmd), {"tool_name": "terminal", "args": "not an object"}, {"tool_name": "terminal", "args": map[string]any{"command": cmd}, "cwd": dir}} {
			in, old := outcome(true, fields), outcome(false, fields)
			if !reflect.DeepEqual(in, old) {
				t.Errorf("%v:\ninline   %+v\nrunInto  %+v", fields, in, old)
			}
			if len(in.Hooks) != len(cfg.Entries) {
				t.Fatalf("%v: %d reports, want %d", fields, len(in.Hooks), len(cfg.Entries))
			}
			var p *protocol.HookReport
			for i := range in.Hooks {
				if strings.HasPrefix(in.Hooks[i].Command, "sh -c") {
					p = &in.Hooks[i] // the process of the first tier
					break
				}
			}
			_, isMap := fields["args"].(map[string]any)
			sudo := isMap && strings.Contains(cmd, "sudo")
			if p == nil || !p.Ran || sudo != (p.Contribution != nil && p.Contribution.Decision == protocol.DecisionBlock) {
				t.Errorf("%q %v: the process beside the rules: %+v", cmd, fields, p)
			}
		}
	}
}

// A tier's rules share one rule.Input: twenty rules, one Input built.
func TestRulesOneInputPerFiring(t *testing.T) {
	n := 0
	testRuleInput = func() { n++ }
	defer func() { testRuleInput = nil }()
	evals := countRuleEvals(t)
	dir := t.TempDir()
	var entries []*hookconfig.Entry
	for range 20 {
		entries = append(entries, ruleEntry(t, rmRule, "block", consent.Scope{}, false))
	}
	d, err := New(&hookconfig.Config{Entries: entries}, Options{Gate: ConsentGate(&consent.Policy{Store: consent.NewStore(filepath.Join(dir, "home"))}), Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", terminal("rm -rf /"))
	if o.Decision != protocol.DecisionBlock || evals.Load() != 20 {
		t.Fatalf("outcome %v, %d evaluations; want block, 20", o.Decision, evals.Load())
	}
	if n != 1 {
		t.Fatalf("%d rule.Inputs built for one firing, want 1", n)
	}
}

// A hostile rule that runs away inside a tier's one pass costs the firing
// its own bound only: it is reported as stopped (a fail_closed one
// blocks), and the rules around it still decide — a block behind a
// runaway is not lost, whatever the runaway's own fail_closed says.
func TestRuleRunawayInATier(t *testing.T) {
	runaway := `count(1..99999, args.s matches "a.*[cx].*[dy]$") > 0` // far past 1 ms on "abab…"; builds nothing
	for _, fc := range []bool{false, true} {
		slow := ruleEntry(t, runaway, "block", consent.Scope{}, fc)
		slow.Timeout = time.Millisecond
		before := ruleEntry(t, `args.s startsWith "zz"`, "context", consent.Scope{}, false)
		after := ruleEntry(t, `tool == "terminal"`, "block", consent.Scope{}, false)
		after.Rule().Message = "the rule after the runaway"
		d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{before, slow, after}}, Options{Gate: AllowAll, Cwd: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		s := "zz" + strings.Repeat("ab", 20)
		o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"s": s}})
		if len(o.Hooks) != 3 || !strings.Contains(o.Hooks[1].Error, "rule evaluation stopped") || o.Hooks[1].Ran || !o.Hooks[1].TimedOut {
			t.Fatalf("fail_closed=%v: the runaway's report: %+v", fc, o.Hooks)
		}
		if o.Hooks[0].Error != "" || o.Hooks[2].Error != "" || o.Context != "refused by rule" || o.Decision != protocol.DecisionBlock {
			t.Fatalf("fail_closed=%v: the rules around the runaway: %+v", fc, o)
		}
		if !fc && o.Message != "the rule after the runaway" {
			t.Fatalf("block message %q, want the later rule's", o.Message)
		}
	}
}

// The rules of one firing share one time bound, twice the longest of
// theirs, across its priority tiers: runaways of many priorities cannot
// add their bounds up (ten tiers of rules matching a long command took ten
// bounds). A rule of a tier that starts past it is not evaluated: it
// failed (a fail_closed one blocks, naming why), as a rule past its own
// bound does.
func TestRulesShareTheFiringsBound(t *testing.T) {
	runaway := `count(1..99999, args.s matches "a.*[cx].*[dy]$") > 0` // far past 1 ms on "abab…"; builds nothing
	var entries []*hookconfig.Entry
	for prio := range 2 {
		slow := ruleEntry(t, runaway, "block", consent.Scope{}, false)
		slow.Timeout, slow.Priority = time.Millisecond, prio
		entries = append(entries, slow)
	}
	late := ruleEntry(t, `tool == "terminal"`, "context", consent.Scope{}, false)
	lateGuard := ruleEntry(t, `tool == "nothing"`, "block", consent.Scope{}, true)
	late.Priority, lateGuard.Priority = 2, 2
	late.Timeout, lateGuard.Timeout = time.Millisecond, time.Millisecond // the firing's bound: 2 ms
	d, err := New(&hookconfig.Config{Entries: append(entries, late, lateGuard)}, Options{Gate: AllowAll, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"s": strings.Repeat("ab", 20)}})
	if len(o.Hooks) != 4 {
		t.Fatalf("reports: %+v", o.Hooks)
	}
	for i, h := range o.Hooks {
		if !strings.Contains(h.Error, "rule evaluation stopped") || h.Ran || !h.TimedOut {
			t.Errorf("rule %d: %+v, want stopped, timed out", i, h)
		}
	}
	for _, h := range o.Hooks[2:] {
		if !strings.Contains(h.Error, "not started") {
			t.Errorf("the last tier's rule: %q, want not started", h.Error)
		}
	}
	if o.Decision != protocol.DecisionBlock || o.Context != "" {
		t.Fatalf("outcome %s %q (context %q): want the fail_closed rule's block", o.Decision, o.Message, o.Context)
	}
}

// Only the rules' own evaluation spends that bound: a process hook of an
// earlier tier that takes longer than it leaves the later tier's rules
// their whole time. The bound is generous (a loaded machine may take a
// while to start the rule's goroutine: a 2 ms bound failed beside make
// stress) and the hook longer still.
func TestRulesBoundIsNotSpentByProcesses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh")
	}
	pre, _ := protocol.Lookup("pre_tool_call")
	slowHook := &hookconfig.Entry{Event: pre, Matcher: "terminal", Command: `sh -c 'cat >/dev/null; sleep 2; exit 0'`}
	slowHook.Prepare(nil)
	guard := ruleEntry(t, `tool == "terminal"`, "block", consent.Scope{}, false)
	guard.Timeout, guard.Priority = 400*time.Millisecond, 1 // the firing's rules: 0.8 s, less than the hook's 2 s
	d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{slowHook, guard}}, Options{Gate: AllowAll, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", terminal("ls"))
	if o.Decision != protocol.DecisionBlock || len(o.Hooks) != 2 || o.Hooks[1].Error != "" {
		t.Fatalf("the rule after a slow process: %s %+v", o.Decision, o.Hooks)
	}
}

// The rules of every priority tier share the firing's one rule.Input:
// InputOf converts the payload's numbers and copies what holds them (a
// 58 MB payload took about 2 s a tier). A tier after one that passed
// metadata on still sees it (payload.metadata), numbers made numbers.
func TestRulesOneInputAcrossTiers(t *testing.T) {
	withKind(t, replyKindOf)
	n := 0
	testRuleInput = func() { n++ }
	defer func() { testRuleInput = nil }()
	pre, _ := protocol.Lookup("pre_tool_call")
	hook := &hookconfig.Entry{Event: pre, Spec: &replySpec{Name: "strict", Reply: `{"metadata":{"strict":true,"level":3}}`}}
	hook.Prepare(nil)
	entries := []*hookconfig.Entry{hook}
	for prio := 1; prio <= 4; prio++ {
		e := ruleEntry(t, `payload.metadata?.strict == true && payload.metadata?.level == 3 && args.n == 7`, "context", consent.Scope{}, false)
		e.Priority, e.Rule().Message = prio, "tier "+strconv.Itoa(prio)+" saw the metadata"
		entries = append(entries, e)
	}
	d, err := New(&hookconfig.Config{Entries: entries}, Options{Gate: AllowAll, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls", "n": json.Number("7")}})
	for prio, h := range o.Hooks[1:] {
		if c := h.Contribution; c == nil || c.Context != "tier "+strconv.Itoa(prio+1)+" saw the metadata" {
			t.Errorf("the rule of tier %d: %+v", prio+1, h)
		}
	}
	if n != 1 {
		t.Fatalf("%d rule.Inputs built for a firing of four tiers of rules, want 1", n)
	}
}
