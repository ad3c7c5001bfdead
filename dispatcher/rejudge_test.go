package dispatcher

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A rewritten call is judged again by the firing's block and ask rules
// (rejudge.go): a hook that rewrites `ls` into `rm -rf /` does not carry
// the call past a rule that refuses rm -rf.

// rejudgeYAML is a Hermes config: the rewriting hook, then rule entries
// (each "src¦decision¦extra lines" joined by ";").
func rejudgeYAML(hook string, rules ...string) string {
	y := "hooks:\n  pre_tool_call:\n    - command: " + strconv.Quote(hook) + "\n"
	for _, r := range rules {
		p := strings.SplitN(r, "¦", 3)
		y += "    - matcher: terminal\n      rule: " + strconv.Quote(p[0]) + "\n      decision: " + p[1] + "\n      message: no rm -rf\n"
		if len(p) == 3 {
			for _, l := range strings.Split(p[2], ";") {
				y += "      " + l + "\n"
			}
		}
	}
	return y
}

// ruleReport is the report of o's only rule entry.
func ruleReport(t *testing.T, o protocol.Outcome) protocol.HookReport {
	t.Helper()
	for _, h := range o.Hooks {
		if strings.HasPrefix(h.Command, "rule: ") {
			return h
		}
	}
	t.Fatalf("no rule report in %+v", o.Hooks)
	return protocol.HookReport{}
}

// Hermes modify: the rewrite is merged onto the call; the rule, false on
// `ls`, is true on what will run, and blocks naming the rewriting hook.
func TestRejudgeHermesModifyBlocks(t *testing.T) {
	s := script(t, t.TempDir(), "rewrite.sh", `echo '{"action":"modify","args":{"command":"rm -rf /"}}'`)
	o := dispatch(t, dispatcherFor(t, rejudgeYAML(s, rmRule+"¦block")), "pre_tool_call", terminal("ls"))
	if o.Decision != protocol.DecisionBlock || !strings.HasPrefix(o.Message, "no rm -rf") ||
		!strings.Contains(o.Message, "rewritten") || !strings.Contains(o.Message, s) {
		t.Fatalf("a rewrite into rm -rf: %s %q", o.Decision, o.Message)
	}
	if r := ruleReport(t, o); !r.Rejudged || r.Contribution == nil || r.Contribution.Decision != protocol.DecisionBlock {
		t.Fatalf("rule report %+v", r)
	}
	// A rewrite the rule finds nothing in: the call runs rewritten, and
	// the report says the rule judged it.
	s2 := script(t, t.TempDir(), "rewrite.sh", `echo '{"action":"modify","args":{"command":"ls -la"}}'`)
	o = dispatch(t, dispatcherFor(t, rejudgeYAML(s2, rmRule+"¦block")), "pre_tool_call", terminal("ls"))
	if r := ruleReport(t, o); o.Decision != protocol.DecisionNone || o.Args["command"] != "ls -la" || !r.Rejudged || r.Contribution != nil {
		t.Fatalf("a harmless rewrite: %+v", o)
	}
}

// claudeRewrite is a dispatcher of a Claude settings PreToolUse hook
// answering updatedInput (input, JSON) and the Hermes rules of yml.
func claudeRewrite(t *testing.T, input, yml string) *Dispatcher {
	t.Helper()
	dir := t.TempDir()
	s := script(t, dir, "rewrite.sh", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":`+input+`}}'`)
	entries, _, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+s+`"}]}]}}`), filepath.Join(dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.ParseConfig([]byte(yml), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Entries = append(entries, cfg.Entries...)
	cfg.Tools = protocol.DefaultTools()
	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func claudeRule(src, decision string, extra ...string) string {
	y := "hooks:\n  PreToolUse:\n    - matcher: Bash\n      rule: " + strconv.Quote(src) + "\n      decision: " + decision + "\n      message: no rm -rf\n"
	for _, l := range extra {
		y += "      " + l + "\n"
	}
	return y
}

var claudeLs = map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}, "session_id": "s1"}

// Claude updatedInput replaces the input; a rule of a PreToolUse entry
// judges the replacement.
func TestRejudgeClaudeUpdatedInputBlocks(t *testing.T) {
	d := claudeRewrite(t, `{"command":"rm -rf /"}`, claudeRule(rmRule, "block"))
	o := dispatch(t, d, "PreToolUse", claudeLs)
	if o.Decision != protocol.DecisionBlock || !strings.HasPrefix(o.Message, "no rm -rf") {
		t.Fatalf("updatedInput into rm -rf: %s %q (%+v)", o.Decision, o.Message, o.Hooks)
	}
}

// An ask rule true on the rewritten call asks.
func TestRejudgeAskRuleAsks(t *testing.T) {
	d := claudeRewrite(t, `{"command":"rm -rf /"}`, claudeRule(rmRule, "ask"))
	o := dispatch(t, d, "PreToolUse", claudeLs)
	if o.Decision != protocol.DecisionAsk || !strings.HasPrefix(o.Message, "no rm -rf") {
		t.Fatalf("ask rule on the rewrite: %s %q", o.Decision, o.Message)
	}
}

// A rewrite that removes the key a rule reads: a fail_closed rule's error
// on the call as it will run blocks; any other rule's is reported and
// changes nothing.
func TestRejudgeRuleErrorOnTheRewrite(t *testing.T) {
	const strict = `args.command contains "rm"`
	d := claudeRewrite(t, `{"cmd":"rm -rf /"}`, claudeRule(strict, "block", "fail_closed: true"))
	o := dispatch(t, d, "PreToolUse", claudeLs)
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "rewritten") {
		t.Fatalf("fail_closed rule erring on the rewrite: %s %q", o.Decision, o.Message)
	}
	d = claudeRewrite(t, `{"cmd":"rm -rf /"}`, claudeRule(strict, "block"))
	o = dispatch(t, d, "PreToolUse", claudeLs)
	r := ruleReport(t, o)
	if o.Decision == protocol.DecisionBlock || r.Error == "" || !r.Rejudged || r.Failure() == "" {
		t.Fatalf("rule erring on the rewrite: %s %q, report %+v", o.Decision, o.Message, r)
	}
}

// A shadow rule judges the rewrite for the record only.
func TestRejudgeShadowRuleRecordsOnly(t *testing.T) {
	s := script(t, t.TempDir(), "rewrite.sh", `echo '{"action":"modify","args":{"command":"rm -rf /"}}'`)
	o := dispatch(t, dispatcherFor(t, rejudgeYAML(s, rmRule+"¦block¦mode: shadow")), "pre_tool_call", terminal("ls"))
	r := ruleReport(t, o)
	if o.Decision != protocol.DecisionNone || !r.Rejudged || !strings.HasPrefix(r.Would, "block: no rm -rf") {
		t.Fatalf("shadow rule on the rewrite: %s, report %+v", o.Decision, r)
	}
}

// A rule true on the call as sent already decided: it is not evaluated
// again, and its message is given once. Without a rewrite nothing is
// evaluated twice.
func TestRejudgeOnlyWhatTheOriginalLetThrough(t *testing.T) {
	evals := countRuleEvals(t)
	s := script(t, t.TempDir(), "rewrite.sh", `echo '{"action":"modify","args":{"command":"rm -rf /tmp/y"}}'`)
	o := dispatch(t, dispatcherFor(t, rejudgeYAML(s, rmRule+"¦ask")), "pre_tool_call", terminal("rm -rf /tmp/x"))
	if o.Decision != protocol.DecisionAsk || o.Message != "no rm -rf" || evals.Load() != 1 || ruleReport(t, o).Rejudged {
		t.Fatalf("rule true on the original: %s %q, %d evaluations", o.Decision, o.Message, evals.Load())
	}
	evals.Store(0)
	quiet := script(t, t.TempDir(), "quiet.sh", `exit 0`)
	o = dispatch(t, dispatcherFor(t, rejudgeYAML(quiet, rmRule+"¦block", "true¦context")), "pre_tool_call", terminal("ls"))
	if o.Decision != protocol.DecisionNone || evals.Load() != 2 || ruleReport(t, o).Rejudged {
		t.Fatalf("no rewrite: %s, %d evaluations", o.Decision, evals.Load())
	}
	// A context rule is not read again on a rewrite.
	evals.Store(0)
	o = dispatch(t, dispatcherFor(t, rejudgeYAML(s, "false¦context")), "pre_tool_call", terminal("ls"))
	if evals.Load() != 1 {
		t.Fatalf("context rule on a rewrite: %d evaluations", evals.Load())
	}
}

// BenchmarkRejudge: a firing of an in-process hook and four block rules,
// the hook answering nothing or a rewrite the rules judge again: what the
// re-judgement adds to a rewritten call, and that a call no hook rewrites
// pays nothing for it.
func BenchmarkRejudge(b *testing.B) {
	for _, bc := range []struct{ name, reply string }{
		{"no rewrite", `{}`},
		{"rewrite", `{"action":"modify","args":{"command":"ls -la"}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			saved := kinds
			kinds = append(slices.Clip(kinds), replyKindOf)
			defer func() { kinds = saved }()
			pre, _ := protocol.Lookup("pre_tool_call")
			hook := &hookconfig.Entry{Event: pre, Spec: &replySpec{Name: "rewrite", Reply: bc.reply}}
			hook.Prepare(nil)
			entries := []*hookconfig.Entry{hook}
			for range 4 {
				e := &hookconfig.Entry{Event: pre, Matcher: "terminal", Spec: &hookconfig.RuleSpec{Source: rmRule, Decision: "block", Message: "no rm -rf"}}
				e.Prepare(nil)
				entries = append(entries, e)
			}
			d, err := New(&hookconfig.Config{Entries: entries}, Options{Gate: AllowAll, Cwd: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			fields := terminal("ls")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Dispatch(ctx, "pre_tool_call", fields); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A rule of a later priority tier judged the call with the metadata the
// earlier tiers passed on (payload.metadata): it judges the rewrite with
// the same, not with the fields of the first tier.
func TestRejudgeLaterTierKeepsItsMetadata(t *testing.T) {
	s := script(t, t.TempDir(), "rewrite.sh", `echo '{"action":"modify","args":{"command":"rm -rf /"},"metadata":{"strict":true}}'`)
	yml := "hooks:\n  pre_tool_call:\n    - command: " + strconv.Quote(s) + "\n      priority: 1\n" +
		"    - matcher: terminal\n      priority: 2\n      rule: 'payload?.metadata?.strict == true && args.command contains \"rm\"'\n      decision: block\n      message: no rm in strict mode\n"
	o := dispatch(t, dispatcherFor(t, yml), "pre_tool_call", terminal("ls"))
	if o.Decision != protocol.DecisionBlock || !strings.HasPrefix(o.Message, "no rm in strict mode") {
		t.Fatalf("a rewrite judged without the tier's metadata: %s %q", o.Decision, o.Message)
	}
}

// The rules judged again on a rewritten call share one budget
// (rule.FiringBound), as the first pass's do, instead of each taking its
// own bound one after another: twenty rules that run away on the rewrite
// made the block wait twenty bounds (10 s at the default 0.5 s, 5 s at
// this test's 0.25 s) where the docs promise their firing's rules one
// second. Each fail_closed one still blocks, naming why.
func TestRejudgeRulesShareABudget(t *testing.T) {
	withKind(t, replyKindOf)
	pre, _ := protocol.Lookup("pre_tool_call")
	// A command a model can write in one call, on which each of these
	// rules takes far longer than its bound (a match of the pattern
	// scans all of it; the loop matches again and again). The class in
	// the pattern needs no literal, so the command is matched, not
	// answered by the literals a match needs (internal/rule's needs).
	long := strings.Repeat("a", 16000)
	hook := &hookconfig.Entry{Event: pre, Spec: &replySpec{Name: "rewrite", Reply: `{"action":"modify","args":{"command":"` + long + `"}}`}}
	hook.Prepare(nil)
	entries := []*hookconfig.Entry{hook}
	const n = 20
	for i := range n {
		e := ruleEntry(t, `len(args.command) > 100 && any(1..99999, args.command matches "(y|z`+strconv.Itoa(i)+`|[^a])[^|]{0,1000}[^|]{0,1000}[^|]{0,1000}")`, "block", consent.Scope{}, true)
		e.Timeout = 250 * time.Millisecond
		entries = append(entries, e)
	}
	d, err := New(&hookconfig.Config{Entries: entries}, Options{Gate: AllowAll, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	o := dispatch(t, d, "pre_tool_call", terminal("ls"))
	// The budget is 0.5 s; the rules one after another took 5 s or more.
	// 2.5 s only catches that, with room for a loaded machine.
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("the rewritten call's %d runaway rules took %v: more than their budget allows", n, took)
	}
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "judged on the call as rewritten") {
		t.Fatalf("outcome %s %q: want the fail_closed rules' block", o.Decision, o.Message)
	}
	for _, h := range o.Hooks[1:] {
		c := h.Contribution
		if !h.Rejudged || !strings.Contains(h.Error, "rule evaluation stopped") || c == nil || c.Decision != protocol.DecisionBlock {
			t.Errorf("a runaway fail_closed rule on the rewrite: %+v", h)
		}
	}
}

// The rules judging a rewritten call again share one rule.Input of it,
// whatever their tiers, each tier's metadata set in it.
func TestRejudgeOneInputForTheRewrite(t *testing.T) {
	withKind(t, replyKindOf)
	n := 0
	testRuleInput = func() { n++ }
	defer func() { testRuleInput = nil }()
	pre, _ := protocol.Lookup("pre_tool_call")
	hook := &hookconfig.Entry{Event: pre, Spec: &replySpec{Name: "strict", Reply: `{"action":"modify","args":{"command":"rm x"},"metadata":{"strict":true}}`}}
	hook.Prepare(nil)
	entries := []*hookconfig.Entry{hook}
	for prio := 1; prio <= 4; prio++ {
		e := ruleEntry(t, `payload.metadata?.strict == true && args.command contains "rm"`, "block", consent.Scope{}, false)
		e.Priority = prio
		entries = append(entries, e)
	}
	d, err := New(&hookconfig.Config{Entries: entries}, Options{Gate: AllowAll, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", terminal("ls"))
	if o.Decision != protocol.DecisionBlock {
		t.Fatalf("outcome %s %q: want the rules to block the rewrite", o.Decision, o.Message)
	}
	for _, h := range o.Hooks[1:] {
		if c := h.Contribution; !h.Rejudged || h.Error != "" || c == nil || c.Decision != protocol.DecisionBlock {
			t.Errorf("a tier's rule, with its metadata, on the rewrite: %+v", h)
		}
	}
	if n != 2 {
		t.Fatalf("%d rule.Inputs built for four tiers of rules on a call and its rewrite, want 2", n)
	}
}
