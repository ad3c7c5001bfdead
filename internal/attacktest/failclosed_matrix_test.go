//go:build linux

package attacktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The fail-closed matrix (issue 31, item 1): for every agent of the
// registry and every host that calls it (VS Code), every gating event it
// serves, and every way a fail_closed guard can fail to be asked, `hook
// AGENT EVENT` answers with that agent's own refusal — the reply agent.Deny
// gives, read as the agent reads it — and the journal holds a record of the
// refused firing. Rows come from agents.All() and the catalog: a new agent
// or event has its rows without an edit here (TestFailClosedMatrixRows).

// matrixCaller is one program calling `hook AGENT EVENT` for one gating event.
type matrixCaller struct {
	agent *agents.Agent
	host  string // "" for the agent itself
	event string // the agent's name of the event
	ev    *protocol.Event
}

func (c matrixCaller) String() string {
	who := c.agent.Name
	if c.host != "" {
		who += "+" + c.host
	}
	return who + "/" + c.event
}

// matrixCallers lists every caller of every gating event the agents serve.
func matrixCallers(all []*agents.Agent) []matrixCaller {
	var out []matrixCaller
	for _, a := range all {
		for _, name := range a.AgentEvents() {
			ev, ok := a.Canonical(name)
			if !ok || !ev.Gating() {
				continue
			}
			for _, host := range append([]string{""}, a.HostNames()...) {
				out = append(out, matrixCaller{agent: a, host: host, event: name, ev: ev})
			}
		}
	}
	return out
}

// matrixFailure is one way a fail_closed guard cannot be asked, or answers
// nothing usable. The guard is ./guard.sh, a fail_closed entry on the
// event in the user's config; it blocks when it works (blockingScript).
type matrixFailure struct {
	name string
	// script replaces the guard's body ("": it blocks).
	script string
	// unapproved: the guard is never approved.
	unapproved bool
	// after changes the scene once the guard is approved.
	after func(e *env)
	// config replaces the config file.
	config string
	// stdin turns the caller's sample payload into what is sent.
	stdin func(c matrixCaller, sample []byte) []byte
	// tool is the tool the call names ("": the sample's).
	tool string
	// args are hook's extra arguments.
	args []string
	// entry is more of the guard's entry (YAML lines under it).
	entry string
	// command replaces the guard's command ("": ./guard.sh).
	command string
	// shell: the call goes through the command line install writes into a
	// project (run by sh -c, as the agents run hook commands) instead of
	// calling hermes-hooks directly, with a PATH that has no hermes-hooks.
	shell bool
	// anyCaller: who calls cannot be told (the payload is not read), so the
	// refusal is the one the agent and its hosts all read
	// (agents.DenyAnyCaller).
	anyCaller bool
	// claude: the guard is a Claude-dialect entry (under the event's
	// Claude Code name); events without one have no such row.
	claude bool
	// rule: the guard is a rule of the user's config (rule:, decision:
	// block, fail_closed), which needs no approval, instead of ./guard.sh.
	rule string
	// reason is what the refusal must say (a rule's failure, not a rule
	// the dispatcher cannot run at all).
	reason string
	// managed: the guard is in the managed config (etc/config.yaml, named
	// by HERMES_HOOKS_MANAGED_CONFIG; its script etc/guard.sh), approved
	// by being there; the user's config is config, else hooks: {}.
	managed bool
	// env is more of the caller's environment.
	env []string
	// project: the guard is in the working directory's repository hooks
	// file (.hermes/hooks.yaml), approved there; the user's config is
	// hooks: {}.
	project bool
	// unreadable writes, for the event (its Claude Code name for a
	// claude row), a fail_closed guard of the user's own that cannot be
	// read, in one shape: it runs nothing and needs no approval.
	unreadable func(e *env, event string)
}

// slowRule passes a rule's time bound (rule.DefaultTimeout, 0.5 s) on any
// payload, within every compile-time and memory limit: one loop of 99,999
// steps, each matching a constant 1,600-byte string with a constant
// pattern it does not match (Go's regexp is linear, so the length does
// the work: about 0.1 ms a step, ten seconds in all on a loaded 2-core
// machine). A rule may build nothing inside a loop, so the string is in
// the rule rather than read from the payload; the pattern never matches,
// so the loop (which expr turns into any()) runs to its end.
var slowRule = `count(1..99999, "` + strings.Repeat("ab", 800) + `" matches "a.*[cx].*[dy]$") > 0`

// unknownTool is a tool no agent and no tool table knows.
const unknownTool = "hermes_matrix_unknown_tool"

// matrixFailures is every failure of the matrix: a new failure is one
// more line.
func matrixFailures() []matrixFailure {
	return []matrixFailure{
		{name: "missing", after: func(e *env) { must(e.t, os.Remove(e.path("guard.sh"))) }},
		{name: "not-executable", after: func(e *env) { must(e.t, os.Chmod(e.path("guard.sh"), 0o644)) }},
		{name: "crashing", script: "#!/bin/sh\nkill -SEGV $$\n"},
		{name: "garbage", script: "#!/bin/sh\necho '{ this is not a reply'\n"},
		{name: "exit-2-no-json", script: "#!/bin/sh\necho 'something went wrong' >&2\nexit 2\n"},
		{name: "exit-1", script: "#!/bin/sh\nexit 1\n"},
		// Replies that are JSON objects yet say nothing the guard's
		// dialect can act on: a member named twice (which one the guard
		// meant cannot be known), a verb of another agent's vocabulary.
		{name: "ambiguous-reply", script: "#!/bin/sh\necho '{\"decision\": \"block\", \"decision\": \"approve\"}'\n"},
		// A worker entry (run one-shot by hook) whose reply line is no JSON
		// object, or names a member twice.
		{name: "worker-garbage", entry: "      worker: true\n", script: "#!/bin/sh\necho '{ this is not a reply'\n"},
		{name: "worker-ambiguous", entry: "      worker: true\n", script: "#!/bin/sh\necho '{\"decision\": \"block\", \"decision\": \"approve\"}'\n"},
		{name: "unread-verb", script: "#!/bin/sh\necho '{\"decision\": \"deny\", \"reason\": \"no\"}'\n"},
		// Valid JSON that fails Claude Code's validation: no reply at all.
		{name: "invalid-reply", claude: true, script: "#!/bin/sh\necho '{\"decision\": 5}'\n"},
		// Claude Code applies no hookSpecificOutput without its event's
		// hookEventName (an error, the call proceeds): the guard's deny in
		// it was never read.
		// A shell profile's banner before the reply: stdout is text, which
		// Claude Code ignores on exit 0; the block after it is never read.
		{name: "banner-before-reply", claude: true, script: "#!/bin/sh\necho 'Welcome to the build box'\necho '{\"decision\": \"block\", \"reason\": \"no\"}'\n"},
		{name: "hso-without-event-name", claude: true, script: "#!/bin/sh\necho '{\"hookSpecificOutput\": {\"permissionDecision\": \"deny\"}}'\n"},
		{name: "hso-other-event-name", claude: true, script: "#!/bin/sh\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"permissionDecision\": \"deny\"}}'\n"},
		{name: "unapproved", unapproved: true},
		{name: "changed-since-approval", after: func(e *env) { e.write("guard.sh", "#!/bin/sh\necho '{}'\n", 0o755) }},
		{name: "config-unreadable", config: "hooks:\n  pre_tool_call: [\n    - command: ./guard.sh\n"},
		{name: "payload-unreadable", anyCaller: true, stdin: func(matrixCaller, []byte) []byte { return []byte("this is not JSON {") }},
		{name: "payload-event-unserved", stdin: unservedEvent},
		{name: "payload-event-refuses-nothing", stdin: observerEvent},
		{name: "unknown-tool", tool: unknownTool},
		// The guard's own timeout (600 s) is far past the agent's (2 s): only
		// hook's deadline can answer in time (item 4). (Each row waits for
		// that deadline, two at a time: 5 s made it a minute of make test.)
		{name: "agent-deadline", script: "#!/bin/sh\nexec sleep 3600\n", args: []string{"--agent-timeout", "2"},
			entry: "      timeout: 600\n"},
		// Approved by its text (a module the resolver cannot pin) without
		// approve --text-only: an approval written before the
		// acknowledgement existed (item 3).
		{name: "approved-by-text-only", command: "python3 -m hermes_matrix_guard", unapproved: true, after: textOnlyApproval},
		// The teammate without hermes-hooks: no process of ours runs, so
		// the refusal is the prologue's and no journal can hold it
		// (issue 32 item 1).
		{name: "hermes-hooks-missing", shell: true, anyCaller: true},
		// A rule that cannot be evaluated: a key no payload has (issue 35).
		{name: "rule-evaluation-error", rule: `payload.hermes_matrix_no_such_key == 1`, reason: "rule evaluation failed"},
		// A rule past its time bound.
		{name: "rule-timeout", rule: slowRule, reason: "passed its time bound"},
		// The managed layer (issue 36, item 1): a managed file a user could
		// write, or that does not parse, cannot say which guards it holds;
		// a working managed guard blocks whatever the user switches off.
		// A fail_closed guard that cannot be read, in each shape a config
		// can hold one: it blocks what it would have guarded.
		{name: "unreadable-entry", unreadable: func(e *env, event string) {
			e.write("home/config.yaml", "hooks:\n  "+event+":\n    - comand: ./guard.sh\n      fail_closed: true\n", 0o644)
		}},
		{name: "unreadable-yaml-group", claude: true, unreadable: func(e *env, event string) {
			e.write("home/config.yaml", "hooks:\n  "+event+":\n    - hooks:\n        - type: command\n          comand: ./guard.sh\n          onFailure: block\n", 0o644)
		}},
		// Claude Code's own settings (which it reads itself: hook claude
		// skips the hooks it runs, but not one it cannot read either).
		{name: "unreadable-settings", claude: true, unreadable: func(e *env, event string) {
			unreadableSettings(e, `{"hooks": {"`+event+`": [{"hooks": [{"type": "command", "comand": "./guard.sh", "onFailure": "block"}]}]}}`)
		}},
		{name: "unreadable-settings-type", claude: true, unreadable: func(e *env, event string) {
			unreadableSettings(e, `{"hooks": {"`+event+`": [{"hooks": [{"type": 7, "command": "./guard.sh", "onFailure": "block"}]}]}}`)
		}},
		{name: "unreadable-settings-group-matcher", claude: true, unreadable: func(e *env, event string) {
			unreadableSettings(e, `{"hooks": {"`+event+`": [{"matcher": ["Bash"], "hooks": [{"command": "./guard.sh", "onFailure": "block"}]}]}}`)
		}},
		// A fail_closed guard no event can hold — under a name that is no
		// event, in a hooks: that is no mapping — makes its file one that
		// does not load (hookconfig/vanish.go).
		{name: "misspelt-event", reason: "is no event (did you mean", unreadable: func(e *env, event string) {
			e.write("home/config.yaml", "hooks:\n  "+event[:len(event)-1]+":\n    - command: ./guard.sh\n      fail_closed: true\n", 0o644)
		}},
		{name: "misspelt-event-settings", claude: true, reason: "is no event", unreadable: func(e *env, event string) {
			unreadableSettings(e, `{"hooks": {"`+event[:len(event)-1]+`": [{"hooks": [{"type": "command", "command": "./guard.sh", "failClosed": true}]}]}}`)
		}},
		{name: "hooks-not-a-mapping", reason: "not a mapping of event names", unreadable: func(e *env, event string) {
			e.write("home/config.yaml", "hooks:\n  - "+event+":\n      - command: ./guard.sh\n        fail_closed: true\n", 0o644)
		}},
		// A repository's hooks file that no longer loads (a guard of it
		// may be lost): a readable call is refused for it, and so is one
		// whose fields cannot be read.
		{name: "repo-unloaded-payload-unreadable", project: true, anyCaller: true,
			stdin: func(matrixCaller, []byte) []byte { return []byte("this is not JSON {") },
			after: func(e *env) { e.write(".hermes/hooks.yaml", "hooks:\n  pre_tool_call: [\n", 0o644) }},
		{name: "managed-refused", managed: true, after: func(e *env) { must(e.t, os.Chmod(e.path("etc/config.yaml"), 0o666)) }},
		{name: "managed-unparsable", managed: true, after: func(e *env) { e.write("etc/config.yaml", "hooks: [\n", 0o644) }},
		{name: "managed-safe-mode", managed: true, env: []string{"HERMES_SAFE_MODE=1"}},
		{name: "managed-user-disables", managed: true, env: []string{"HERMES_ACCEPT_HOOKS=1"},
			config: "hooks: {}\nclaude_settings: [off.json]\n", after: func(e *env) { e.write("home/off.json", `{"disableAllHooks": true}`, 0o644) }},
	}
}

// blockingScript is the guard at work: it keeps what it was asked and
// refuses, in its entry's dialect (a Hermes event's entry speaks Hermes'
// protocol, a Claude Code event's Claude Code's).
func blockingScript(ev *protocol.Event) string {
	keep := "#!/bin/sh\ncat > \"$WORK/guard.input\"\n"
	if ev.Hermes {
		return keep + "echo '{\"action\": \"block\", \"message\": \"guarded\"}'\n"
	}
	return keep + "echo guarded >&2\nexit 2\n"
}

func TestFailClosedMatrix(t *testing.T) {
	callers := matrixCallers(agents.All())
	for _, f := range matrixFailures() {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			for _, c := range callers {
				t.Run(c.String(), func(t *testing.T) {
					t.Parallel()
					runMatrixRow(t, c, f)
				})
			}
		})
	}
}

// runMatrixRow sets one row's scene up, calls hook and judges the answer.
func runMatrixRow(t *testing.T, c matrixCaller, f matrixFailure) {
	sample, ok := c.agent.Sample(c.host, c.event, f.tool)
	if !ok {
		t.Skipf("%s's payload for %s cannot name the tool %q", c.agent.Name, c.event, f.tool)
	}
	e := newEnv(t)
	setUpMatrixGuard(t, e, c, f)
	stdin := sample
	if f.stdin != nil {
		stdin = f.stdin(c, sample)
	}
	var got agents.Reply
	if f.shell {
		if p, err := exec.LookPath("hermes-hooks"); err == nil && (strings.HasPrefix(p, "/bin/") || strings.HasPrefix(p, "/usr/bin/")) {
			t.Skipf("hermes-hooks is installed system-wide (%s): it cannot be missing here", p)
		}
		// The command line install writes into a project, run as the
		// agents run it, with the shell's tools but no hermes-hooks.
		got = runInstalled(t, e, []string{"/bin/sh", "-c", c.agent.HookCommand("", c.event)}, "/usr/bin:/bin", stdin)
	} else {
		got, _ = e.hookReply(t, stdin, append([]string{"hook", c.agent.Name, c.event}, f.args...))
	}
	// The refusal the agent would read: Deny for the call as the agent
	// made it (the well-formed sample: a refused payload that cannot be
	// read is refused as its command line's event).
	call, err := c.agent.Decode(sample, c.event)
	if err != nil || call.Event != c.ev {
		t.Fatalf("the sample %s does not decode to %s: %v", sample, c.ev.Name, err)
	}
	want := c.agent.Deny(call, denyMarker)
	if f.anyCaller {
		call.Host = nil
		want = c.agent.DenyAnyCaller(call, denyMarker)
	}
	if err := refusalLike(want, got); err != nil {
		t.Errorf("%s: %v\nreply: exit %d, stdout %q\nstderr: %s", c, err, got.Exit, got.Stdout, got.Stderr)
	}
	if f.reason != "" && !bytes.Contains(append(got.Stdout, got.Stderr...), []byte(f.reason)) {
		t.Errorf("%s: the refusal does not say %q: %s %s", c, f.reason, got.Stdout, got.Stderr)
	}
	if !f.shell && !journalHasRefusal(t, e, c.ev.Name) {
		t.Errorf("%s: the journal holds no refused %s firing", c, c.ev.Name)
	}
	if f.tool != "" {
		if in, _ := os.ReadFile(e.path("guard.input")); !bytes.Contains(in, []byte(f.tool)) {
			t.Errorf("%s: the guard was not asked about %s (its input: %q)", c, f.tool, in)
		}
	}
	// The refusal is the deadline's, not the guard's own timeout's (how
	// soon it came is TestHungGuardRefusedBeforeTheAgentsDeadline's part:
	// a timing bound here would fail on a loaded machine).
	if len(f.args) > 0 && f.args[0] == "--agent-timeout" && !bytes.Contains(append(got.Stdout, got.Stderr...), []byte("in time")) {
		t.Errorf("%s: the refusal does not say the guard did not answer in time", c)
	}
}

// setUpMatrixGuard writes the row's guard and config: in the user's
// config, approved unless the row says otherwise, or in the managed one.
func setUpMatrixGuard(t *testing.T, e *env, c matrixCaller, f matrixFailure) {
	script := f.script
	if script == "" {
		script = blockingScript(c.ev)
	}
	command := "./guard.sh"
	if f.command != "" {
		command = f.command
	}
	event := c.ev.Name
	if f.claude {
		if event = c.ev.Claude; event == "" {
			t.Skipf("%s has no Claude Code name: no Claude-dialect entry", c.ev.Name)
		}
	}
	entry := "hooks:\n  " + event + ":\n    - command: " + command + "\n      fail_closed: true\n" + f.entry
	e.vars = append(e.vars, f.env...)
	if f.managed {
		e.write("etc/guard.sh", script, 0o755)
		e.write("etc/config.yaml", entry, 0o644)
		e.write("home/config.yaml", "hooks: {}\n", 0o644)
		e.vars = append(e.vars, "HERMES_HOOKS_MANAGED_CONFIG="+e.path("etc/config.yaml"))
	} else if f.project {
		e.write("guard.sh", script, 0o755)
		e.write(".hermes/hooks.yaml", entry, 0o644)
		e.write("home/config.yaml", "hooks: {}\n", 0o644)
		e.run("", "approve", "--project", ".", "--yes")
	} else if f.unreadable != nil {
		f.unreadable(e, event)
	} else if f.rule != "" {
		// A rule of the user's config: no approval.
		e.write("home/config.yaml", "hooks:\n  "+event+":\n    - rule: '"+f.rule+"'\n      decision: block\n      message: guarded\n      fail_closed: true\n", 0o644)
	} else {
		e.write("guard.sh", script, 0o755)
		e.write("home/config.yaml", entry, 0o644)
		if !f.unapproved {
			e.run("", "approve", "./guard.sh")
		}
	}
	if f.after != nil {
		f.after(e)
	}
	if f.config != "" {
		e.write("home/config.yaml", f.config, 0o644)
	}
}

// denyMarker is the reason the oracle's refusal is built with: wherever it
// appears, the real reply may say anything non-empty.
const denyMarker = "\x00reason\x00"

// hookReply runs hook with stdin and returns the agent's view of the answer.
func (e *env) hookReply(t *testing.T, stdin []byte, args []string) (agents.Reply, time.Duration) {
	t.Helper()
	c := e.cmd(string(stdin), args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	start := time.Now()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	code := finish(t, c)
	return agents.Reply{Exit: code, Stdout: out.Bytes(), Stderr: errb.Bytes()}, time.Since(start)
}

// refusalLike reads got as the agent reads a reply and says how it differs
// from the refusal want: the same exit code; on stdout, every field of
// want's JSON with the same value (a reason: any non-empty text); a reason
// on stderr where want has one.
func refusalLike(want, got agents.Reply) error {
	if got.Exit != want.Exit {
		return fmt.Errorf("exit %d, want %d", got.Exit, want.Exit)
	}
	if len(want.Stderr) > 0 && len(bytes.TrimSpace(got.Stderr)) == 0 {
		return fmt.Errorf("no reason on stderr, want one")
	}
	if len(bytes.TrimSpace(want.Stdout)) == 0 {
		return nil
	}
	if len(bytes.TrimSpace(got.Stdout)) == 0 {
		return fmt.Errorf("an empty reply, which the agent reads as no objection; want its refusal %s", want.Stdout)
	}
	var w, g any
	if err := json.Unmarshal(want.Stdout, &w); err != nil {
		return fmt.Errorf("the oracle's refusal %q: %v", want.Stdout, err)
	}
	if err := json.Unmarshal(got.Stdout, &g); err != nil {
		return fmt.Errorf("stdout is not the agent's JSON reply: %v", err)
	}
	return sameFields("", w, g)
}

// sameFields: every member of w is in g with the same value; a string
// holding denyMarker matches any non-empty string.
func sameFields(path string, w, g any) error {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %v, want an object", path, g)
		}
		keys := make([]string, 0, len(wv))
		for k := range wv {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			gm, ok := gv[k]
			if !ok {
				return fmt.Errorf("%s.%s missing", path, k)
			}
			if err := sameFields(path+"."+k, wv[k], gm); err != nil {
				return err
			}
		}
		return nil
	case string:
		if strings.Contains(wv, denyMarker) {
			if s, ok := g.(string); !ok || strings.TrimSpace(s) == "" {
				return fmt.Errorf("%s: %v, want a reason", path, g)
			}
			return nil
		}
	}
	wj, _ := json.Marshal(w)
	gj, _ := json.Marshal(g)
	if !bytes.Equal(wj, gj) {
		return fmt.Errorf("%s: %s, want %s", path, gj, wj)
	}
	return nil
}

// journalHasRefusal reports whether the journal holds a blocked firing of
// event.
func journalHasRefusal(t *testing.T, e *env, event string) bool {
	t.Helper()
	data, err := os.ReadFile(e.path("home/hook-journal.jsonl"))
	if err != nil {
		return false
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var r struct{ Event, Decision string }
		if json.Unmarshal(line, &r) == nil && r.Event == event && r.Decision == "block" {
			return true
		}
	}
	return false
}

// The matrix cannot go vacuous: every agent has rows, every row a sample,
// and a new agent's gating event is enumerated without an edit here.
func TestFailClosedMatrixRows(t *testing.T) {
	callers := matrixCallers(agents.All())
	for _, a := range agents.All() {
		n := 0
		for _, c := range callers {
			if c.agent == a {
				n++
				if _, ok := a.Sample(c.host, c.event, ""); !ok {
					t.Errorf("%s: no sample payload", c)
				}
			}
		}
		if n == 0 {
			t.Errorf("agent %s has no rows in the fail-closed matrix", a.Name)
		}
	}
	if len(matrixFailures()) < 12 {
		t.Errorf("only %d failures in the matrix", len(matrixFailures()))
	}
	fake := &agents.Agent{Name: "fake", EventKey: "hook_event_name",
		Events: map[string]string{"BeforeAnything": "pre_tool_call", "AfterAnything": "post_tool_call"}}
	got := matrixCallers([]*agents.Agent{fake})
	if len(got) != 1 || got[0].event != "BeforeAnything" {
		t.Fatalf("a new agent's gating event is not enumerated: %v", got)
	}
	if _, ok := fake.Sample("", "BeforeAnything", ""); !ok {
		t.Fatal("a new agent has no sample payload")
	}
}
