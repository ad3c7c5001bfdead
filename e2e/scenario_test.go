//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// agent is one agent CLI wired to hermes-hooks in a harness's project, as
// the shared scenarios drive it. Each agent's file holds its adapter:
// how it is installed, how one prompt runs against a fake model, and how
// the fake's recorded requests show what the model read.
type agent interface {
	base() *harness
	spec() agentSpec
	// newFake is a fake of the agent's model API scripted with s.
	newFake(t *testing.T, s script) *fakeServer
	// run runs the agent once on the fake's prompt, in the project.
	run(t *testing.T, fake *fakeServer) *agentRun
	// requireSuccess stops the test unless the run ended with the fake
	// model's final "done".
	requireSuccess(t *testing.T, r *agentRun)
	// toolResult is the scripted shell call's result as the model read it,
	// from the last main-conversation request carrying it.
	toolResult(t *testing.T, fake *fakeServer) callResult
}

// agentSpec is how the scenarios' messages name an agent's parts, and
// where its requests carry the conversation.
type agentSpec struct {
	name   string // the agent in messages: "Claude Code"
	tool   string // its shell tool: "Bash"
	callID string // the scripted call's id, "" when messages omit it
	result string // what the model gets for a call: "result", "output", …
	unit   string // what a conversation is made of: "message", "turn", …
	member string // the request body's member holding the conversation
	// contextByTool: the context hook is on post_tool_call (the agent
	// drops a prompt hook's context), so the context case runs ls.
	contextByTool bool
	// guardLogsCommand: the guard case looks for the whole command in
	// .hermes/guard.log, not only its rm: an agent with two guard cases
	// (rm -rf, then rm -r) logs both in one project.
	guardLogsCommand bool
}

// call names the scripted call in messages: "Bash call toolu_…".
func (s agentSpec) call() string {
	if s.callID == "" {
		return s.tool + " call"
	}
	return s.tool + " call " + s.callID
}

// callResult is the scripted call's result as the model read it.
type callResult struct {
	found   bool
	text    string
	isError bool   // the result was marked an error (Claude's is_error)
	note    string // said after "the model read", e.g. " (is_error=false)"
}

// agentRun is one finished agent run.
type agentRun struct {
	err            error
	stdout, stderr string
	last           string // the final agent message, for an agent that writes it to a file
	elapsed        time.Duration
}

// invocation is one agent run as runAgent starts and reports it.
type invocation struct {
	who  string // the agent in messages: "Claude Code"
	what string // the command in messages: "claude -p"
	env  []string
	bin  string
	args []string
	// prepare, when set, runs first within the run's time bound (Cline's
	// `cline auth`).
	prepare func(ctx context.Context)
	// dump logs what a failing test needs beyond the run's log.
	dump func(t *testing.T, r *agentRun)
}

// runAgent runs inv against fake in the project, bounded by runTimeout,
// logs what the fake answered and the connections it refused, and dumps
// what helps when the calling test fails.
func (h *harness) runAgent(t *testing.T, fake *fakeServer, inv invocation) *agentRun {
	t.Helper()
	h.runs++
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	if inv.prepare != nil {
		inv.prepare(ctx)
	}
	cmd := h.agentCmd(ctx, inv.env, inv.bin, inv.args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &agentRun{err: err, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		res.err = fmt.Errorf("no answer within %s (killed): %v", runTimeout, err)
	}
	t.Logf("%s ran %s (exit: %v); the fake API answered:", inv.what, res.elapsed.Round(time.Millisecond), res.err)
	for _, r := range fake.Requests() {
		t.Logf("  %s %s → %s", r.Method, r.Path, fake.summarize(&r))
	}
	for _, e := range fake.Egress() {
		t.Logf("refused a connection %s tried to open: %s", inv.who, e)
	}
	t.Cleanup(func() {
		if t.Failed() {
			inv.dump(t, res)
		}
	})
	return res
}

// agentCmd is one command of an agent CLI in the project, in its own
// process group killed whole when ctx ends: the shell tool's children
// must not outlive the run.
func (h *harness) agentCmd(ctx context.Context, env []string, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = h.runDir()
	cmd.Env = env
	ownGroup(cmd)
	cmd.Cancel = func() error { return signalGroup(cmd, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// dumpRequests logs every request the fake model got, what it answered,
// and the body's member (its last n elements when n > 0).
func dumpRequests(t *testing.T, fake *fakeServer, label, member string, n int) {
	for i, req := range fake.Requests() {
		part := memberOf(req.Body, member)
		if n > 0 {
			part = lastOf(req.Body, member, n)
		}
		t.Logf("request %d: %s %s main=%v answer=%q\n  %s: %s", i+1, req.Method, req.Path, req.Main, req.Answer, label, clip(string(part), 4000))
	}
}

// runScenarios runs the scenarios every agent shares; guard replaces the
// shared guard case for an agent whose hooks cannot give the model a
// refusal's reason (nil: the shared one).
func runScenarios(t *testing.T, a agent, start time.Time, guard func(*testing.T)) {
	if guard == nil {
		guard = func(t *testing.T) { guardCase(t, a, "rm -rf", "marker") }
	}
	t.Run("GuardBlocksRmRf", guard)
	t.Run("LsResultReachesModel", func(t *testing.T) { lsCase(t, a) })
	t.Run("ContextReachesModel", func(t *testing.T) { contextCase(t, a) })
	t.Run("UnapprovedHookNeverRuns", func(t *testing.T) { unapprovedCase(t, a) })
	t.Logf("total %s, %d %s run(s)", time.Since(start).Round(time.Millisecond), a.base().runs, a.spec().name)
}

// guardTarget makes the directory dir of the project, with a file in it,
// and returns it with the command rm (rm -rf, rm -r) that deletes it.
func (h *harness) guardTarget(t *testing.T, rm, dir string) (marker, command string) {
	t.Helper()
	marker = filepath.Join(h.project, dir)
	mustMkdir(t, marker)
	mustWrite(t, filepath.Join(marker, "keep.txt"), "the guard must keep me\n", 0o644)
	// Safety: the only destructive command is on a path inside the test's
	// own temporary directory. If the guard failed, the agent would run it.
	h.mustBeInside(t, marker)
	return marker, rm + " " + shellQuote(marker)
}

// guardPrompt is the guard case's script: the model asks to delete dir.
func guardPrompt(dir, command string) script {
	return script{Prompt: "E2E-PROMPT-guard: please delete the " + dir + " directory.", Command: command}
}

// checkKept: the directory guardTarget made survived command.
func checkKept(t *testing.T, marker, command string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(marker, "keep.txt")); err != nil {
		t.Errorf("the guard did not stop %q: %v", command, err)
	}
}

// checkGuardSaw: the guard saw the rm call; seen is what
// .hermes/guard.log must contain.
func (h *harness) checkGuardSaw(t *testing.T, rm, seen string) {
	t.Helper()
	if !fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), seen) {
		t.Errorf("the guard never saw the %s call (.hermes/guard.log)", rm)
	}
}

// guardCase: the model asks the shell tool for rm (rm -rf, rm -r) on a
// directory of the project; the guard (a Hermes hook on terminal, which
// the shell tool is) refuses, the directory survives and the model reads
// the guard's reason as the call's result.
func guardCase(t *testing.T, a agent, rm, dir string) {
	h, s := a.base(), a.spec()
	marker, command := h.guardTarget(t, rm, dir)
	fake := a.newFake(t, guardPrompt(dir, command))
	a.requireSuccess(t, a.run(t, fake))

	checkKept(t, marker, command)
	got := a.toolResult(t, fake)
	if !got.found {
		t.Fatalf("no request to the model carried the %s of the %s", s.result, s.call())
	}
	if !strings.Contains(got.text, guardReason) {
		t.Errorf("the %s call's %s does not carry the guard's reason %q; the model read%s:\n%s", s.tool, s.result, guardReason, got.note, got.text)
	} else {
		t.Logf("the model read%s: %s", got.note, got.text)
	}
	seen := rm
	if s.guardLogsCommand {
		seen = command
	}
	h.checkGuardSaw(t, rm, seen)
}

// lsCase: a harmless command passes the guard and its output reaches the
// model.
func lsCase(t *testing.T, a agent) {
	s := a.spec()
	fake := a.newFake(t, script{Prompt: "E2E-PROMPT-ls: list the files here.", Command: "ls"})
	a.requireSuccess(t, a.run(t, fake))

	got := a.toolResult(t, fake)
	if !got.found {
		t.Fatalf("no request to the model carried the %s of the %s", s.result, s.call())
	}
	if !strings.Contains(got.text, visibleFile) || strings.Contains(got.text, guardReason) || got.isError {
		t.Errorf("ls should have run and its output reached the model (listing %s); the model read%s:\n%s", visibleFile, got.note, got.text)
	}
}

// contextCase: the context hook's context reaches the model — on
// pre_llm_call, through the prompt hook's additional context, or for an
// agent that drops that, on post_tool_call after an ls.
func contextCase(t *testing.T, a agent) {
	s := a.spec()
	sc := script{Prompt: "E2E-PROMPT-context: say done."}
	if s.contextByTool {
		sc = script{Prompt: "E2E-PROMPT-context: list the files here.", Command: "ls"}
	}
	fake := a.newFake(t, sc)
	a.requireSuccess(t, a.run(t, fake))

	for _, r := range fake.Requests() {
		if r.Main && bytes.Contains(memberOf(r.Body, s.member), []byte(contextMarker)) {
			return
		}
	}
	t.Errorf("no %s of the main conversation carries the context hook's %q", s.unit, contextMarker)
}

// unapprovedCase: the hook nobody approved is configured on
// pre_tool_call, pre_llm_call and post_tool_call, next to approved hooks
// that did run during the same sessions, yet never ran.
func unapprovedCase(t *testing.T, a agent) {
	if a.base().runs == 0 { // run alone (go test -run): give it a session of its own
		fake := a.newFake(t, script{Prompt: "E2E-PROMPT-unapproved: list the files here.", Command: "ls"})
		a.requireSuccess(t, a.run(t, fake))
	}
	checkUnapprovedNeverRan(t, a.base().project)
}
