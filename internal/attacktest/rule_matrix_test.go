//go:build linux

package attacktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The rule matrix (issue 35's acceptance, for every agent): the tutorial's
// rule, verbatim, decides a shell call the same way through every agent's
// one-shot `hook AGENT EVENT`. For every agent of the registry and every
// host that calls it, every gating event whose sample payload is a call of
// the agent's shell tool (the tool a `matcher: terminal` sees), `rm -rf /`
// is refused in the agent's own dialect with the rule's message verbatim,
// and `ls -la` draws no objection — with the rule in the user's config and
// in an approved project config; decision: ask is the agent's ask, or a
// refusal where it cannot ask; decision: context is the agent's context
// (never a refusal) on every event that carries one; and the same through a
// live serve the hook forwards to. The reply must be, byte for byte as the
// agent parses it, what agents.Encode gives for the rule's outcome (that
// each agent reads that as a refusal, an ask or context is the pure
// agents/refusal_matrix_test.go's part), the message must be in it whole,
// and rm -rf / must never get the empty reply that lets a call run. Rows
// come from agents.All() and the samples, as the fail-closed matrix's do: a
// new agent is covered without an edit here, and TestRuleMatrixRows fails
// an agent without a shell row.

// tutorialRule is the rule of issue 35 and the README tutorial, as written
// there (the YAML single-quoted scalar keeps its backslashes doubled, which
// expr's string literal reads as one).
const tutorialRule = `'args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"'`

// ruleMessage is the rule's message: it must reach the agent unchanged.
const ruleMessage = "rm -rf is not allowed here"

// shellCallers are the matrix's callers whose sample is a call of the
// agent's shell tool with agents.SampleCommand, each with its decoded call.
func shellCallers(t *testing.T, all []*agents.Agent) []shellCaller {
	return shellCalls(t, matrixCallers(all), []string{""})
}

// shellSpellings are the names agents give a shell tool besides the one
// their sample uses: each that an agent's payload can name and that a
// matcher: terminal sees as the shell makes one more row.
var shellSpellings = []string{"", "Bash", "PowerShell", "bash", "powershell", "Shell", "shell", "run_shell_command",
	"execute_bash", "execute_cmd", "Execute", "run_in_terminal", "execute_command", "exec_command", "local_shell", "terminal"}

// shellCalls keeps the callers whose sample, naming one of tools ("": the
// agent's own shell tool), is a shell call running agents.SampleCommand:
// one row per caller and tool name the dispatch receives (Kiro's
// execute_bash and execute_cmd both decode to Bash: which of an agent's
// names decodes to which is the tool table's part, agents/tooltable_test.go).
func shellCalls(t *testing.T, callers []matrixCaller, tools []string) []shellCaller {
	var out []shellCaller
	for _, c := range callers {
		if !c.ev.Tool {
			continue
		}
		seen := map[string]bool{}
		for _, tool := range tools {
			sample, ok := c.agent.Sample(c.host, c.event, tool)
			if !ok {
				continue
			}
			call, err := c.agent.Decode(sample, c.event)
			if err != nil || call.Event != c.ev {
				t.Fatalf("%s: the sample %s does not decode to %s: %v", c, sample, c.ev.Name, err)
			}
			f := protocol.NewFiring(c.ev, c.event, call.Fields)
			f.Bind(protocol.DefaultTools(), "", nil)
			if f.Tool != "terminal" || !bytes.Contains(sample, []byte(agents.SampleCommand)) || seen[f.HostTool] {
				continue
			}
			seen[f.HostTool] = true
			out = append(out, shellCaller{matrixCaller: c, tool: tool, sample: sample, call: call})
		}
	}
	return out
}

type shellCaller struct {
	matrixCaller
	tool   string // "" for the sample's own shell tool
	sample []byte
	call   *agents.Call
}

func (c shellCaller) String() string {
	if c.tool == "" {
		return c.matrixCaller.String()
	}
	return c.matrixCaller.String() + "/" + c.tool
}

// ruleConfig is a config holding the tutorial's rule with decision under
// event, and what the rule's scene needs.
func ruleConfig(event, decision string) string {
	return "hooks:\n  " + event + ":\n    - matcher: terminal\n      rule: " + tutorialRule +
		"\n      decision: " + decision + "\n      message: \"" + ruleMessage + "\"\n"
}

// ruleScene writes the config: the user's own, or a project's
// (.hermes/hooks.yaml in a git repository, the work directory) approved
// with approve --project.
func ruleScene(t *testing.T, project bool, config string) *env {
	e := newEnv(t)
	if !project {
		e.write("home/config.yaml", config, 0o644)
		return e
	}
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	e.write(".hermes/hooks.yaml", config, 0o644)
	if out, err := exec.Command("git", "-C", e.dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	e.run("", "approve", "--project", "--yes")
	return e
}

func TestRuleMatrix(t *testing.T) {
	for _, where := range []string{"user", "project"} {
		// Every name of the shell tool in the user's scene; the project's
		// differs in where the rule is written only.
		callers := shellCallers(t, agents.All())
		if where == "user" {
			callers = shellCalls(t, matrixCallers(agents.All()), shellSpellings)
		}
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			for _, c := range callers {
				t.Run(c.String(), func(t *testing.T) {
					t.Parallel()
					ruleRow(t, c, where == "project")
				})
			}
		})
	}
}

// ruleRow fires the rule of one scene at rm -rf / (block, then ask) and
// ls -la through hook AGENT EVENT.
func ruleRow(t *testing.T, c shellCaller, project bool) {
	args := []string{"hook", c.agent.Name, c.event, "--no-server"}
	for _, decision := range []protocol.Decision{protocol.DecisionBlock, protocol.DecisionAsk} {
		e := ruleScene(t, project, ruleConfig("pre_tool_call", string(decision)))
		checkRuleReplies(t, c, decision, func(stdin []byte) agents.Reply {
			got, _ := e.hookReply(t, stdin, args)
			return got
		})
	}
}

// TestRuleMatrixServe: the same through a live serve, which every row's
// hook forwards to (one server per decision).
func TestRuleMatrixServe(t *testing.T) {
	callers := shellCallers(t, agents.All())
	for _, decision := range []protocol.Decision{protocol.DecisionBlock, protocol.DecisionAsk} {
		t.Run(string(decision), func(t *testing.T) {
			t.Parallel()
			e := ruleScene(t, false, ruleConfig("pre_tool_call", string(decision)))
			sock := shortSock(t)
			s := e.serve(sock, "--log-level", "debug")
			for _, c := range callers {
				args := []string{"hook", c.agent.Name, c.event, "--server", "unix://" + sock}
				checkRuleReplies(t, c, decision, func(stdin []byte) agents.Reply {
					got, _ := e.hookReply(t, stdin, args)
					return got
				})
			}
			// Each call was answered by the server, not in the hook's own
			// process after a failed forward. The server logs a dispatch
			// after its reply is on its way, and its log reaches the test
			// through a pipe: the last line may come after the last reply.
			want := 2 * len(callers)
			waitFor(t, fmt.Sprintf("the server's log of %d dispatches (a hook that answered in its own process leaves none)", want), func() bool {
				return strings.Count(s.log.String(), "msg=dispatch ") >= want
			})
		})
	}
}

// checkRuleReplies: hook (one call of c's) refuses rm -rf / in c's dialect
// as the rule's decision says, its message verbatim, and lets ls -la be.
func checkRuleReplies(t *testing.T, c shellCaller, decision protocol.Decision, hook func(stdin []byte) agents.Reply) {
	t.Helper()
	got := hook(c.sample)
	want := c.agent.Encode(c.call, &protocol.Outcome{Event: c.ev.Name, Decision: decision, Message: ruleMessage})
	if err := sameReply(want, got); err != nil {
		t.Errorf("%s %s: %v\nreply: exit %d, stdout %q\nstderr: %s\nwant: exit %d, stdout %q, stderr %q",
			c, decision, err, got.Exit, got.Stdout, got.Stderr, want.Exit, want.Stdout, want.Stderr)
	}
	if got.Exit == 0 && len(bytes.TrimSpace(got.Stdout)) == 0 {
		t.Errorf("%s %s: rm -rf / is let through (exit 0, nothing on stdout)", c, decision)
	}
	if !showsMessage(got, ruleMessage) {
		t.Errorf("%s %s: the reply does not carry %q verbatim: exit %d, stdout %q, stderr %q",
			c, decision, ruleMessage, got.Exit, got.Stdout, got.Stderr)
	}
	got = hook(bytes.ReplaceAll(c.sample, []byte(agents.SampleCommand), []byte("ls -la")))
	if got.Exit != 0 || len(bytes.TrimSpace(got.Stdout)) != 0 {
		t.Errorf("%s %s: ls -la draws an objection: exit %d, stdout %q, stderr %q", c, decision, got.Exit, got.Stdout, got.Stderr)
	}
}

// sameReply: got is want as the agent reads it — the same exit code, the
// same JSON on stdout (member order aside), want's stderr within got's.
func sameReply(want, got agents.Reply) error {
	if got.Exit != want.Exit {
		return fmt.Errorf("exit %d, want %d", got.Exit, want.Exit)
	}
	if !bytes.Contains(got.Stderr, bytes.TrimSpace(want.Stderr)) {
		return fmt.Errorf("stderr does not hold %q", want.Stderr)
	}
	if len(bytes.TrimSpace(want.Stdout)) == 0 {
		if len(bytes.TrimSpace(got.Stdout)) != 0 {
			return fmt.Errorf("stdout %q, want nothing", got.Stdout)
		}
		return nil
	}
	var w, g any
	if err := json.Unmarshal(want.Stdout, &w); err != nil {
		return fmt.Errorf("the oracle's reply %q: %v", want.Stdout, err)
	}
	if err := json.Unmarshal(got.Stdout, &g); err != nil {
		return fmt.Errorf("stdout is not the agent's JSON reply: %v", err)
	}
	wj, _ := json.Marshal(w)
	gj, _ := json.Marshal(g)
	if !bytes.Equal(wj, gj) {
		return fmt.Errorf("stdout %s, want %s", gj, wj)
	}
	return nil
}

// showsMessage: msg is, whole, a string of the reply's JSON or a line's
// text on stderr (Windsurf's, Kiro's and exit-2 refusals are read there).
func showsMessage(r agents.Reply, msg string) bool {
	if bytes.Contains(r.Stderr, []byte(msg)) {
		return true
	}
	var v any
	if json.Unmarshal(r.Stdout, &v) != nil {
		return false
	}
	return anyString(v, func(s string) bool { return strings.Contains(s, msg) })
}

func anyString(v any, f func(string) bool) bool {
	switch x := v.(type) {
	case string:
		return f(x)
	case map[string]any:
		for _, m := range x {
			if anyString(m, f) {
				return true
			}
		}
	case []any:
		for _, m := range x {
			if anyString(m, f) {
				return true
			}
		}
	}
	return false
}

// The rule matrix cannot go vacuous: every agent (and every host of one)
// has a shell row, so a new agent whose sample is no shell call, or whose
// shell tool no matcher: terminal sees, fails here.
func TestRuleMatrixRows(t *testing.T) {
	callers := shellCallers(t, agents.All())
	for _, a := range agents.All() {
		for _, who := range append([]string{""}, a.HostNames()...) {
			n := 0
			for _, c := range callers {
				if c.agent == a && c.host == who {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s%s: no gating event whose sample is a shell call that matcher: terminal sees", a.Name, "+"+who)
			}
		}
	}
}

// contextCallers are the shell calls of every tool event of the registry's
// agents (gating or not) that has a Hermes name and carries context: a rule
// under that name with decision: context.
func contextCallers(t *testing.T, all []*agents.Agent) []shellCaller {
	var callers []matrixCaller
	for _, a := range all {
		for _, name := range a.AgentEvents() {
			ev, ok := a.Canonical(name)
			if !ok || !ev.Hermes || ev.Caps&protocol.CapContext == 0 {
				continue
			}
			for _, host := range append([]string{""}, a.HostNames()...) {
				callers = append(callers, matrixCaller{agent: a, host: host, event: name, ev: ev})
			}
		}
	}
	return shellCalls(t, callers, []string{""})
}

// TestRuleMatrixContext: the tutorial's rule with decision: context gives
// the agent the rule's message as the context it reads (where the agent
// reads context on that event at all) and never refuses the call.
func TestRuleMatrixContext(t *testing.T) {
	callers := contextCallers(t, agents.All())
	if len(callers) == 0 {
		t.Fatal("no agent has a tool event that carries context")
	}
	for _, c := range callers {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			args := []string{"hook", c.agent.Name, c.event, "--no-server"}
			e := ruleScene(t, false, ruleConfig(c.ev.Name, "context"))
			got, _ := e.hookReply(t, c.sample, args)
			want := c.agent.Encode(c.call, &protocol.Outcome{Event: c.ev.Name, Context: ruleMessage})
			if err := sameReply(want, got); err != nil {
				t.Errorf("%s: %v\nreply: exit %d, stdout %q\nstderr: %s\nwant: exit %d, stdout %q, stderr %q",
					c, err, got.Exit, got.Stdout, got.Stderr, want.Exit, want.Stdout, want.Stderr)
			}
			if got.Exit == 2 {
				t.Errorf("%s: context refused the call: stderr %q", c, got.Stderr)
			}
			if len(want.Stdout)+len(want.Stderr) > 0 && !showsMessage(got, ruleMessage) {
				t.Errorf("%s: the context does not carry %q verbatim: stdout %q, stderr %q", c, ruleMessage, got.Stdout, got.Stderr)
			}
			t.Logf("%s: exit %d stdout %s stderr %q", c, got.Exit, bytes.TrimSpace(got.Stdout), got.Stderr)
		})
	}
}
